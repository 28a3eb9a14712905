// A single pass with a few states (in which kind of string, key or value, header or not); it does
// not validate TOML, it only counts, and it counts generously: anything it cannot classify counts
// as nesting, so a file refused here is deeper than kMaxTomlDepth or not TOML at all.
#include "toml_depth.hpp"

#include "sim/params.hpp"

namespace physarum {

void check_toml_depth(std::string_view text, const std::string& source) {
  int line = 1;
  int brackets = 0;       // enclosing arrays and inline tables of the value being read
  int segments = 1;       // parts of the key being read
  bool in_key = true;     // at a key (line start, in a header, or after '{' / ',' in an inline table)
  int inline_tables = 0;  // how many of `brackets` are inline tables (their ',' starts a key)
  const auto fail = [&] {
    throw Error(source + ":" + std::to_string(line) + ": keys or tables nested more than " +
                std::to_string(kMaxTomlDepth) + " levels deep; a preset has only [section] and key = value");
  };
  const auto check = [&] {
    if (segments + brackets > kMaxTomlDepth) fail();
  };
  size_t i = 0;
  const size_t n = text.size();
  const auto skip_string = [&](char quote) {
    const bool multi = text.substr(i, 3) == std::string(3, quote);
    i += multi ? 3 : 1;
    while (i < n) {
      const char c = text[i];
      if (c == '\n') ++line;
      if (c == '\\' && quote == '"') {
        i += 2;
        continue;
      }
      if (multi ? text.substr(i, 3) == std::string(3, quote) : c == quote) {
        i += multi ? 3 : 1;
        return;
      }
      if (!multi && c == '\n') return;  // unterminated; toml++ will say so
      ++i;
    }
  };
  while (i < n) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      skip_string(c);
      continue;
    }
    if (c == '#') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\n') {
      ++line;
      if (brackets == 0) {
        in_key = true;
        segments = 1;
      }
    } else if (in_key && c == '.') {
      ++segments;
      check();
    } else if (in_key && c == '=') {
      in_key = false;
    } else if (c == '[' && in_key && brackets == 0) {
      // A table header: its key follows; `[[` is an array of tables, the same depth.
      while (i + 1 < n && text[i + 1] == '[') ++i;
    } else if (c == '[' || c == '{') {
      ++brackets;
      if (c == '{') {
        ++inline_tables;
        in_key = true;
        segments = 1;
      }
      check();
    } else if ((c == ']' || c == '}') && brackets > 0) {
      --brackets;
      if (c == '}' && inline_tables > 0) --inline_tables;
    } else if (c == ',' && inline_tables > 0) {
      in_key = true;
      segments = 1;
    }
    ++i;
  }
}

}  // namespace physarum
