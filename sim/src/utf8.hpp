// UTF-8 validation for text that goes into presets (TOML files are UTF-8).
#pragma once

#include <cstddef>
#include <string_view>

namespace physarum {

bool valid_utf8(std::string_view s);
// The bytes before the first one that breaks UTF-8 (s.size() when none does): where a reader says
// the fault is.
size_t valid_utf8_prefix(std::string_view s);

}  // namespace physarum
