// Presets as TOML. One table of fields drives reading, --set overrides and writing, so the three
// cannot disagree about names or types. Every value is validated as it is read and an error names
// "source:line: section.key".
#include "sim/preset.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <toml++/toml.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <variant>

#include "preset_keyframes.hpp"
#include "preset_species.hpp"
#include "sim/atomic_file.hpp"
#include "sim/input_file.hpp"
#include "sim/text.hpp"
#include "toml_depth.hpp"
#include "toml_text.hpp"

namespace physarum {
namespace {

// A value as read from TOML or from the command line, before it is converted to the field's type.
using Value = std::variant<double, int64_t, bool, std::string>;

enum class Kind { Float, Int, Bool, String, Count };

struct Field {
  std::string_view section;
  std::string_view key;
  Kind kind;
  // Converts and stores the value; throws Error (without location) when it does not fit.
  std::function<void(Preset&, const Value&)> set;
  // The value to write back; Count fields write a string when it reads back exactly.
  std::function<Value(const Preset&)> get;
  // Written by preset_to_toml only when it differs from the built-in default (keys added later, so
  // presets saved without using them keep their old text).
  bool written_when_default = true;
};

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Float: return "a number";
    case Kind::Int: return "an integer";
    case Kind::Bool: return "true or false";
    case Kind::String: return "a string";
    case Kind::Count: return "a count (an integer or a string like \"250K\")";
  }
  return "?";
}

// Shortest text that reads back as exactly v.
std::string format_number(double v) {
  std::array<char, 64> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

double as_double(const Value& v) {
  return std::get<double>(v);
}

float to_float(const Value& v) {
  const double d = as_double(v);
  if (!std::isfinite(d)) throw Error("must be a finite number (got " + format_number(d) + ")");
  const float f = static_cast<float>(d);
  if (!std::isfinite(f)) throw Error("is too large for a float (got " + format_number(d) + ")");
  // Below the smallest float the value would silently become 0 (or lose most of its digits).
  if (d != 0 && std::fabs(f) < std::numeric_limits<float>::min()) {
    throw Error("is too small for a float (got " + format_number(d) + "; use 0 or a value of at least " +
                format_number(std::numeric_limits<float>::min()) + ")");
  }
  return f;
}

int to_int(const Value& v, int lo, int hi) {
  const int64_t i = std::get<int64_t>(v);
  if (i < lo || i > hi) {
    throw Error("must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
                std::to_string(i) + ")");
  }
  return static_cast<int>(i);
}

uint64_t to_count(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) {
    if (*i < 0) throw Error("must not be negative (got " + std::to_string(*i) + ")");
    return static_cast<uint64_t>(*i);
  }
  return parse_count(std::get<std::string>(v));
}

template <class Section>
Field float_field(std::string_view section, std::string_view key, float Section::*member,
                  Section Preset::*part) {
  return {section, key, Kind::Float,
          [=](Preset& p, const Value& v) {
            (p.*part).*member = to_float(v);
            validate(p.*part);
          },
          [=](const Preset& p) { return Value{static_cast<double>((p.*part).*member)}; }};
}

template <class Section>
Field bool_field(std::string_view section, std::string_view key, bool Section::*member,
                 Section Preset::*part) {
  return {section, key, Kind::Bool,
          [=](Preset& p, const Value& v) {
            (p.*part).*member = std::get<bool>(v);
            validate(p.*part);
          },
          [=](const Preset& p) { return Value{(p.*part).*member}; }};
}

// An enumeration stored as a string: parse/format come from params.hpp.
template <class Section, class Enum, class Parse>
Field enum_field(std::string_view section, std::string_view key, Enum Section::*member, Section Preset::*part,
                 Parse parse) {
  return {section, key, Kind::String,
          [=](Preset& p, const Value& v) {
            (p.*part).*member = parse(std::get<std::string>(v));
            validate(p.*part);
          },
          [=](const Preset& p) { return Value{std::string(to_string((p.*part).*member))}; }};
}

