// Growing the atlas's worlds and measuring each: the seam a batched backend (many worlds in one
// launch) plugs into. Callers hand recipes in and get fields and statistics out, whatever ran them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "run/recipe.hpp"
#include "sim/params.hpp"

namespace physarum::app::atlas {

struct WorldStats {
  double mean = 0;        // of the field (channel sum), in double
  double variance = 0;    // population variance, in double
  double wavelength = 0;  // analysis::mean_wavelength of the network's cells; NaN with no pattern
  double coverage = 0;    // the network mask's cells (the report's hysteresis mask) per open cell
  int junctions = 0;      // nodes of degree >= 3 in the network's graph
};

struct WorldResult {
  Size size;
  Preset preset;              // as the run resolved it: its display draws the tile
  SpeciesSet species;         // resolved (the backend's): its colours draw several species
  std::vector<float> planes;  // (S, H, W) as the backend reads it
  std::vector<float> field;   // the channel sum, (H, W)
  std::vector<float> food;    // the environment, for the overlays (empty: none)
  std::vector<uint8_t> walls;
  WorldStats stats;
};

// Statistics of a field (H, W) against the run's walls (W x H, 1 = wall; empty: none).
WorldStats world_stats(Size size, const std::vector<float>& field, const std::vector<uint8_t>& walls);

// Each recipe grown `steps` steps (together, through run::Batch) and measured, in order. `done(i)` is
// called as each world's statistics are made; `how` (if given) receives how the worlds ran
// (run::Batch::note).
std::vector<WorldResult> grow_worlds(const std::vector<run::Recipe>& recipes, uint64_t steps,
                                     const std::function<void(size_t)>& done = {},
                                     std::string* how = nullptr);

}  // namespace physarum::app::atlas
