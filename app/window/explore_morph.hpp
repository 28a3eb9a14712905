// Morphing between two sets of parameters (two presets, or two Explore results), and the same
// morph written as a story: two keyframes that the run then follows.
#pragma once

#include <cstdint>

#include "sim/params.hpp"

namespace physarum::app {

// Every numeric parameter of the registry at fraction t (0..1) from a to b: floats (and each entry
// of the interaction matrix) as (1 - t) * a + t * b in double, rounded once to float; integers and
// agent counts the same, rounded to the nearest. Everything else (choices, names, colours, sizes,
// switches, keyframes) is the nearer side's: a's for t < 0.5, b's from 0.5 on; so is everything
// when a and b hold different keys (a different number of species). t = 0 gives a and t = 1 gives
// b exactly. Throws Error naming t when it is outside 0..1 or not a number.
Preset morph(const Preset& a, const Preset& b, double t);

// `live` with its keyframes replaced by a story from a to b: a keyframe at `from` holding every
// keyframable value of a (easing smoothly), one at from + steps holding b's. a and b must hold the
// same keys as `live` (the same number of species). Throws Error, changing nothing, when they do
// not or steps is 0.
void morph_story(Preset& live, const Preset& a, const Preset& b, uint64_t from, uint64_t steps);

}  // namespace physarum::app