const std::vector<Field>& fields() {
  static const std::vector<Field> table = [] {
    using P = Preset;
    std::vector<Field> f;
    f.push_back(float_field("model", "sensor_angle_deg", &ModelParams::sensor_angle_deg, &P::model));
    f.push_back(float_field("model", "rotation_angle_deg", &ModelParams::rotation_angle_deg, &P::model));
    f.push_back(float_field("model", "sensor_distance", &ModelParams::sensor_distance, &P::model));
    f.push_back(float_field("model", "step_size", &ModelParams::step_size, &P::model));
    f.push_back(float_field("model", "deposit", &ModelParams::deposit, &P::model));
    f.push_back(float_field("model", "decay", &ModelParams::decay, &P::model));
    f.push_back(float_field("model", "diffuse", &ModelParams::diffuse, &P::model));
    f.push_back(enum_field("model", "turn_rule", &ModelParams::turn_rule, &P::model,
                           [](const std::string& s) { return parse_turn_rule(s); }));
    f.push_back(float_field("model", "jitter", &ModelParams::jitter, &P::model));

    f.push_back(enum_field("spawn", "mode", &SpawnParams::mode, &P::spawn,
                           [](const std::string& s) { return parse_spawn_mode(s); }));
    f.push_back(float_field("spawn", "field_strength", &SpawnParams::field_strength, &P::spawn));
    f.push_back(bool_field("spawn", "agents_from_image", &SpawnParams::agents_from_image, &P::spawn));

    f.push_back({"run", "size", Kind::String,
                 [](Preset& p, const Value& v) {
                   p.run.size = parse_size(std::get<std::string>(v));
                   validate(p.run);
                 },
                 [](const Preset& p) { return Value{format_size(p.run.size)}; }});
    f.push_back({"run", "agents", Kind::Count,
                 [](Preset& p, const Value& v) {
                   p.run.agents = to_count(v);
                   validate(p.run);
                 },
                 [](const Preset& p) {
                   const uint64_t n = p.run.agents;
                   std::string text = format_count(n);
                   try {
                     if (parse_count(text) == n) return Value{std::move(text)};
                   } catch (const Error&) {
                   }
                   return Value{static_cast<int64_t>(n)};
                 }});
    f.push_back({"run", "seed", Kind::Int,
                 [](Preset& p, const Value& v) {
                   const int64_t i = std::get<int64_t>(v);
                   if (i < 0 || i > int64_t{std::numeric_limits<uint32_t>::max()}) {
                     throw Error("must be in [0, 4294967295] (got " + std::to_string(i) + ")");
                   }
                   p.run.seed = static_cast<uint32_t>(i);
                   validate(p.run);
                 },
                 [](const Preset& p) { return Value{static_cast<int64_t>(p.run.seed)}; }});

    f.push_back({"display", "palette", Kind::String,
                 [](Preset& p, const Value& v) {
                   const std::string& s = std::get<std::string>(v);
                   if (s.empty()) throw Error("must not be empty");
                   p.display.palette = s;
                   validate(p.display);
                 },
                 [](const Preset& p) { return Value{p.display.palette}; }});
    f.push_back(enum_field("display", "mapping", &DisplayParams::mapping, &P::display,
                           [](const std::string& s) { return parse_mapping(s); }));
    f.push_back(float_field("display", "exposure", &DisplayParams::exposure, &P::display));
    f.push_back(float_field("display", "gamma", &DisplayParams::gamma, &P::display));
    f.push_back(bool_field("display", "auto_range", &DisplayParams::auto_range, &P::display));
    f.push_back(bool_field("display", "invert", &DisplayParams::invert, &P::display));
    f.push_back(enum_field("display", "cave", &DisplayParams::cave, &P::display,
                           [](const std::string& s) { return parse_cave_mode(s); }));
    f.push_back({"display", "levels", Kind::Int,
                 [](Preset& p, const Value& v) {
                   p.display.levels = to_int(v, 2, 16);
                   validate(p.display);
                 },
                 [](const Preset& p) { return Value{static_cast<int64_t>(p.display.levels)}; }});
    f.push_back(float_field("display", "threshold", &DisplayParams::threshold, &P::display));
    f.push_back({"display", "smoothing", Kind::Int,
                 [](Preset& p, const Value& v) {
                   p.display.smoothing = to_int(v, 0, 8);
                   validate(p.display);
                 },
                 [](const Preset& p) { return Value{static_cast<int64_t>(p.display.smoothing)}; }});
    f.push_back(enum_field("display", "blend", &DisplayParams::blend, &P::display,
                           [](const std::string& s) { return parse_blend(s); }));
    f.push_back({"display", "cave_channel", Kind::Int,
                 [](Preset& p, const Value& v) {
                   p.display.cave_channel = to_int(v, kCaveFromSum, kMaxSpecies - 1);
                   validate(p.display);
                 },
                 [](const Preset& p) { return Value{static_cast<int64_t>(p.display.cave_channel)}; }});
    f.push_back(enum_field("display", "background", &DisplayParams::background, &P::display,
                           [](const std::string& s) { return parse_background(s); }));
    // The environment overlays (render/environment_overlay.hpp).
    const auto overlay = [](Field f) {
      f.written_when_default = false;
      return f;
    };
    const auto colour_field = [](std::string_view key, uint32_t DisplayParams::*member) {
      return Field{"display", key, Kind::String,
                   [member](Preset& p, const Value& v) {
                     p.display.*member = parse_colour(std::get<std::string>(v));
                     validate(p.display);
                   },
                   [member](const Preset& p) { return Value{format_colour(p.display.*member)}; }};
    };
    f.push_back(overlay(bool_field("display", "show_walls", &DisplayParams::show_walls, &P::display)));
    f.push_back(overlay(bool_field("display", "show_food", &DisplayParams::show_food, &P::display)));
    f.push_back(overlay(colour_field("walls_colour", &DisplayParams::walls_colour)));
    f.push_back(overlay(colour_field("food_colour", &DisplayParams::food_colour)));

    // [environment] (docs/MODEL.md, "Environment"): image paths (empty: none) and how they are read.
    const auto path_field = [](std::string_view key, std::string EnvironmentParams::*member) {
      return Field{"environment", key, Kind::String,
                   [member](Preset& p, const Value& v) { p.environment.*member = std::get<std::string>(v); },
                   [member](const Preset& p) { return Value{p.environment.*member}; }};
    };
    f.push_back(path_field("food", &EnvironmentParams::food));
    f.push_back(path_field("walls", &EnvironmentParams::walls));
    f.push_back(
        float_field("environment", "food_strength", &EnvironmentParams::food_strength, &P::environment));
    f.push_back(enum_field("environment", "boundary", &EnvironmentParams::boundary, &P::environment,
                           [](const std::string& s) { return parse_boundary(s); }));
    f.push_back(
        float_field("environment", "walls_threshold", &EnvironmentParams::walls_threshold, &P::environment));
    f.push_back(enum_field("environment", "fit", &EnvironmentParams::fit, &P::environment,
                           [](const std::string& s) { return parse_image_fit(s); }));
    return f;
  }();
  return table;
}

