// Point data as food for the volume (docs/MODEL.md, "Point data"): a catalogue of points in any
// units (galaxies, sensor positions), read from a CSV or a .npy table and fitted into the voxels,
// where each point deposits its weight every step.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/value.hpp"

namespace physarum {

struct Point {
  double x = 0;
  double y = 0;
  double z = 0;
  float weight = 1;
  friend bool operator==(const Point&, const Point&) = default;
};

// Refused beyond these: a file is read whole into points, so both bound the memory a run needs.
inline constexpr uint64_t kMaxPointsFileBytes = uint64_t{2} << 30;
inline constexpr int64_t kMaxPoints = 100'000'000;

// A CSV of `x,y,z` or `x,y,z,weight` rows, or a .npy of shape (N, 3) or (N, 4), float32 or float64
// (told apart by the .npy magic, whatever the file's name). Weights default to 1. Throws Error
// naming the file, the line or row and the value for anything else (see docs/MODEL.md).
std::vector<Point> read_points(const std::filesystem::path& file);

// A box in the data's units, min and max per axis (x, y, z); min < max on every axis.
struct Box3 {
  std::array<double, 3> min{};
  std::array<double, 3> max{};
};

// "xmin:xmax,ymin:ymax,zmin:zmax" (decimal numbers, min < max, finite); throws Error naming the text.
Box3 parse_box3(const std::string& text);
std::string format_box3(const Box3& box);

// One voxel's food: index (z * H + y) * W + x and the summed weight of its points.
struct VoxelFood {
  uint64_t voxel = 0;
  float weight = 0;
  friend bool operator==(const VoxelFood&, const VoxelFood&) = default;
};

struct FittedPoints {
  std::vector<VoxelFood> food;  // sorted by voxel, one entry per voxel with a point
  int64_t kept = 0;             // points inside the volume
  int64_t dropped = 0;          // points outside `box` (0 without one)
};

// The points in the voxels of a volume of `size`. Without `box` the points' bounding box is scaled
// uniformly and centred; with it, `box` fills the volume and the points outside are dropped (the
// exact rules are in docs/MODEL.md). Weights of points in one voxel are summed in double in the
// order of `points`, so the result is the same bytes on every machine. Throws Error naming the value
// for an empty size, a box with min >= max or not finite, a point that is not finite or weighs less
// than 0, and a voxel whose sum is beyond a float.
FittedPoints fit_points(std::span<const Point> points, Size size,
                        const std::optional<Box3>& box = std::nullopt);

}  // namespace physarum
