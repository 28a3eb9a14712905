// Documentation generated from the registry: the presets README's tables, the Python stub's
// keywords and `physarum params`.
#include <algorithm>

#include "sim/registry.hpp"

namespace physarum::registry {
namespace {

// Concatenation by append: g++ 12 warns falsely (-Wrestrict) on "literal" + std::string chains.
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return s;
}

std::string escape_cell(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string default_text(const Param& p) {
  if (p.section == Section::Species && p.name == "name") return "\"species N\"";
  if (p.section == Section::Interaction) return "the identity";
  const std::string v = to_toml(p, default_value(p));
  return v.empty() ? "(none)" : v;
}

std::string range_cell(const Param& p) {
  std::string r = range_text(p);
  if (!p.unit.empty()) r += cat(" ", p.unit);
  return r;
}

std::string_view python_type(Type t) {
  switch (t) {
    case Type::Float: return "float";
    case Type::Int: return "int";
    case Type::Bool: return "bool";
    case Type::Count: return "int | str";
    case Type::Size: return "tuple[int, int] | str";
    case Type::Matrix: return "list[list[float]]";
    default: return "str";
  }
}

}  // namespace

std::string markdown_table(Section s) {
  std::string out = "| key | type | default | range | keyframed | meaning |\n|---|---|---|---|---|---|\n";
  for (const Param& p : params()) {
    if (p.section != s) continue;
    out += cat("| `", p.name, "` | ", type_name(p.type), " | ", escape_cell(default_text(p)), " | ",
               escape_cell(range_cell(p)), " | ", p.keyframable ? "yes" : "no", " | ", escape_cell(p.doc),
               " |\n");
  }
  if (s == Section::Species) {
    out +=
        "| the `[model]` keys | as in `[model]` | as in `[model]` | as in `[model]` | yes | its rule; "
        "`decay` and `diffuse` are its channel's |\n";
  }
  return out;
}

std::string python_keywords() {
  std::string out;
  for (const Param& p : params()) {
    if (p.section == Section::Species || p.section == Section::Interaction) continue;
    out += cat("        ", section_name(p.section), "_", p.name, ": ", python_type(p.type), " = ...,\n");
  }
  return out;
}

std::string listing() {
  std::string out;
  for (const Param& p : params()) {
    const std::string key =
        p.section == Section::Species ? cat("species.N.", p.name) : cat(section_name(p.section), ".", p.name);
    std::string line = key;
    line.resize(std::max<size_t>(line.size() + 1, 30), ' ');
    line += std::string(type_name(p.type));
    line.resize(std::max<size_t>(line.size() + 1, 40), ' ');
    line += cat(default_text(p), "  [", range_cell(p), "]", p.keyframable ? "" : "  (not keyframed)");
    out += cat(line, "\n    ", p.doc, p.per_species ? cat(" (also species.N.", p.name, ")") : "", "\n");
  }
  return out;
}

}  // namespace physarum::registry
