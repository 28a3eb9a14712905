// The numeric (float) parameters of the registry (sim/registry.hpp) a sensitivity run can perturb or sweep
// ("model.decay", "species.1.sensor_angle_deg", "display.exposure", "spawn.field_strength"): read and
// set as typed values through the registry, so the usual validation and messages apply.
#pragma once

#include <string>
#include <vector>

#include "sim/params.hpp"

namespace physarum::app::sensitivity {

// The value of `key` in `p` as the simulation sees it (a float widened to double). Throws Error
// naming the known keys for anything else (strings, enums, integers, unknown keys).
double parameter_value(const Preset& p, const std::string& key);

// Sets `key` to `value` (rounded to float, as a preset stores it) through apply_override. Throws
// Error with apply_override's message (out of range, no such species, ...).
void set_parameter(Preset& p, const std::string& key, double value);

// Multiplies `key` by (1 + rel_eps), or adds rel_eps when it is 0 (a relative change of 0 is none),
// and returns the change actually applied after rounding to float (0 when eps is below float
// resolution).
double perturb_parameter(Preset& p, const std::string& key, double rel_eps);

// The model parameters --average walks: model.* for one species, species.N.* for each species of a
// preset with [[species]] tables (the turn rule is a choice, not a number, and is left out).
std::vector<std::string> model_parameter_keys(const Preset& p);

}  // namespace physarum::app::sensitivity
