// Explore: new parameters drawn at random from a seed, within ranges that give structure (networks,
// not noise or an empty field). The same seed gives the same parameters on every machine: the draw
// uses its own counter-based generator, never std::uniform_*_distribution (whose results differ
// between standard libraries).
//
// Ranges (README, "Explore"): sensor angle 10..70 deg; rotation angle 0.4..1.6 x the sensor angle
// (at most 120); sensor distance 4..30 cells (log-uniform); step size 0.5..2.5 cells, at most half
// the sensor distance; decay 0.003..0.1 (log-uniform); diffuse 0.05..0.6; deposit 0.5..4
// (log-uniform); jitter 0 (half the draws) or 0..0.4 rad; turn rule jones in a quarter of the draws;
// the palette one of `palettes` (smooth ones). Several species: each species draws its own model,
// the interaction matrix keeps 1 on its diagonal and draws -1..0.5 elsewhere. Size, agents, seed,
// spawn and the species' colours are kept; keyframes are dropped (a draw is one still set of values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/params.hpp"

namespace physarum::app {

Preset explore_draw(const Preset& base, uint64_t seed, const std::vector<std::string>& palettes);

}  // namespace physarum::app
