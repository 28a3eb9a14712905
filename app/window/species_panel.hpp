// The panel's parts for several species: the interaction matrix labelled with the species' names
// and colours, and which display keys apply (with several species the palette colours nothing
// unless a cave map is on; the blend and the cave channel matter only then).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/params.hpp"

namespace physarum::app {

class Toasts;

// Whether the palette colours the picture: one species, or a cave map of any number.
bool palette_shown(int species, CaveMode cave);
// The choices of the registry's [display] table the panel shows for this run, in order: "blend"
// (several species, no cave map) and "background" (always).
std::vector<std::string_view> species_display_keys(int species, CaveMode cave);
// Whether the cave map's channel is a choice: several species with a cave map.
bool cave_channel_shown(int species, CaveMode cave);

// One line for the matrix: what species `row` does with the trail of species `col` at W[row][col]
// (docs/MODEL.md: row s senses V_s = sum over t of W[s][t] * F_t), e.g. "orange avoids blue's
// trail (-1.50)".
std::string interaction_meaning(const SpeciesSet& s, int row, int col);

// The matrix as a table of sliders, rows and columns headed by each species' colour and name,
// under a one-line explanation; a cell's tooltip is interaction_meaning(). Values typed out of
// range are clamped, NaN is refused with a toast. True when an entry changed.
bool interaction_matrix(SpeciesSet& s, Toasts& toasts);

// With several species and a cave map: which channel it reads, by name ("all species (sum)" or a
// species); true when it changed.
bool cave_channel_choice(DisplayParams& d, const SpeciesSet& s);

}  // namespace physarum::app
