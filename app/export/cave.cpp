#include "export/cave.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>

#include "export/regions.hpp"
#include "sim/json_text.hpp"

namespace physarum::app::exporter {
namespace {

size_t index(const Mask& m, int x, int y) {
  return static_cast<size_t>(y) * static_cast<size_t>(m.width) + x;
}

// Calls f(j) for the in-grid face neighbours of cell i (left, right, up, down, then the planes
// before and after in a volume), stopping early when f returns true; returns whether it stopped.
template <class F>
bool each_neighbour(const Mask& m, size_t i, F&& f) {
  const size_t plane = static_cast<size_t>(m.width) * static_cast<size_t>(m.height);
  const int x = static_cast<int>(i % static_cast<size_t>(m.width));
  const int y = static_cast<int>(i % plane / static_cast<size_t>(m.width));
  const int z = static_cast<int>(i / plane);
  const int nx[6] = {x - 1, x + 1, x, x, x, x};
  const int ny[6] = {y, y, y - 1, y + 1, y, y};
  const int nz[6] = {z, z, z, z, z - 1, z + 1};
  for (int k = 0; k < 6; ++k) {
    if (nx[k] < 0 || ny[k] < 0 || nz[k] < 0 || nx[k] >= m.width || ny[k] >= m.height || nz[k] >= m.depth)
      continue;
    if (f(static_cast<size_t>(nz[k]) * plane + index(m, nx[k], ny[k]))) return true;
  }
  return false;
}

void fill_box(Mask& m, int x0, int y0, int w) {
  for (int y = std::max(y0, 0); y < std::min(y0 + w, m.height); ++y) {
    for (int x = std::max(x0, 0); x < std::min(x0 + w, m.width); ++x) m.cells[index(m, x, y)] = 1;
  }
}

// Cells that lie in some w x w square made only of floor (a morphological opening with a square).
std::vector<uint8_t> covered_by_squares(const Mask& m, int w) {
  const int W = m.width, H = m.height;
  // side[y][x]: the largest all-floor square whose bottom-right cell is (x, y).
  std::vector<int> side(static_cast<size_t>(W) * H, 0);
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      if (!m.at(x, y)) continue;
      int s = 1;
      if (x > 0 && y > 0) {
        s = 1 + std::min({side[index(m, x - 1, y)], side[index(m, x, y - 1)], side[index(m, x - 1, y - 1)]});
      }
      side[index(m, x, y)] = s;
    }
  }
  // Prefix sums of "a w-square ends here", so each cell asks "does one end in the w x w block
  // below-right of me" in O(1).
  std::vector<int64_t> sum(static_cast<size_t>(W + 1) * (H + 1), 0);
  const auto S = [&](int x, int y) -> int64_t& { return sum[static_cast<size_t>(y) * (W + 1) + x]; };
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      S(x + 1, y + 1) = (side[index(m, x, y)] >= w ? 1 : 0) + S(x, y + 1) + S(x + 1, y) - S(x, y);
    }
  }
  std::vector<uint8_t> covered(static_cast<size_t>(W) * H, 0);
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      if (!m.at(x, y)) continue;
      const int x1 = std::min(x + w, W), y1 = std::min(y + w, H);
      if (S(x1, y1) - S(x, y1) - S(x1, y) + S(x, y) > 0) covered[index(m, x, y)] = 1;
    }
  }
  return covered;
}

bool all_floor_covered(const Mask& m, int w) {
  const std::vector<uint8_t> c = covered_by_squares(m, w);
  for (size_t i = 0; i < m.cells.size(); ++i) {
    if (m.cells[i] && !c[i]) return false;
  }
  return true;
}

}  // namespace

Mask threshold_mask(const Grid& g, float threshold) {
  Mask m{g.width, g.height, std::vector<uint8_t>(g.values.size())};
  for (size_t i = 0; i < g.values.size(); ++i) m.cells[i] = g.values[i] >= threshold ? 1 : 0;
  return m;
}

void majority_smooth(Mask& m, int passes) {
  Mask next = m;
  for (int p = 0; p < passes; ++p) {
    for (int y = 0; y < m.height; ++y) {
      for (int x = 0; x < m.width; ++x) {
        int floor_cells = 0;
        // Edge cells repeat themselves outward, so the border is neither eroded nor grown.
        for (int dy = -1; dy <= 1; ++dy) {
          const int yy = std::clamp(y + dy, 0, m.height - 1);
          for (int dx = -1; dx <= 1; ++dx) floor_cells += m.at(std::clamp(x + dx, 0, m.width - 1), yy);
        }
        next.cells[index(m, x, y)] = floor_cells >= 5 ? 1 : 0;
      }
    }
    m.cells.swap(next.cells);
  }
}

