// Small text helpers shared by the preset and palette parsers and by what prints their names.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace physarum {

// The extension of `file` in lower case with its dot (".png"), as outputs are chosen by it.
inline std::string lowercase_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// `s` without the leading and trailing characters in `blanks`.
inline std::string_view trim(std::string_view s, std::string_view blanks = " \t") {
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(blanks);
  return s.substr(b, e - b + 1);
}

// `s` safe to print on a terminal: a name or path read from a file or a folder can hold ESC (which
// recolours or rewrites the screen), BEL or a newline (which forges a line of output). Control
// characters, C1 ones (U+0080..U+009F, some terminals take U+009B as ESC [) included, become
// escapes (\n, \t, \r, \xHH, \u00HH), so the text stays readable and on one line.
inline std::string printable(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    const auto next = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u == 0x7f) {
      out += {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
    } else if (u == 0xc2 && next >= 0x80 && next <= 0x9f) {
      out += {'\\', 'u', '0', '0', kHex[next >> 4], kHex[next & 15]};
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

// Levenshtein distance (insertions, deletions, substitutions, each 1): how "did you mean" finds
// the names closest to a mistyped one.
inline size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace physarum
