// UTF-8 validation for text that goes into presets (TOML files are UTF-8).
#pragma once

#include <string_view>

namespace physarum {

bool valid_utf8(std::string_view s);

}  // namespace physarum
