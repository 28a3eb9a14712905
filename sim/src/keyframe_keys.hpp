// Internal: which keys a keyframe may name and what type each is, read from the preset's own TOML
// (preset_to_toml), so that every key a preset writes joins keyframes without a list here.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/keyframes.hpp"
#include "sim/params.hpp"

namespace physarum::keyframe_keys {

// The leaves of a TOML table as dotted names: "model.decay", "species.1.deposit" (an array of
// tables is indexed), "interaction.matrix" (any other array is one leaf), in document order.
using Leaves = std::vector<std::pair<std::string, const toml::node*>>;
void flatten(const toml::table& t, const std::string& prefix, Leaves& out);

// The preset's keys with their nodes; the table owns the nodes.
struct PresetKeys {
  toml::table doc;
  Leaves leaves;
  const toml::node* find(std::string_view key) const;
};
PresetKeys preset_keys(const Preset& p);

// False for keys that need new agents or a new field: run.*, spawn.*, species.N.name/spawn/share.
bool keyframable(std::string_view key);

// The value of `node` (a keyframe's, or the preset's own) for `key`, whose type in the preset is
// that of `like`. Throws Error (without location) when the types do not match.
KeyframeValue value_of(std::string_view key, const toml::node& node, const toml::node& like);

}  // namespace physarum::keyframe_keys
