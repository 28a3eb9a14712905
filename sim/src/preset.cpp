// Presets as TOML. Every key is a parameter of the registry (sim/registry.hpp): reading, writing
// and --set iterate over it, so they cannot disagree about names, types or ranges. Every value is
// checked as it is read and an error names "source:line: section.key".
#include "sim/preset.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <string>

#include "preset_keyframes.hpp"
#include "preset_toml.hpp"
#include "sim/atomic_file.hpp"
#include "sim/input_file.hpp"
#include "sim/registry.hpp"
#include "sim/text.hpp"
#include "toml_depth.hpp"

namespace physarum {

namespace preset_toml {

[[noreturn]] void fail_at(const std::string& source, const toml::node& n, const std::string& what,
                          const std::string& message) {
  throw Error(source + ":" + std::to_string(n.source().begin.line) + ": " + what + ": " + message);
}

namespace {}  // namespace

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

namespace {

std::string_view expected(registry::Type t) {
  using registry::Type;
  switch (t) {
    case Type::Float: return "a number";
    case Type::Int: return "an integer";
    case Type::Bool: return "true or false";
    case Type::Count: return "a count (an integer or a string like \"250K\")";
    case Type::Matrix: return "an array of rows, e.g. [[1, -1], [0.5, 1]]";
    default: return "a string";
  }
}

std::optional<double> number_of(const toml::node& n) {
  if (const auto f = n.as_floating_point()) return f->get();
  if (const auto i = n.as_integer()) return static_cast<double>(i->get());
  return std::nullopt;
}

// Rows of numbers, one row per species, each entry in the parameter's range.
std::vector<float> matrix_of(const registry::Param& param, const toml::array& rows, size_t n) {
  const std::string shape = std::to_string(n) + " x " + std::to_string(n);
  if (rows.size() != n) {
    throw Error("must be " + shape + " (one row per species); it has " + std::to_string(rows.size()) +
                " rows");
  }
  std::vector<float> w;
  for (size_t r = 0; r < rows.size(); ++r) {
    const toml::array* row = rows[r].as_array();
    if (row == nullptr) throw Error("row " + std::to_string(r) + " is not an array of numbers");
    if (row->size() != n) {
      throw Error("must be " + shape + "; row " + std::to_string(r) + " has " + std::to_string(row->size()) +
                  " numbers");
    }
    for (size_t c = 0; c < row->size(); ++c) {
      const std::string entry = "entry [" + std::to_string(r) + "][" + std::to_string(c) + "]";
      const std::optional<double> d = number_of((*row)[c]);
      if (!d) throw Error(entry + " is not a number");
      float f = 0;
      try {
        f = registry::float_of(*d);
      } catch (const Error& e) {
        throw Error(entry + " " + e.what());
      }
      if (f < param.lo || f > param.hi) {
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, f).ptr;
        throw Error(entry + " = " + std::string(text, end) + " is out of range: allowed " +
                    registry::range_text(param));
      }
      w.push_back(f);
    }
  }
  return w;
}

}  // namespace

Value value_of(const registry::Param& param, const toml::node& node, size_t species) {
  using registry::Type;
  const auto wrong = [&] {
    return Error("expected " + std::string(expected(param.type)) + ", got " + type_name(node));
  };
  const auto text = node.as_string();
  switch (param.type) {
    case Type::Float:
      if (const auto d = number_of(node)) return registry::float_of(*d);
      throw wrong();
    case Type::Int:
      if (const auto i = node.as_integer()) return i->get();
      throw wrong();
    case Type::Bool:
      if (const auto b = node.as_boolean()) return b->get();
      throw wrong();
    case Type::Choice:
    case Type::Text:
      // TOML has taken its quotes off already: quotes left are the value's own, kept as they were
      // set (parse would take a second pair off, and a saved preset would read back otherwise).
      if (!text) throw wrong();
      return std::string(text->get());
    case Type::Count:
      if (const auto i = node.as_integer()) {
        if (i->get() < 0) throw Error("must not be negative (got " + std::to_string(i->get()) + ")");
        return i->get();
      }
      [[fallthrough]];
    case Type::Colour:
    case Type::Size:
      if (!text) throw wrong();
      return registry::parse(param, text->get());  // the text as a value of the type (quotes are TOML's)
    case Type::Matrix:
      if (const toml::array* rows = node.as_array()) return matrix_of(param, *rows, species);
      throw wrong();
  }
  throw wrong();
}

}  // namespace preset_toml

