// Integer options are decimal. CLI11 reads integers with strtoll(..., base 0), so "--steps 010"
// ran 8 steps (octal) and "0x10" meant 16; this transform runs first, refuses anything but decimal
// digits and drops leading zeros, so "010" is ten and "0x10", "1e3" and "8.5" are refused.
#pragma once

#include <CLI/CLI.hpp>

namespace physarum::app {

// Use as option->transform(decimal_integer()).
CLI::Validator decimal_integer();

}  // namespace physarum::app
