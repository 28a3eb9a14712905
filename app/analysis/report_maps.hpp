// The food and walls a network report measures against: the run's own maps, as its
// backend holds them (Backend::read_food, Backend::read_walls). So a report measures exactly what the
// run grew in: the preset's [environment], --food/--walls and --set environment.* alike, resized and
// fitted as the run did, with the closed box's boundary ring among the walls.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/network.hpp"
#include "sim/params.hpp"

namespace physarum::app::analysis {

// Food below half an 8-bit grey level is not a town: the resize filter (Mitchell) rings a little
// around each dot of a food image, and those specks would count as towns of their own.
inline constexpr float kMinTownFood = 0.5f / 255.0f;

struct EnvironmentMaps {
  std::optional<Grid> food;   // E where E >= kMinTownFood, else 0; none when no cell has food
  std::optional<Mask> walls;  // 1 = wall; none when no cell is a wall
};

// `food` and `walls` are W x H planes (row-major) as Backend::read_food and read_walls give them.
// Throws Error when a plane has another size.
EnvironmentMaps environment_maps(Size size, const std::vector<float>& food,
                                 const std::vector<uint8_t>& walls);

// analyse_network on a run's field as it reads back (`planes`: S planes of `size`, summed) against
// its food and walls as above. Throws Stopped when o.stop asks.
NetworkReport analyse_run_field(Size size, const std::vector<float>& planes, const std::vector<float>& food,
                                const std::vector<uint8_t>& walls, const NetworkOptions& o);

}  // namespace physarum::app::analysis
