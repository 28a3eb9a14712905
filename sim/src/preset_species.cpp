#include "preset_species.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
#include <sstream>
#include <vector>

#include "toml_text.hpp"

namespace physarum::preset_species {
namespace {

// One key of a [[species]] table: numbers go through set_number, strings through set_string;
// `text` writes the value back as TOML.
struct Key {
  std::string_view name;
  bool is_number;
  std::function<void(Species&, float)> set_number;
  std::function<void(Species&, const std::string&)> set_string;
  std::function<std::string(const Species&)> text;
};

Key model_number(std::string_view name, float ModelParams::*member) {
  return {name, true, [member](Species& s, float v) { s.model.*member = v; }, nullptr,
          [member](const Species& s) { return toml_float(s.model.*member); }};
}

const std::vector<Key>& keys() {
  static const std::vector<Key> table = {
      {"name", false, nullptr,
       [](Species& s, const std::string& v) {
         if (v.empty() || v.size() > 64) throw Error("must be 1 to 64 characters");
         s.name = v;
       },
       [](const Species& s) { return toml_quote(s.name); }},
      {"colour", false, nullptr, [](Species& s, const std::string& v) { s.colour = parse_colour(v); },
       [](const Species& s) { return toml_quote(format_colour(s.colour)); }},
      {"share", true, [](Species& s, float v) { s.share = v; }, nullptr,
       [](const Species& s) { return toml_float(s.share); }},
      {"spawn", false, nullptr, [](Species& s, const std::string& v) { s.spawn = parse_spawn_mode(v); },
       [](const Species& s) { return toml_quote(std::string(to_string(s.spawn))); }},
      model_number("sensor_angle_deg", &ModelParams::sensor_angle_deg),
      model_number("rotation_angle_deg", &ModelParams::rotation_angle_deg),
      model_number("sensor_distance", &ModelParams::sensor_distance),
      model_number("step_size", &ModelParams::step_size),
      model_number("deposit", &ModelParams::deposit),
      model_number("decay", &ModelParams::decay),
      model_number("diffuse", &ModelParams::diffuse),
      {"turn_rule", false, nullptr,
       [](Species& s, const std::string& v) { s.model.turn_rule = parse_turn_rule(v); },
       [](const Species& s) { return toml_quote(std::string(to_string(s.model.turn_rule))); }},
      model_number("jitter", &ModelParams::jitter),
      // Optional: without it the species takes [environment] food_strength (written only when set).
      {"food_strength", true, [](Species& s, float v) { s.food_strength = v; }, nullptr,
       [](const Species& s) { return s.food_strength ? toml_float(*s.food_strength) : std::string(); }},
  };
  return table;
}

const Key* find_key(std::string_view name) {
  for (const Key& k : keys()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string known_keys() {
  std::string out;
  for (const Key& k : keys()) {
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

std::string prefix(size_t index) {
  return "species." + std::to_string(index);
}

// Range checks of one species, named "species.N.key" (validate(SpeciesSet) names them the same way).
void check_species(const Species& s, size_t index) {
  SpeciesSet one;
  one.list.resize(index + 1);  // the others are defaults, always valid
  one.list[index] = s;
  one.list[index].share = 1.0f;  // the share alone is checked below (0 is fine for one species)
  one.interaction.assign((index + 1) * (index + 1), 0.0f);
  validate(one);
  if (!std::isfinite(s.share) || s.share < 0.0f || s.share > 1.0e6f) {
    std::ostringstream m;
    m << prefix(index) << ".share = " << s.share << " is out of range: allowed 0 to 1e+06";
    throw Error(m.str());
  }
}

// Sets one key from a number or a string, then checks the species.
void set_key(Species& s, size_t index, const Key& k, std::optional<double> number, const std::string* text) {
  if (k.is_number) {
    if (!number) throw Error("expected a number");
    const double d = *number;
    if (!std::isfinite(d) || !std::isfinite(static_cast<float>(d))) throw Error("must be a finite float");
    k.set_number(s, static_cast<float>(d));
  } else {
    if (text == nullptr) throw Error("expected a string");
    k.set_string(s, *text);
  }
  check_species(s, index);
}

[[noreturn]] void fail_at(const std::string& source, const toml::node& n, const std::string& what,
                          const std::string& message) {
  throw Error(source + ":" + std::to_string(n.source().begin.line) + ": " + what + ": " + message);
}

// An S x S matrix from a TOML array of arrays of numbers; throws Error (without location).
std::vector<float> matrix_of(const toml::node& n, size_t species) {
  const toml::array* rows = n.as_array();
  if (rows == nullptr) throw Error("expected an array of rows, e.g. [[1, -1], [0.5, 1]]");
  const std::string shape = std::to_string(species) + " x " + std::to_string(species);
  if (rows->size() != species) {
    throw Error("must be " + shape + " (one row per species); it has " + std::to_string(rows->size()) +
                " rows");
  }
  std::vector<float> w;
  for (size_t r = 0; r < rows->size(); ++r) {
    const toml::array* row = (*rows)[r].as_array();
    if (row == nullptr) throw Error("row " + std::to_string(r) + " is not an array of numbers");
    if (row->size() != species) {
      throw Error("must be " + shape + "; row " + std::to_string(r) + " has " + std::to_string(row->size()) +
                  " numbers");
    }
    for (size_t c = 0; c < row->size(); ++c) {
      const toml::node& e = (*row)[c];
      double d = 0;
      if (const auto f = e.as_floating_point()) {
        d = f->get();
      } else if (const auto i = e.as_integer()) {
        d = static_cast<double>(i->get());
      } else {
        throw Error("entry [" + std::to_string(r) + "][" + std::to_string(c) + "] is not a number");
      }
      if (!std::isfinite(d) || std::fabs(d) > kMaxInteraction) {
        std::ostringstream m;
        m << "entry [" << r << "][" << c << "] = " << d << " is out of range: allowed " << -kMaxInteraction
          << " to " << kMaxInteraction;
        throw Error(m.str());
      }
      w.push_back(static_cast<float>(d));
    }
  }
  return w;
}

std::vector<float> identity(size_t n) {
  std::vector<float> w(n * n, 0.0f);
  for (size_t i = 0; i < n; ++i) w[i * n + i] = 1.0f;
  return w;
}

}  // namespace

void read(Preset& p, const toml::node* species, const toml::node* interaction, const toml::node* model,
          const toml::node* spawn, const std::string& source) {
  if (species == nullptr) {
    if (interaction != nullptr) {
      fail_at(source, *interaction, "interaction", "needs [[species]] tables (one per species) to apply to");
    }
    return;
  }
  const toml::array* list = species->as_array();
  if (list == nullptr || !list->is_array_of_tables()) {
    fail_at(source, *species, "species", "must be written as [[species]] tables");
  }
  if (model != nullptr) {
    fail_at(source, *model, "model",
            "a preset with [[species]] tables has no [model] table: put the model keys in each [[species]]");
  }
  if (spawn != nullptr && spawn->as_table() != nullptr) {
    if (const toml::node* mode = spawn->as_table()->get("mode")) {
      fail_at(source, *mode, "spawn.mode",
              "a preset with [[species]] tables gives each species its own 'spawn' mode instead");
    }
  }
  if (list->empty() || list->size() > static_cast<size_t>(kMaxSpecies)) {
    fail_at(source, list->empty() ? *species : (*list)[static_cast<size_t>(kMaxSpecies)], "species",
            "allowed 1 to " + std::to_string(kMaxSpecies) + " [[species]] tables; this preset has " +
                std::to_string(list->size()));
  }
  SpeciesSet set;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::table& t = *(*list)[i].as_table();
    Species s;
    s.name = "species " + std::to_string(i);
    for (const auto& [key, node] : t) {
      const std::string name = prefix(i) + "." + std::string(key.str());
      const Key* k = find_key(key.str());
      if (k == nullptr) fail_at(source, node, name, "unknown key (known keys: " + known_keys() + ")");
      std::optional<double> number;
      std::optional<std::string> text;
      if (const auto f = node.as_floating_point()) number = f->get();
      if (const auto n = node.as_integer()) number = static_cast<double>(n->get());
      if (const auto str = node.as_string()) text = str->get();
      if (k->is_number ? !number : !text) {
        fail_at(source, node, name, k->is_number ? "expected a number" : "expected a string");
      }
      try {
        set_key(s, i, *k, number, text ? &*text : nullptr);
      } catch (const Error& e) {
        fail_at(source, node, name, e.what());
      }
    }
    set.list.push_back(s);
  }
  set.interaction = identity(set.list.size());
  if (interaction != nullptr) {
    const toml::table* t = interaction->as_table();
    if (t == nullptr) fail_at(source, *interaction, "interaction", "must be a table with a 'matrix' key");
    for (const auto& [key, node] : *t) {
      if (key.str() != "matrix")
        fail_at(source, node, "interaction." + std::string(key.str()), "unknown key (known keys: matrix)");
      try {
        set.interaction = matrix_of(node, set.list.size());
      } catch (const Error& e) {
        fail_at(source, node, "interaction.matrix", e.what());
      }
    }
  }
  try {
    validate(set);
  } catch (const Error& e) {  // the shares as a whole: name the first table
    fail_at(source, *species, "species", e.what());
  }
  p.species = std::move(set);
}

std::string to_toml(const Preset& p) {
  if (p.species.list.empty()) return "";
  std::string out;
  for (const Species& s : p.species.list) {
    out += "\n[[species]]\n";
    for (const Key& k : keys()) {
      const std::string text = k.text(s);
      if (!text.empty()) out += std::string(k.name) + " = " + text + "\n";
    }
  }
  const size_t n = p.species.list.size();
  out += "\n[interaction]\nmatrix = [";
  for (size_t r = 0; r < n; ++r) {
    out += r == 0 ? "[" : ", [";
    for (size_t c = 0; c < n; ++c) out += (c == 0 ? "" : ", ") + toml_float(p.species.interaction[r * n + c]);
    out += "]";
  }
  return out + "]\n";
}

void apply_override(Preset& p, std::string_view name, std::string_view value, const std::string& whole) {
  Preset next = p;
  const size_t n = next.species.list.size();
  if (name == "interaction.matrix") {
    if (n == 0) throw Error(whole + ": interaction.matrix needs a preset with [[species]] tables");
    try {
      const toml::table doc = toml::parse("matrix = " + std::string(value));
      next.species.interaction = matrix_of(*doc.get("matrix"), n);
    } catch (const toml::parse_error& e) {
      throw Error(whole + ": interaction.matrix: not a TOML array of rows like [[1, -1], [0.5, 1]] (" +
                  std::string(e.description()) + ")");
    } catch (const Error& e) {
      throw Error(whole + ": interaction.matrix: " + e.what());
    }
    p = std::move(next);
    return;
  }
  // species.N.key
  const std::string_view rest = name.substr(std::string_view("species.").size());
  const size_t dot = rest.find('.');
  size_t index = 0;
  const std::string_view num = rest.substr(0, dot);
  const auto r = std::from_chars(num.data(), num.data() + num.size(), index);
  if (dot == std::string_view::npos || num.empty() || r.ec != std::errc() ||
      r.ptr != num.data() + num.size()) {
    throw Error(whole + ": expected species.N.key=value, e.g. species.0.decay=0.05");
  }
  if (index >= n) {
    throw Error(whole + ": " +
                (n == 0 ? std::string("this preset has no [[species]] tables")
                        : "species " + std::to_string(index) + " does not exist (0 to " +
                              std::to_string(n - 1) + ")"));
  }
  const std::string_view key = rest.substr(dot + 1);
  const Key* k = find_key(key);
  if (k == nullptr) {
    throw Error(whole + ": unknown key '" + std::string(name) +
                "' (known keys of a species: " + known_keys() + ")");
  }
  std::string text(value);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  std::optional<double> number;
  double d = 0;
  const auto nr = std::from_chars(text.data(), text.data() + text.size(), d);
  if (!text.empty() && nr.ec == std::errc() && nr.ptr == text.data() + text.size()) number = d;
  try {
    if (k->is_number && !number) throw Error("'" + text + "' is not a number");
    set_key(next.species.list[index], index, *k, number, &text);
    validate(next.species);  // the shares as a whole
  } catch (const Error& e) {
    const std::string msg = e.what();
    const bool named = msg.rfind(std::string(name) + " ", 0) == 0;
    throw Error(whole + ": " + (named ? msg : std::string(name) + ": " + msg));
  }
  p = std::move(next);
}

}  // namespace physarum::preset_species
