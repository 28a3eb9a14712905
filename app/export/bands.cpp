#include "export/bands.hpp"

#include <algorithm>

#include "sim/display_mapping.hpp"

namespace physarum::app::exporter {

std::vector<float> band_thresholds(const Grid& g, BandMode mode, int levels, const DisplayParams& d) {
  levels = std::clamp(levels, kMinBands, kMaxBands);
  std::vector<float> t;
  const size_t n = g.values.size();
  if (mode == BandMode::Even) {
    float lo = 0.0f, hi = 1.0f;
    if (d.auto_range && n > 0) {
      const auto [mn, mx] = std::minmax_element(g.values.begin(), g.values.end());
      lo = *mn;
      hi = *mx;
    }
    const float span = hi - lo;
    for (int k = 1; k < levels; ++k)
      t.push_back(lo + span * invert_mapping(static_cast<float>(k) / static_cast<float>(levels), d.mapping));
    return t;
  }
  if (n == 0) return std::vector<float>(static_cast<size_t>(levels - 1), 0.0f);
  std::vector<float> sorted = g.values;
  size_t from = 0;
  for (int k = 1; k < levels; ++k) {
    const size_t idx = std::min(n - 1, static_cast<size_t>(k) * n / static_cast<size_t>(levels));
    std::nth_element(sorted.begin() + static_cast<ptrdiff_t>(from),
                     sorted.begin() + static_cast<ptrdiff_t>(idx), sorted.end());
    t.push_back(sorted[idx]);
    from = idx;
  }
  return t;
}

BandMap band_map(const Grid& g, BandMode mode, int levels, const DisplayParams& d) {
  BandMap b;
  b.width = g.width;
  b.height = g.height;
  b.thresholds = band_thresholds(g, mode, levels, d);
  b.levels = static_cast<int>(b.thresholds.size()) + 1;
  b.cells.resize(g.values.size());
  for (size_t i = 0; i < g.values.size(); ++i) {
    int band = 0;
    for (float t : b.thresholds) band += g.values[i] >= t ? 1 : 0;
    b.cells[i] = static_cast<uint8_t>(band);
  }
  return b;
}

}  // namespace physarum::app::exporter
