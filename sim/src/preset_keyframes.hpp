// Internal to preset.cpp: the [[keyframe]] tables of a preset (docs/MODEL.md, "Keyframes"). Errors
// read "source:line: keyframe.N.key: message" like the rest.
#pragma once

#include <toml++/toml.h>

#include <string>

#include "sim/params.hpp"

namespace physarum::preset_keyframes {

// Reads the [[keyframe]] tables (`keyframes` may be null) into p.keyframes, checking each value
// against p as read so far (its keys, their types and ranges).
void read(Preset& p, const toml::node* keyframes, const std::string& source);

// The [[keyframe]] tables, or "" when there are none.
std::string to_toml(const Preset& p);

}  // namespace physarum::preset_keyframes
