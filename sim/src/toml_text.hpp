// Values as TOML text, for the registry that writes presets (registry.cpp, registry_values.cpp).
#pragma once

#include <string>

namespace physarum {

// Shortest text that reads back as exactly the same float, with a '.' or an exponent (TOML's float).
std::string toml_float(float f);
// A basic TOML string: quotes, backslashes and control characters escaped.
std::string toml_quote(const std::string& s);

}  // namespace physarum
