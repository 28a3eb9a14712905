// A cheap scan of TOML text before toml++ parses it: toml++ recurses once per level of a dotted key
// or table header ([a.b.c....]) with no limit of its own, so a small file of thousands of levels
// exhausts the stack and kills the program. Presets need two levels ([section] key = value).
#pragma once

#include <string>
#include <string_view>

namespace physarum {

inline constexpr int kMaxTomlDepth = 8;

// Throws Error "source:line: ..." at the first key, table header, array or inline table nested more
// than kMaxTomlDepth deep (dotted-key segments plus enclosing arrays and inline tables). Strings
// and comments are skipped, so dots and brackets inside them do not count.
void check_toml_depth(std::string_view text, const std::string& source);

}  // namespace physarum
