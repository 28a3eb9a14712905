// A scalar field on a grid (row-major, y down) and the interpolation that enlarges it. Plain C++:
// the export code never needs a GL context or a GPU.
#pragma once

#include <cstddef>
#include <vector>

namespace physarum::app::exporter {

struct Grid {
  int width = 0;
  int height = 0;
  std::vector<float> values;  // width * height

  float at(int x, int y) const { return values[static_cast<size_t>(y) * static_cast<size_t>(width) + x]; }
};

// Resamples `src` to width x height with Catmull-Rom bicubic interpolation. Output cell (i, j)
// samples the source at its centre, ((i + 0.5) * W / width - 0.5, ...), so the picture neither
// shifts nor shrinks; neighbours wrap around the edges because the simulated field is toroidal.
// Equal sizes give an exact copy. Overshoot is clamped to the four source values around the point,
// so enlarging never invents values outside the field's own range.
Grid resample_bicubic(const Grid& src, int width, int height);

// Bilinear value at a continuous position in cell-centre coordinates (x = 0 is cell 0's centre),
// clamped to the grid. The contour lines follow exactly this surface between grid points.
float sample_bilinear(const Grid& g, double x, double y);

// The value below which `fraction` of the cells lie (0 -> the minimum, 1 -> the maximum).
float quantile(const Grid& g, double fraction);
// The same over any values (a volume's voxels); takes a copy to partially sort.
float quantile(std::vector<float> values, double fraction);

}  // namespace physarum::app::exporter
