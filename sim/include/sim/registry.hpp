// The parameter registry: one typed description of every parameter a preset holds (key, type,
// range, unit, the range a slider offers, the range Explore draws from, whether it is per species,
// whether a keyframe may hold it, a one-line description). Reading and writing presets, --set,
// keyframes, validation, the panel, Explore, sensitivity, the Python keywords and the schema table
// in assets/presets/README.md all iterate over it, so a parameter is added in one place: its
// member in params.hpp (which holds its default) and its entry in registry.cpp.
// Values are typed (Value) everywhere; text appears only where a person or a file supplies it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/params.hpp"
#include "sim/value.hpp"

namespace physarum::registry {

enum class Type {
  Float,   // float; lo..hi
  Int,     // integer; lo..hi
  Bool,    // true / false
  Choice,  // one of `choices` (an enumeration)
  Text,    // a string of lo..hi bytes (a palette name, a species name, a file path)
  Colour,  // 0xRRGGBB, written "#rrggbb"
  Size,    // WIDTHxHEIGHT, each side lo..hi
  Count,   // an agent count, lo..hi, written 1000, "250K", "1.5M"
  Matrix,  // the interaction matrix: S x S floats, each lo..hi
};

using physarum::Value;  // sim/value.hpp

// Where a parameter lives: a table of the preset, or each [[species]] table.
enum class Section { Model, Spawn, Run, Display, Environment, Species, Interaction };
std::string_view section_name(Section s);  // "model", ..., "species", "interaction"

struct Param {
  Section section;
  std::string_view name;  // the key within its table: "decay"
  Type type;
  double lo = 0, hi = 0;     // allowed range (Float, Int, Count, Size sides, Matrix entries, Text length)
  std::string_view unit;     // "deg", "cells", "rad", "" (shown after values, in docs and the panel)
  std::string_view doc;      // one line: what it does
  std::string_view choices;  // Choice: "simple, jones"
  // Choice: what a volume takes besides `choices` ("mcpm"); the plane's surfaces (panel, MIDI,
  // Explore, the timeline) offer only `choices`, and a plane refuses these.
  std::string_view volume_choices;
  double ui_lo = 0, ui_hi = 0;            // the range a slider offers (inside lo..hi); ui_hi <= ui_lo: none
  bool ui_log = false;                    // a logarithmic slider
  std::string_view ui_format = "%.3f";    // how a slider prints the value
  double explore_lo = 0, explore_hi = 0;  // Explore draws from here; explore_hi <= explore_lo: kept
  bool explore_log = false;               // drawn log-uniformly
  bool per_species = false;               // a Model key that each [[species]] table also holds
  bool volume_only = false;               // a volume's key alone: the plane's panel does not show it
  bool plane_only = false;           // a plane's key alone: a volume refuses a value other than its default
  bool keyframable = true;           // false: it needs new agents or a new field
  bool optional = false;             // may be absent (Value is monostate)
  bool written_when_default = true;  // false: a preset writes it only when it differs from the default
  // Typed access to the member of the table's struct (ModelParams, SpawnParams, RunParams,
  // DisplayParams, EnvironmentParams, Species, SpeciesSet). put() stores without checks.
  Value (*get)(const void* table);
  void (*put)(void* table, const Value& v);
};

// Every parameter, in the order a preset writes them.
const std::vector<Param>& params();
// The parameter of a table, or nullptr. For Section::Species the species-only keys (name, colour,
// share, spawn, food_strength); the model keys of a species are found in Section::Model.
const Param* find(Section s, std::string_view name);

// A key as presets, --set and keyframes name it: "model.decay", "species.1.decay",
// "interaction.matrix". species = -1 for keys outside [[species]].
struct Key {
  const Param* param = nullptr;
  int species = -1;
  std::string name() const;  // the dotted name again
  friend bool operator==(const Key&, const Key&) = default;
};
// The key `dotted` names in `p` (a species index must exist in p). Throws Error naming the known
// keys of the table for an unknown one; "this preset has [[species]] tables; set species.N.KEY
// instead" for model.* and spawn.mode of a preset with species, and the reverse.
Key resolve(const Preset& p, std::string_view dotted);
// Every key `p` holds, in the order a preset writes them (model keys, or each species' keys).
std::vector<Key> keys_of(const Preset& p);

Value get(const Preset& p, const Key& k);
// Checks the value's type and range, stores it and checks what depends on it (the species' shares,
// display.cave_channel against the number of species). Throws Error naming "key = value" and the
// allowed range; `p` is unchanged then.
void set(Preset& p, const Key& k, const Value& v);
// Stores a value that check() has accepted, without looking at the rest of the preset (a reader
// that validates the whole preset afterwards).
void put(Preset& p, const Key& k, const Value& v);
// Checks a value for a parameter alone (type and range); throws Error "NAME = value is out of
// range: allowed lo to hi" (NAME as given).
void check(const Param& param, const Value& v, const std::string& name, size_t species_count = 1);
// The value of a parameter in the default-constructed tables (the default).
Value default_value(const Param& param);

// A value as a person writes it on the command line (--set, OSC, the Python keywords' text): read
// as the parameter's type, never as a document. Numbers are decimal; booleans true/false/1/0/on/
// off/yes/no; Choice/Text/Colour/Size/Count may be quoted "..."; a Matrix is [[a, b], [c, d]]
// (numbers, commas, spaces, at most 2 levels of brackets). Throws Error saying what is wrong.
Value parse(const Param& param, std::string_view text);
// A double (from TOML or from text) as a parameter's float: refused when not finite, too large for a
// float, or so small it would silently become 0 ("is too small for a float ...").
float float_of(double d);
// The value as a preset writes it in TOML ("0.01", "\"inferno\"", "true", "[[1.0, 0.0], ...]").
std::string to_toml(const Param& param, const Value& v);
// The value for a person: as --set takes it ("0.01", "inferno", "#3b5b7a", "1920x1080").
std::string to_text(const Param& param, const Value& v);

// A Choice parameter's choices, in order; with `volume`, its volume_choices after them.
std::vector<std::string_view> choice_list(const Param& param, bool volume = false);
// A short type name for messages and docs: "float", "integer", "true or false", ...
std::string_view type_name(Type t);
// The allowed values in words: "0 to 180", "simple, jones", "1 to 64 characters".
std::string range_text(const Param& param);

// Documentation made from the table, so it cannot disagree with it:
// the Markdown table of one section's keys (key | type | default | range | keyframed | meaning), as
// assets/presets/README.md holds it between <!-- registry:SECTION --> markers (a test compares);
std::string markdown_table(Section s);
// the keyword arguments of physarum.Sim and Sim.set for python/physarum.pyi (the same markers),
// one "    section_key: type = ...," line per key outside [[species]];
std::string python_keywords();
// a plain listing for `physarum params`.
std::string listing();

}  // namespace physarum::registry
