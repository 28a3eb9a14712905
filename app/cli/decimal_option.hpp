// Integer options are decimal. CLI11 reads integers with strtoll(..., base 0), so "--steps 010"
// ran 8 steps (octal) and "0x10" meant 16; this transform runs first, refuses anything but decimal
// digits and drops leading zeros, so "010" is ten and "0x10", "1e3" and "8.5" are refused.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace physarum::app {

// Use as option->transform(decimal_integer()).
CLI::Validator decimal_integer();

// Real-valued options are finite: CLI11 reads "nan", "inf" and "1e999" as numbers, and a NaN passes
// CLI::Range (every comparison with it is false), so it reached thresholds and JSON unchecked. Use
// as option->check(finite_number()) before any Range.
CLI::Validator finite_number();

// Use as option->check(byte_size()) on a string option read with parse_byte_size (sim/byte_size.hpp).
CLI::Validator byte_size();

}  // namespace physarum::app