int label_regions(const Mask& m, uint8_t value, std::vector<int>& labels, std::vector<int64_t>& sizes) {
  sizes = label_connected(
      m.cells.size(), [&](size_t i) { return m.cells[i] == value; },
      [&](size_t i, auto&& visit) {
        each_neighbour(m, i, [&](size_t j) {
          visit(j);
          return false;
        });
      },
      labels);
  return static_cast<int>(sizes.size());
}

void remove_islands(Mask& m, uint8_t value, int min_cells) {
  if (min_cells <= 1) return;
  std::vector<int> labels;
  std::vector<int64_t> sizes;
  label_regions(m, value, labels, sizes);
  for (size_t i = 0; i < m.cells.size(); ++i) {
    if (labels[i] >= 0 && sizes[static_cast<size_t>(labels[i])] < min_cells) m.cells[i] = value ? 0 : 1;
  }
}

namespace {
int largest_label(const std::vector<int64_t>& sizes) {
  // The first of equal sizes wins, so the choice never depends on anything but the mask.
  return static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
}
}  // namespace

void keep_largest_floor(Mask& m) {
  std::vector<int> labels;
  std::vector<int64_t> sizes;
  if (label_regions(m, 1, labels, sizes) <= 1) return;
  const int keep = largest_label(sizes);
  for (size_t i = 0; i < m.cells.size(); ++i) {
    if (labels[i] >= 0 && labels[i] != keep) m.cells[i] = 0;
  }
}

namespace {

// The joined part of the map grows as corridors reach other regions: cells become part of it by flood
// from `seeds` over floor not yet in it, and each is queued as a source of the search through rock.
void absorb(const Mask& m, std::vector<size_t>& seeds, std::vector<uint8_t>& joined,
            std::vector<int64_t>& parent, std::deque<size_t>& queue) {
  while (!seeds.empty()) {
    const size_t i = seeds.back();
    seeds.pop_back();
    if (!m.cells[i] || joined[i]) continue;
    joined[i] = 1;
    parent[i] = -1;
    queue.push_back(i);
    each_neighbour(m, i, [&](size_t j) {
      if (m.cells[j] && !joined[j]) seeds.push_back(j);
      return false;
    });
  }
}

// Carves the corridor from `from` back along the search's parents to the joined part, as w x w boxes
// (w x w x w in a volume); returns every carved cell, to be absorbed with the region the corridor
// reached.
void carve(Mask& m, int64_t from, const std::vector<int64_t>& parent, const std::vector<uint8_t>& joined,
           int w, std::vector<size_t>& carved) {
  const size_t plane = static_cast<size_t>(m.width) * static_cast<size_t>(m.height);
  const int wz = m.depth > 1 ? w : 1;
  for (int64_t i = from; i >= 0 && !joined[static_cast<size_t>(i)]; i = parent[static_cast<size_t>(i)]) {
    const size_t at = static_cast<size_t>(i);
    const int x0 = static_cast<int>(at % static_cast<size_t>(m.width)) - (w - 1) / 2;
    const int y0 = static_cast<int>(at % plane / static_cast<size_t>(m.width)) - (w - 1) / 2;
    const int z0 = static_cast<int>(at / plane) - (wz - 1) / 2;
    for (int z = std::max(z0, 0); z < std::min(z0 + wz, m.depth); ++z) {
      for (int y = std::max(y0, 0); y < std::min(y0 + w, m.height); ++y) {
        for (int x = std::max(x0, 0); x < std::min(x0 + w, m.width); ++x) {
          const size_t c = static_cast<size_t>(z) * plane + index(m, x, y);
          m.cells[c] = 1;
          carved.push_back(c);
        }
      }
    }
  }
}

}  // namespace

