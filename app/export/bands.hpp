// Level bands of a field for tile maps: the cave display's "levels" (even on the display mapping,
// or at quantiles) as a band index per cell, so a Tiled map or CSV grid shows the same levels as
// the window's cave map.
#pragma once

#include <cstdint>
#include <vector>

#include "export/grid.hpp"
#include "sim/params.hpp"

namespace physarum::app::exporter {

enum class BandMode { Even, Quantile };

inline constexpr int kMinBands = 2;
inline constexpr int kMaxBands = 16;  // the display's levels

// levels - 1 ascending thresholds in value space, by the display's rule (render's
// compute_display_range): Even at lo + (hi - lo) * invert_mapping(k / levels) with lo, hi the
// field's range (auto range) or 0, 1, in the display's mapping; Quantile at the value of rank
// k * n / levels. A cell is in band b when b thresholds are <= its value.
std::vector<float> band_thresholds(const Grid& g, BandMode mode, int levels, const DisplayParams& d);

// Band index 0..levels-1 of every cell, row-major like Grid.
struct BandMap {
  int width = 0;
  int height = 0;
  int levels = 0;
  std::vector<float> thresholds;
  std::vector<uint8_t> cells;

  uint8_t at(int x, int y) const { return cells[static_cast<size_t>(y) * static_cast<size_t>(width) + x]; }
};
BandMap band_map(const Grid& g, BandMode mode, int levels, const DisplayParams& d);

}  // namespace physarum::app::exporter
