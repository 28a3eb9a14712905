// Internal to the preset reader (preset.cpp, preset_keyframes.cpp): a TOML node as a registry value,
// and errors located in the file as "source:line: key: message".
#pragma once

#include <toml++/toml.h>

#include <string>

#include "sim/registry.hpp"

namespace physarum::preset_toml {

// The node as a value of the parameter's type, or Error ("expected a number, got a string") without
// location. Numbers become floats exactly as from the command line (registry::float_of). `species`:
// the number of species, the shape of a matrix.
Value value_of(const registry::Param& param, const toml::node& node, size_t species);

// "a string", "an integer", "a table", ... for messages.
std::string type_name(const toml::node& n);

[[noreturn]] void fail_at(const std::string& source, const toml::node& n, const std::string& what,
                          const std::string& message);

}  // namespace physarum::preset_toml
