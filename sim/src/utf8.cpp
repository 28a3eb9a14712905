#include "utf8.hpp"

#include <cstdint>

namespace physarum {

// TOML files are UTF-8: a string that is not would be saved into a preset that cannot be read back
// (found by tests/fuzz/fuzz_set.cpp). Overlong forms, surrogates and values past U+10FFFF count as
// invalid, as they do for toml++.
size_t valid_utf8_prefix(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      extra = 1;
      cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
      extra = 2;
      cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
      extra = 3;
      cp = c & 0x07u;
    } else {
      return i;
    }
    if (i + static_cast<size_t>(extra) >= s.size()) return i;  // cut short
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xc0u) != 0x80u) return i;
      cp = (cp << 6) | (b & 0x3fu);
    }
    constexpr uint32_t kMin[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += static_cast<size_t>(extra) + 1;
  }
  return i;
}

bool valid_utf8(std::string_view s) {
  return valid_utf8_prefix(s) == s.size();
}

}  // namespace physarum