int join_with_corridors(Mask& m, int width) {
  const int w = std::max(width, 1);
  std::vector<int> labels;
  std::vector<int64_t> sizes;
  if (label_regions(m, 1, labels, sizes) <= 1) return 0;
  // One breadth-first search through rock from the largest region, never restarted: the first floor
  // cell of another region it reaches ends a corridor, and that region (with the corridor) joins the
  // sources. Searching afresh per region made a map of many small islands quadratic in its size.
  const int main = largest_label(sizes);
  std::vector<int64_t> parent(m.cells.size(), -2);
  std::vector<uint8_t> joined(m.cells.size(), 0);
  std::deque<size_t> queue;
  std::vector<size_t> seeds;
  for (size_t i = 0; i < m.cells.size(); ++i)
    if (labels[i] == main) seeds.push_back(i);
  absorb(m, seeds, joined, parent, queue);
  int carved = 0;
  while (!queue.empty()) {
    const size_t i = queue.front();
    queue.pop_front();
    each_neighbour(m, i, [&](size_t j) {
      if (joined[j] || (parent[j] != -2 && !m.cells[j])) return false;
      if (m.cells[j]) {
        carve(m, static_cast<int64_t>(i), parent, joined, w, seeds);
        seeds.push_back(j);
        absorb(m, seeds, joined, parent, queue);
        ++carved;
        return false;
      }
      parent[j] = static_cast<int64_t>(i);
      queue.push_back(j);
      return false;
    });
  }
  return carved;
}

void widen_passages(Mask& m, int width) {
  if (width <= 1) return;
  const int w = std::min({width, m.width, m.height});
  const std::vector<uint8_t> covered = covered_by_squares(m, w);
  const std::vector<uint8_t> before = m.cells;
  for (int y = 0; y < m.height; ++y) {
    for (int x = 0; x < m.width; ++x) {
      if (!before[index(m, x, y)] || covered[index(m, x, y)]) continue;
      // A w x w square of floor holding this cell, moved inside the map at the edges.
      fill_box(m, std::clamp(x - (w - 1) / 2, 0, m.width - w), std::clamp(y - (w - 1) / 2, 0, m.height - w),
               w);
    }
  }
}

int narrowest_passage(const Mask& m, int limit) {
  if (std::find(m.cells.begin(), m.cells.end(), 1) == m.cells.end()) return 0;
  // "Every floor cell lies in a w-square" holds for w - 1 whenever it holds for w: binary search.
  int lo = 1, hi = std::min({limit, m.width, m.height});
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (all_floor_covered(m, mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

Mask make_cave(const Grid& g, const CaveOptions& o, CaveReport& report) {
  report = CaveReport{};
  report.threshold = o.threshold ? *o.threshold : quantile(g, 1.0 - o.floor_fraction);
  Mask m = threshold_mask(g, report.threshold);
  majority_smooth(m, o.smoothing);
  std::vector<int> labels;
  std::vector<int64_t> sizes;
  report.regions_before = label_regions(m, 1, labels, sizes);
  stop_if_asked(o.stop);
  remove_islands(m, 0, o.min_rock_island);
  remove_islands(m, 1, o.min_floor_island);
  stop_if_asked(o.stop);
  if (o.connect == Connect::Largest) keep_largest_floor(m);
  if (o.connect == Connect::Corridors) report.corridors = join_with_corridors(m, o.min_width);
  stop_if_asked(o.stop);
  widen_passages(m, o.min_width);

  report.regions_after = label_regions(m, 1, labels, sizes);
  int64_t floor_cells = 0;
  for (uint8_t c : m.cells) floor_cells += c;
  report.floor_fraction =
      m.cells.empty() ? 0 : static_cast<double>(floor_cells) / static_cast<double>(m.cells.size());
  report.largest_share =
      floor_cells > 0 ? static_cast<double>(*std::max_element(sizes.begin(), sizes.end())) / floor_cells : 0;
  stop_if_asked(o.stop);
  report.narrowest_passage = narrowest_passage(m, 64);
  return m;
}

std::string report_json(const CaveReport& r) {
  return "{\n  \"threshold\": " + json_number(r.threshold, 9) +
         ",\n  \"floor_fraction\": " + json_number(r.floor_fraction, 9) +
         ",\n  \"regions_before\": " + std::to_string(r.regions_before) +
         ",\n  \"regions_after\": " + std::to_string(r.regions_after) +
         ",\n  \"largest_region_share\": " + json_number(r.largest_share, 9) +
         ",\n  \"narrowest_passage\": " + std::to_string(r.narrowest_passage) +
         ",\n  \"corridors\": " + std::to_string(r.corridors) + "\n}\n";
}

}  // namespace physarum::app::exporter
