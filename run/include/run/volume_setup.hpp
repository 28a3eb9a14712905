// A volume from a preset whose run.size has a depth (docs/MODEL.md, "Volume"): what of the preset a
// volume takes, its config, and its food (point data and a food volume). run::Run builds on it, so
// the command line, the window and Python grow the same volume from the same recipe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/points.hpp"
#include "sim/volume.hpp"

namespace physarum::run {

struct Recipe;

// Throws UsageError naming the first thing of `p` (or the recipe's seed image) a volume cannot take:
// a detail other than 1, a spawn mode other than random (of a species too), a seed image, food or
// walls that are images rather than (D, H, W) .npy volumes. Keyframes are taken (Run::step applies them).
void check_volume_preset(const Preset& p, const Recipe& r);
// A plane's preset that names point data: UsageError (the points need a volume).
void check_plane_preset(const Preset& p);
// The volume's config is volume_config(p, threads) (sim/world.hpp), of a `p` checked here.

// The volume's food: the point data (environment.points, fitted into `size`, in environment.points_box
// when given) and a food volume (environment.food, a float32 .npy of shape (D, H, W), values finite
// and >= 0), summed per voxel (the points' weight first). Throws Error naming the file and the value.
struct VolumeFood {
  std::vector<VoxelFood> food;  // sorted by voxel
  int64_t points = 0;           // points read
  int64_t dropped = 0;          // outside environment.points_box
  std::string note;             // "20000 points of galaxies.csv in 12345 voxels", "" without food
};
VolumeFood load_volume_food(const EnvironmentParams& e, Size size);

// The walls volume (environment.walls, a float32 .npy of shape (D, H, W)): a voxel whose value is
// above environment.walls_threshold is wall (1 = wall, 0 = free). Empty without one. Throws Error
// naming the file and the value.
std::vector<uint8_t> load_volume_walls(const EnvironmentParams& e, Size size);

}  // namespace physarum::run
