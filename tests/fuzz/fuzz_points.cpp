// libFuzzer target: arbitrary bytes as a point file (`--points`), CSV or .npy (told apart by the
// magic, as a file without a .npy name is). A clean Error is the expected answer; what is accepted
// is finite with weights >= 0, and fits into a small volume as a sorted list of voxels inside it.
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A file in memory (a disk file costs milliseconds a write), opened by path as a user's file is.
  static const int fd = ::memfd_create("fuzz.points", 0);
  static const std::filesystem::path file = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    __builtin_trap();
  }
  std::vector<physarum::Point> points;
  try {
    points = physarum::read_points(file);
  } catch (const physarum::Error&) {
    return 0;
  }
  if (points.empty()) __builtin_trap();
  for (const physarum::Point& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !(p.weight >= 0))
      __builtin_trap();
  }
  try {
    const physarum::FittedPoints f = physarum::fit_points(points, {7, 5, 3});
    if (f.kept != static_cast<int64_t>(points.size()) || f.dropped != 0 || f.food.empty()) __builtin_trap();
    for (size_t i = 0; i < f.food.size(); ++i) {
      if (f.food[i].voxel >= 7 * 5 * 3 || (i > 0 && f.food[i].voxel <= f.food[i - 1].voxel)) __builtin_trap();
    }
  } catch (const physarum::Error&) {
    // A span beyond a double or a voxel heavier than a float: refused, not a crash.
  }
  return 0;
}
