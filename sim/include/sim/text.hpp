// Small text helpers shared by the preset and palette parsers.
#pragma once

#include <string_view>

namespace physarum {

// `s` without the leading and trailing characters in `blanks`.
inline std::string_view trim(std::string_view s, std::string_view blanks = " \t") {
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(blanks);
  return s.substr(b, e - b + 1);
}

}  // namespace physarum
