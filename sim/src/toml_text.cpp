#include "toml_text.hpp"

#include <array>
#include <charconv>
#include <cstdio>

namespace physarum {

// Shortest text that reads back as exactly the same float (through a double, as toml++ and
// apply_override read it); falls back to the double's shortest form in the rare case it does not.
std::string toml_float(float f) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), f);
  std::string s(buf.data(), end);
  double back = 0;
  std::from_chars(s.data(), s.data() + s.size(), back);
  if (static_cast<float>(back) != f) {
    auto [end2, ec2] = std::to_chars(buf.data(), buf.data() + buf.size(), static_cast<double>(f));
    s.assign(buf.data(), end2);
  }
  // TOML needs a '.' or an exponent to read a float.
  if (s.find_first_of(".eE") == std::string::npos && s.find_first_of("ni") == std::string::npos) s += ".0";
  return s;
}

std::string toml_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", u);
      out += esc;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace physarum
