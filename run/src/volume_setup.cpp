#include "run/volume_setup.hpp"

#include <cmath>
#include <filesystem>
#include <string>

#include "run/recipe.hpp"
#include "sim/npy.hpp"
#include "sim/registry.hpp"
#include "sim/text.hpp"

namespace physarum::run {
namespace {

UsageError not_for_volume(const Preset& p, const std::string& what) {
  return UsageError("a volume (run.size = " + format_size(p.run.size) + ") cannot take " + what);
}

// A float32 .npy of shape (D, H, W) for a volume of `size`.
NpyArray volume_file(const std::string& name, const std::string& file, Size size) {
  NpyArray a = read_npy_volume(file);
  if (a.planes != size.depth || a.height != size.height || a.width != size.width) {
    throw Error(name + " has shape (" + std::to_string(a.planes) + ", " + std::to_string(a.height) + ", " +
                std::to_string(a.width) + "), the volume needs (D, H, W) = (" + std::to_string(size.depth) +
                ", " + std::to_string(size.height) + ", " + std::to_string(size.width) + ")");
  }
  return a;
}

// The food volume's voxels with food, in order.
std::vector<VoxelFood> food_volume(const std::string& file, Size size) {
  if (file.empty()) return {};
  const std::string name = "food volume '" + file + "'";
  const NpyArray a = volume_file(name, file, size);
  std::vector<VoxelFood> out;
  for (size_t v = 0; v < a.data.size(); ++v) {
    const float e = a.data[v];
    if (!std::isfinite(e) || e < 0.0f) {
      throw Error(name + ": voxel " + std::to_string(v) + " holds " + std::to_string(e) +
                  "; food is finite and >= 0");
    }
    if (e > 0.0f) out.push_back({v, e});
  }
  return out;
}

// Two lists sorted by voxel as one; a voxel in both holds the sum of its weights (a's first).
std::vector<VoxelFood> merged(const std::vector<VoxelFood>& a, const std::vector<VoxelFood>& b) {
  std::vector<VoxelFood> out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].voxel < b[j].voxel)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].voxel < a[i].voxel) {
      out.push_back(b[j++]);
    } else {
      out.push_back({a[i].voxel, a[i].weight + b[j].weight});
      ++i;
      ++j;
    }
  }
  return out;
}

}  // namespace

std::vector<uint8_t> load_volume_walls(const EnvironmentParams& e, Size size) {
  if (e.walls.empty()) return {};
  const std::string name = "walls volume '" + e.walls + "'";
  const NpyArray a = volume_file(name, e.walls, size);
  std::vector<uint8_t> walls(a.data.size());
  for (size_t v = 0; v < a.data.size(); ++v) {
    if (!std::isfinite(a.data[v])) {
      throw Error(name + ": voxel " + std::to_string(v) + " holds " + std::to_string(a.data[v]) +
                  ", not a finite number");
    }
    walls[v] = a.data[v] > e.walls_threshold ? 1 : 0;
  }
  return walls;
}

namespace {

// The model keys a volume's rule does not have (registry: plane_only), at their defaults in the
// model and in each species'.
void check_plane_only_keys(const Preset& p) {
  static const ModelParams kDefaults;
  for (const registry::Param& key : registry::params()) {
    if (key.section != registry::Section::Model || !key.plane_only) continue;
    const Value fallback = key.get(&kDefaults);
    if (key.get(&p.model) != fallback) {
      throw not_for_volume(p, "model." + std::string(key.name) + " = " +
                                  registry::to_text(key, key.get(&p.model)) +
                                  " (a plane's; a volume's rule has none)");
    }
    for (const Species& s : p.species.list) {
      if (key.get(&s.model) != fallback) {
        throw not_for_volume(p, "species " + s.name + "'s " + std::string(key.name) + " = " +
                                    registry::to_text(key, key.get(&s.model)) +
                                    " (a plane's; a volume's rule has none)");
      }
    }
  }
}

}  // namespace

void check_volume_preset(const Preset& p, const Recipe& r) {
  check_plane_only_keys(p);
  if (p.run.scale != 1)
    throw not_for_volume(p, "run.scale = " + std::to_string(p.run.scale) + " (detail is 1)");
  if (!r.image.empty() || r.picture) throw not_for_volume(p, "a seed image");
  if (p.spawn.mode != SpawnMode::Random) throw not_for_volume(p, "spawn.mode other than random");
  for (const Species& s : p.species.list) {
    if (s.spawn != SpawnMode::Random)
      throw not_for_volume(p, "species " + s.name + "'s spawn other than random");
  }
  for (const auto& [key, file] :
       {std::pair{"food", p.environment.food}, std::pair{"walls", p.environment.walls}}) {
    if (!file.empty() && std::filesystem::path(file).extension() != ".npy") {
      throw not_for_volume(p, std::string("environment.") + key + " = " + file + ": a volume's " + key +
                                  " is a float32 .npy of shape (D, H, W)");
    }
  }
}

void check_plane_preset(const Preset& p) {
  if (!p.environment.points.empty()) {
    throw UsageError("environment.points = " + p.environment.points +
                     " is food for a volume: give run.size " + "as WxHxD (e.g. --size 256x256x256)");
  }
}

VolumeFood load_volume_food(const EnvironmentParams& e, Size size) {
  VolumeFood out;
  if (!e.points.empty()) {
    const std::vector<Point> points = read_points(e.points);
    std::optional<Box3> box;
    if (!e.points_box.empty()) box = parse_box3(e.points_box);
    FittedPoints fitted = fit_points(points, size, box);
    out.points = static_cast<int64_t>(points.size());
    out.dropped = fitted.dropped;
    out.food = std::move(fitted.food);
    out.note = std::to_string(out.points) + " points of " + e.points + " in " +
               std::to_string(out.food.size()) + " voxels";
    if (box)
      out.note += " (" + std::to_string(out.dropped) + " outside the box " + e.points_box + " dropped)";
  }
  std::vector<VoxelFood> volume = food_volume(e.food, size);
  if (!volume.empty()) {
    if (!out.note.empty()) out.note += "; ";
    out.note += "food volume " + e.food + ": " + std::to_string(volume.size()) + " voxels with food";
    out.food = merged(out.food, volume);
  }
  return out;
}

}  // namespace physarum::run
