// Turns a field into a playable cave: threshold, majority smoothing, removal of small islands,
// connection of the floor into one region and a minimum passage width. The map is a game level,
// not a torus: neighbourhoods stop at its edges.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "export/grid.hpp"
#include "sim/stop.hpp"

namespace physarum::app::exporter {

// 1 = floor, 0 = rock; row-major like Grid. A depth above 1 stacks `depth` such planes (z slowest),
// a volume's inside: the region functions (labelling, islands, the largest region, corridors) then
// work with the 6 face neighbours of a voxel; smoothing and passage widths are the plane's alone.
struct Mask {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> cells;
  int depth = 1;

  uint8_t at(int x, int y) const { return cells[static_cast<size_t>(y) * static_cast<size_t>(width) + x]; }
};

enum class Connect { None, Largest, Corridors };

struct CaveOptions {
  std::optional<float> threshold;  // absolute: floor where value >= threshold
  double floor_fraction = 0.45;    // used when no threshold: this share of the cells is floor
  int smoothing = 2;               // passes of 3x3 majority smoothing
  int min_floor_island = 16;       // floor regions smaller than this many cells become rock
  int min_rock_island = 16;        // rock regions smaller than this become floor
  Connect connect = Connect::Corridors;
  int min_width = 1;  // every floor cell lies in a min_width x min_width square of floor
  StopCheck stop;     // asked between the phases; make_cave throws Stopped when it says yes
};

struct CaveReport {
  float threshold = 0;
  double floor_fraction = 0;
  int regions_before = 0;  // floor regions (4-connected) right after thresholding and smoothing
  int regions_after = 0;
  double largest_share = 0;   // the largest floor region's share of all floor cells
  int narrowest_passage = 0;  // the largest w such that every floor cell lies in a w x w floor square
  int corridors = 0;          // corridors carved by Connect::Corridors
};

Mask threshold_mask(const Grid& g, float threshold);
void majority_smooth(Mask& m, int passes);

// Labels 4-connected (6 in a volume) regions of cells equal to `value`; returns the count and fills `labels`
// (-1 for other cells) and the size of each region.
int label_regions(const Mask& m, uint8_t value, std::vector<int>& labels, std::vector<int64_t>& sizes);

void remove_islands(Mask& m, uint8_t value, int min_cells);
void keep_largest_floor(Mask& m);
// Corridors are width x width squares (cubes in a volume) along the shortest paths through rock;
// returns the number of corridors carved.
int join_with_corridors(Mask& m, int width);
void widen_passages(Mask& m, int width);
int narrowest_passage(const Mask& m, int limit);  // 0 when there is no floor

Mask make_cave(const Grid& g, const CaveOptions& o, CaveReport& report);

std::string report_json(const CaveReport& r);

}  // namespace physarum::app::exporter
