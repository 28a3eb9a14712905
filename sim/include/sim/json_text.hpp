// Pieces of the JSON files the program writes, strict JSON (RFC 8259) that every parser reads:
// strings escaped, and no NaN or infinity, which JSON does not have.
#pragma once

#include <string>
#include <string_view>

namespace physarum {

// `s` in double quotes, with '"', '\\' and control characters escaped.
std::string json_string(std::string_view s);

// `v` with `significant` digits (printf %.*g), or null when it is not finite.
std::string json_number(double v, int significant = 17);

}  // namespace physarum