namespace {

using preset_toml::fail_at;
using registry::Section;

constexpr Section kTables[] = {Section::Model, Section::Spawn, Section::Run, Section::Display,
                               Section::Environment};

std::string known_tables() {
  std::string out;
  for (Section s : kTables) out.append("[").append(registry::section_name(s)).append("], ");
  return out + "[[species]], [interaction], [[keyframe]]";
}

std::string known_keys(Section s) {
  std::string out;
  for (const registry::Param& p : registry::params()) {
    if (p.section != s) continue;
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

// Reads one key of a table into the preset: the value as the parameter's type, checked.
void read_key(Preset& p, const registry::Key& k, const toml::node& node, const std::string& source) {
  const std::string name = k.name();
  try {
    const Value v = preset_toml::value_of(*k.param, node, p.species.list.size());
    registry::check(*k.param, v, name, std::max<size_t>(p.species.list.size(), 1));
    registry::put(p, k, v);
  } catch (const Error& e) {
    fail_at(source, node, name, e.what());
  }
}

// [[species]] tables and [interaction] (docs/MODEL.md, "Several species"). Without [interaction]
// W is the identity: each species follows its own trail only.
void read_species(Preset& p, const toml::table& doc, const std::string& source) {
  const toml::node* species = doc.get("species");
  const toml::node* interaction = doc.get("interaction");
  if (species == nullptr) {
    if (interaction != nullptr)
      fail_at(source, *interaction, "interaction", "needs [[species]] tables (one per species) to apply to");
    return;
  }
  const toml::array* list = species->as_array();
  if (list == nullptr || !list->is_array_of_tables())
    fail_at(source, *species, "species", "must be written as [[species]] tables");
  if (const toml::node* model = doc.get("model")) {
    fail_at(source, *model, "model",
            "a preset with [[species]] tables has no [model] table: put the model keys in each [[species]]");
  }
  if (const toml::node* mode = doc.at_path("spawn.mode").node()) {
    fail_at(source, *mode, "spawn.mode",
            "a preset with [[species]] tables gives each species its own 'spawn' mode instead");
  }
  if (list->empty() || list->size() > static_cast<size_t>(kMaxSpecies)) {
    fail_at(source, list->empty() ? *species : (*list)[static_cast<size_t>(kMaxSpecies)], "species",
            "allowed 1 to " + std::to_string(kMaxSpecies) + " [[species]] tables; this preset has " +
                std::to_string(list->size()));
  }
  for (size_t i = 0; i < list->size(); ++i) {
    Species s;
    s.name = "species " + std::to_string(i);
    p.species.list.push_back(s);
    for (const auto& [key, node] : *(*list)[i].as_table()) {
      const std::string name = "species." + std::to_string(i) + "." + std::string(key.str());
      registry::Key k;
      try {
        k = registry::resolve(p, name);
      } catch (const Error&) {
        fail_at(source, node, name,
                "unknown key (known keys: " + known_keys(Section::Species) + ", " +
                    known_keys(Section::Model) + ")");
      }
      read_key(p, k, node, source);
    }
  }
  const size_t n = p.species.list.size();
  p.species.interaction.assign(n * n, 0.0f);
  for (size_t i = 0; i < n; ++i) p.species.interaction[i * n + i] = 1.0f;
  if (interaction != nullptr) {
    const toml::table* t = interaction->as_table();
    if (t == nullptr) fail_at(source, *interaction, "interaction", "must be a table with a 'matrix' key");
    for (const auto& [key, node] : *t) {
      if (key.str() != "matrix")
        fail_at(source, node, "interaction." + std::string(key.str()), "unknown key (known keys: matrix)");
      read_key(p, registry::resolve(p, "interaction.matrix"), node, source);
    }
  }
  try {
    validate(p.species);
  } catch (const Error& e) {  // the shares as a whole: name the first table
    fail_at(source, *species, "species", e.what());
  }
}

// The tables [model], [spawn], [run], [display] and [environment].
void read_tables(Preset& p, const toml::table& doc, const std::string& source) {
  for (const auto& [section_key, section_node] : doc) {
    const std::string section(section_key.str());
    if (section == "species" || section == "interaction" || section == "keyframe") continue;
    const auto* known = std::find_if(std::begin(kTables), std::end(kTables),
                                     [&](Section s) { return registry::section_name(s) == section; });
    const toml::table* table = section_node.as_table();
    if (known == std::end(kTables)) {
      fail_at(source, section_node, section,
              "unknown " + std::string(table ? "table" : "key") + " (known tables: " + known_tables() + ")");
    }
    if (!table)
      fail_at(source, section_node, section, "must be a table, not " + preset_toml::type_name(section_node));
    for (const auto& [key, node] : *table) {
      const std::string name = section + "." + std::string(key.str());
      const registry::Param* param = registry::find(*known, key.str());
      if (!param) fail_at(source, node, name, "unknown key (known keys: " + known_keys(*known) + ")");
      read_key(p, registry::Key{param, -1}, node, source);
    }
  }
}

}  // namespace

Preset parse_preset(std::string_view toml_text, const std::string& source_name) {
  check_toml_depth(toml_text, source_name);  // before toml++, which recurses without a limit
  toml::table doc;
  try {
    doc = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    throw Error(source_name + ":" + std::to_string(e.source().begin.line) +
                ": TOML syntax error: " + std::string(e.description()));
  }
  Preset p;
  read_tables(p, doc, source_name);
  read_species(p, doc, source_name);
  preset_keyframes::read(p, doc.get("keyframe"), source_name);  // checked against the values above
  validate(p);
  return p;
}

Preset load_preset(const std::filesystem::path& file) {
  // A preset is a few hundred bytes; anything over 1 MiB is not one.
  return parse_preset(read_input_file(file, "preset", size_t{1} << 20), file.string());
}

std::string preset_to_toml(const Preset& p) {
  std::string out = "# physarum preset\n";
  const std::vector<registry::Key> keys = registry::keys_of(p);
  const auto write = [&](const registry::Key& k) {
    const std::string v = registry::to_toml(*k.param, registry::get(p, k));
    if (v.empty()) return;  // an optional key that is not set
    if (!k.param->written_when_default && v == registry::to_toml(*k.param, registry::default_value(*k.param)))
      return;
    out += std::string(k.param->name) + " = " + v + "\n";
  };
  for (Section s : kTables) {
    if (s == Section::Environment && p.environment == EnvironmentParams{}) continue;  // none
    if (s == Section::Model && !p.species.list.empty()) continue;  // each [[species]] holds it
    out += "\n[" + std::string(registry::section_name(s)) + "]\n";
    for (const registry::Key& k : keys)
      if (k.species < 0 && k.param->section == s) write(k);
  }
  for (size_t i = 0; i < p.species.list.size(); ++i) {
    out += "\n[[species]]\n";
    for (const registry::Key& k : keys)
      if (k.species == static_cast<int>(i)) write(k);
  }
  if (!p.species.list.empty()) out += "\n[interaction]\n";
  for (const registry::Key& k : keys)
    if (k.param->section == Section::Interaction) write(k);
  return out + preset_keyframes::to_toml(p);
}

void save_preset(const Preset& p, const std::filesystem::path& file) {
  validate(p);
  // Through a temporary file renamed over the target; created 0666 less the umask by the kernel,
  // so the process-wide umask is never changed (other threads may be creating files).
  write_file_atomically(file, preset_to_toml(p), "save preset");
}

void apply_override(Preset& p, std::string_view assignment) {
  const std::string whole(assignment);
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || assignment.substr(0, eq).find('.') == std::string_view::npos) {
    throw Error(whole + ": expected section.key=value, e.g. model.decay=0");
  }
  const std::string_view name = trim(assignment.substr(0, eq));
  const std::string_view text = trim(assignment.substr(eq + 1));
  registry::Key k;
  try {
    k = registry::resolve(p, name);
  } catch (const Error& e) {
    throw Error(whole + ": " + e.what());
  }
  try {
    registry::set(p, k, registry::parse(*k.param, text));  // checked first: a refusal changes nothing
  } catch (const Error& e) {
    // Range messages name the key already ("model.decay = 2 is out of range ...").
    const std::string msg = e.what();
    const bool named = msg.rfind(std::string(name), 0) == 0;
    throw Error(whole + ": " + (named ? msg : std::string(name) + ": " + msg));
  }
}

}  // namespace physarum