constexpr std::array<std::string_view, 5> kSections{"model", "spawn", "run", "display", "environment"};

const Field* find_field(std::string_view section, std::string_view key) {
  for (const Field& f : fields()) {
    if (f.section == section && f.key == key) return &f;
  }
  return nullptr;
}

std::string known_keys(std::string_view section) {
  std::string out;
  for (const Field& f : fields()) {
    if (f.section != section) continue;
    if (!out.empty()) out += ", ";
    out += f.key;
  }
  return out;
}

std::string known_sections() {
  std::string out;
  for (std::string_view s : kSections) {
    if (!out.empty()) out += ", ";
    out.append("[").append(s).append("]");
  }
  return out;
}

std::string node_type_name(const toml::node& n) {
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

// The TOML node converted to the field's kind; nullopt when the type does not fit.
std::optional<Value> value_of(const toml::node& n, Kind kind) {
  switch (kind) {
    case Kind::Float:
      if (auto d = n.as_floating_point()) return Value{d->get()};
      if (auto i = n.as_integer()) return Value{static_cast<double>(i->get())};
      return std::nullopt;
    case Kind::Int:
      if (auto i = n.as_integer()) return Value{i->get()};
      return std::nullopt;
    case Kind::Bool:
      if (auto b = n.as_boolean()) return Value{b->get()};
      return std::nullopt;
    case Kind::String:
      if (auto s = n.as_string()) return Value{s->get()};
      return std::nullopt;
    case Kind::Count:
      if (auto i = n.as_integer()) return Value{i->get()};
      if (auto s = n.as_string()) return Value{s->get()};
      return std::nullopt;
  }
  return std::nullopt;
}

[[noreturn]] void fail_at(const std::string& source, const toml::node& n, std::string_view what,
                          const std::string& message) {
  throw Error(source + ":" + std::to_string(n.source().begin.line) + ": " + std::string(what) + ": " +
              message);
}

std::string value_text(const Value& v) {
  if (const auto* d = std::get_if<double>(&v)) return toml_float(static_cast<float>(*d));
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return toml_quote(std::get<std::string>(v));
}

// TOML files are UTF-8: a string that is not would be saved into a preset that cannot be read back
// (found by tests/fuzz/fuzz_set.cpp). Overlong forms, surrogates and values past U+10FFFF count as
// invalid, as they do for toml++.
bool valid_utf8(std::string_view s) {
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
      return false;
    }
    if (i + static_cast<size_t>(extra) >= s.size()) return false;  // cut short
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xc0u) != 0x80u) return false;
      cp = (cp << 6) | (b & 0x3fu);
    }
    constexpr uint32_t kMin[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += static_cast<size_t>(extra) + 1;
  }
  return true;
}

