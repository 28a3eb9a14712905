// Explore: new parameters drawn at random from a seed, within ranges that give structure (networks,
// not noise or an empty field). The same seed gives the same parameters on every machine: the draw
// uses its own counter-based generator, never std::uniform_*_distribution (whose results differ
// between standard libraries).
//
// Ranges (docs/artists.md, "Explore"): sensor angle 10..70 deg; rotation angle 0.4..1.6 x the sensor angle
// (at most 120); sensor distance 4..30 cells (log-uniform); step size 0.5..2.5 cells, at most half
// the sensor distance; decay 0.003..0.1 (log-uniform); diffuse 0.05..0.6; deposit 0.5..4
// (log-uniform); jitter 0 (half the draws) or 0..0.4 rad; turn rule jones in a quarter of the draws;
// the palette one of `palettes` (smooth ones). Several species: each species draws its own model,
// the interaction matrix keeps 1 on its diagonal and draws -1..0.5 elsewhere. Size, agents, seed,
// spawn and the species' colours are kept; keyframes are dropped (a draw is one still set of values).
//
// Locked keys keep the base's values while the rest vary. The stream of draws does not depend on
// the locks, so a seed gives the same values to the unlocked keys whatever else is locked.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/registry.hpp"

namespace physarum::app {

// Names as `physarum params` lists them ("model.decay", "interaction.matrix"); a model key locks it
// in every species.
using ExploreLocks = std::set<std::string>;

// The parameters Explore varies: every registry entry with an Explore range (the model keys, and
// the interaction matrix for presets with several species), in registry order.
std::vector<const registry::Param*> explored_params();
// "model.decay": the name a lock uses.
std::string lock_name(const registry::Param& p);

Preset explore_draw(const Preset& base, uint64_t seed, const std::vector<std::string>& palettes,
                    const ExploreLocks& locks = {});

// `base` with every unlocked explored value moved at random by at most amount x its Explore range
// (amount in 0..1; the interaction matrix off its diagonal, each entry), then clamped into the
// parameter's allowed range; a choice (the turn rule) changes with probability amount / 2. The
// same seed gives the same result; the palette, size, agents and keyframes are kept. Throws Error
// naming the amount when it is outside 0..1 or not a number.
Preset explore_mutate(const Preset& base, double amount, uint64_t seed, const ExploreLocks& locks = {});

}  // namespace physarum::app
