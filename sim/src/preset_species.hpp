// Internal to preset.cpp: the [[species]] tables and the [interaction] matrix of a preset
// (docs/MODEL.md, "Several species"). Errors read "source:line: species.N.key: message" like the rest.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>

#include "sim/params.hpp"

namespace physarum::preset_species {

// Reads the whole document's species part into p.species: `species` (an array of tables, may be
// null), `interaction` (a table, may be null). `model` and `spawn` are the [model] and [spawn]
// tables when present: [model] and spawn.mode cannot be combined with [[species]]. Without an
// [interaction] table W is the identity (each species follows its own trail only).
void read(Preset& p, const toml::node* species, const toml::node* interaction, const toml::node* model,
          const toml::node* spawn, const std::string& source);

// The [[species]] tables and the [interaction] table, or "" for a single-species preset.
std::string to_toml(const Preset& p);

// "species.N.key" or "interaction.matrix" = value from --set; `whole` is the argument as given (for
// messages). Throws Error and leaves p unchanged when the key or the value is bad.
void apply_override(Preset& p, std::string_view name, std::string_view value, const std::string& whole);

}  // namespace physarum::preset_species
