#include "sim/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace physarum {

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when the byte there starts none.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const auto tail = [&](size_t k) { return (b(k) & 0xC0u) == 0x80u; };
  const unsigned c = b(0);
  if (c >= 0xC2 && c <= 0xDF) return tail(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return b(1) >= lo && b(1) <= hi && tail(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return b(1) >= lo && b(1) <= hi && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(u));
      out += buf;
    } else if (u >= 0x80) {
      const size_t n = utf8_length(s, i);
      out += n == 0 ? std::string_view("\\ufffd") : s.substr(i, n);
      i += n == 0 ? 1 : n;
      continue;
    } else {
      out += c;
    }
    ++i;
  }
  return out + "\"";
}

std::string json_number(double v, int significant) {
  if (!std::isfinite(v)) return "null";
  char text[64];
  if (significant == kJsonShortest) {
    // Without a precision, to_chars gives the shortest text that round-trips (C++17).
    const std::to_chars_result r = std::to_chars(text, text + sizeof text, v);
    return std::string(text, r.ptr);
  }
  std::snprintf(text, sizeof text, "%.*g", significant, v);
  return text;
}

}  // namespace physarum