// A command-line value read as the field's kind.
Value parse_override_value(std::string_view text, Kind kind) {
  const auto whole = [&](auto& out) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
  };
  switch (kind) {
    case Kind::Float: {
      double d = 0;
      if (!whole(d)) throw Error("'" + std::string(text) + "' is not a number");
      return Value{d};
    }
    case Kind::Int: {
      int64_t i = 0;
      if (!whole(i)) throw Error("'" + std::string(text) + "' is not an integer");
      return Value{i};
    }
    case Kind::Bool:
      if (text == "true" || text == "1" || text == "on" || text == "yes") return Value{true};
      if (text == "false" || text == "0" || text == "off" || text == "no") return Value{false};
      throw Error("'" + std::string(text) + "' is not true or false");
    case Kind::String:
    case Kind::Count: {
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        text = text.substr(1, text.size() - 2);
      if (!valid_utf8(text)) throw Error("the value is not valid UTF-8 text");
      if (kind == Kind::Count && !text.empty() && text.front() == '-') {
        throw Error("must not be negative (got " + std::string(text) + ")");
      }
      return Value{std::string(text)};
    }
  }
  return Value{};
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
  for (const auto& [section_key, section_node] : doc) {
    const std::string section(section_key.str());
    // preset_species::read and preset_keyframes::read below
    if (section == "species" || section == "interaction" || section == "keyframe") continue;
    const toml::table* table = section_node.as_table();
    const bool known = std::find(kSections.begin(), kSections.end(), section) != kSections.end();
    if (!known) {
      fail_at(source_name, section_node, section,
              "unknown " + std::string(table ? "table" : "key") + " (known tables: " + known_sections() +
                  ", [[species]], [interaction], [[keyframe]])");
    }
    if (!table)
      fail_at(source_name, section_node, section, "must be a table, not " + node_type_name(section_node));
    for (const auto& [key, node] : *table) {
      const std::string name = section + "." + std::string(key.str());
      const Field* f = find_field(section, key.str());
      if (!f) fail_at(source_name, node, name, "unknown key (known keys: " + known_keys(section) + ")");
      const std::optional<Value> v = value_of(node, f->kind);
      if (!v) {
        fail_at(source_name, node, name,
                "expected " + std::string(kind_name(f->kind)) + ", got " + node_type_name(node));
      }
      try {
        f->set(p, *v);
      } catch (const Error& e) {
        fail_at(source_name, node, name, e.what());
      }
    }
  }
  preset_species::read(p, doc.get("species"), doc.get("interaction"), doc.get("model"), doc.get("spawn"),
                       source_name);
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
  const bool several = !p.species.list.empty();  // then each [[species]] holds the model and spawn mode
  for (std::string_view section : kSections) {
    if (several && section == "model") continue;
    if (section == "environment" && p.environment == EnvironmentParams{}) continue;  // none: as before
    out += "\n[" + std::string(section) + "]\n";
    for (const Field& f : fields()) {
      if (f.section != section) continue;
      if (several && section == "spawn" && f.key == "mode") continue;
      if (!f.written_when_default && value_text(f.get(p)) == value_text(f.get(Preset{}))) continue;
      out += std::string(f.key) + " = " + value_text(f.get(p)) + "\n";
    }
  }
  return out + preset_species::to_toml(p) + preset_keyframes::to_toml(p);
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
  if (eq == std::string_view::npos) {
    throw Error(whole + ": expected section.key=value, e.g. model.decay=0");
  }
  const std::string_view name = trim(assignment.substr(0, eq));
  const std::string_view text = trim(assignment.substr(eq + 1));
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) {
    throw Error(whole + ": expected section.key=value, e.g. model.decay=0");
  }
  const std::string_view section = name.substr(0, dot);
  const std::string_view key = name.substr(dot + 1);
  if (section == "species" || section == "interaction") {
    preset_species::apply_override(p, name, text, whole);
    return;
  }
  if (!p.species.list.empty() && (section == "model" || name == "spawn.mode")) {
    throw Error(whole + ": this preset has [[species]] tables; set species.N." +
                std::string(section == "model" ? key : std::string_view("spawn")) + " instead");
  }
  if (std::find(kSections.begin(), kSections.end(), section) == kSections.end()) {
    throw Error(whole + ": unknown section '" + std::string(section) +
                "' (known: model, spawn, run, display, environment, species, interaction)");
  }
  const Field* f = find_field(section, key);
  if (!f) {
    throw Error(whole + ": unknown key '" + std::string(name) + "' (known keys in [" + std::string(section) +
                "]: " + known_keys(section) + ")");
  }
  Preset next = p;  // bad input changes nothing
  try {
    f->set(next, parse_override_value(text, f->kind));
  } catch (const Error& e) {
    // Validation messages usually name the key already ("model.decay = 2 is out of range ...").
    const std::string msg = e.what();
    const bool named = msg.rfind(std::string(name) + " ", 0) == 0;
    throw Error(whole + ": " + (named ? msg : std::string(name) + ": " + msg));
  }
  p = std::move(next);
}

}  // namespace physarum
