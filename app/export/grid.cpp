#include "export/grid.hpp"

#include <algorithm>
#include <cmath>

namespace physarum::app::exporter {
namespace {

// Catmull-Rom weights for the four samples around a point at fraction t past the second.
void cubic_weights(double t, double w[4]) {
  const double t2 = t * t;
  const double t3 = t2 * t;
  w[0] = 0.5 * (-t3 + 2 * t2 - t);
  w[1] = 0.5 * (3 * t3 - 5 * t2 + 2);
  w[2] = 0.5 * (-3 * t3 + 4 * t2 + t);
  w[3] = 0.5 * (t3 - t2);
}

int wrap(int i, int n) {
  const int m = i % n;
  return m < 0 ? m + n : m;
}

// Per output coordinate: the first of the four source indices and the weights, computed once per
// row or column instead of once per cell.
struct Taps {
  std::vector<int> first;
  std::vector<double> weights;  // 4 per output coordinate
};

Taps taps_for(int src, int dst) {
  Taps t;
  t.first.resize(static_cast<size_t>(dst));
  t.weights.resize(static_cast<size_t>(dst) * 4);
  const double scale = static_cast<double>(src) / static_cast<double>(dst);
  for (int i = 0; i < dst; ++i) {
    const double pos = (i + 0.5) * scale - 0.5;
    const double base = std::floor(pos);
    t.first[static_cast<size_t>(i)] = static_cast<int>(base) - 1;
    cubic_weights(pos - base, &t.weights[static_cast<size_t>(i) * 4]);
  }
  return t;
}

}  // namespace

Grid resample_bicubic(const Grid& src, int width, int height) {
  if (width == src.width && height == src.height) return src;
  const Taps tx = taps_for(src.width, width);
  const Taps ty = taps_for(src.height, height);
  Grid out{width, height, std::vector<float>(static_cast<size_t>(width) * static_cast<size_t>(height))};
  for (int j = 0; j < height; ++j) {
    int rows[4];
    for (int k = 0; k < 4; ++k) rows[k] = wrap(ty.first[static_cast<size_t>(j)] + k, src.height);
    const double* wy = &ty.weights[static_cast<size_t>(j) * 4];
    for (int i = 0; i < width; ++i) {
      int cols[4];
      for (int k = 0; k < 4; ++k) cols[k] = wrap(tx.first[static_cast<size_t>(i)] + k, src.width);
      const double* wx = &tx.weights[static_cast<size_t>(i) * 4];
      double sum = 0;
      for (int a = 0; a < 4; ++a) {
        double row = 0;
        for (int b = 0; b < 4; ++b) row += wx[b] * src.at(cols[b], rows[a]);
        sum += wy[a] * row;
      }
      // Catmull-Rom overshoots next to steps; keep within the 2x2 neighbourhood's range.
      const float c00 = src.at(cols[1], rows[1]), c10 = src.at(cols[2], rows[1]);
      const float c01 = src.at(cols[1], rows[2]), c11 = src.at(cols[2], rows[2]);
      const double lo = std::min(std::min(c00, c10), std::min(c01, c11));
      const double hi = std::max(std::max(c00, c10), std::max(c01, c11));
      out.values[static_cast<size_t>(j) * static_cast<size_t>(width) + i] =
          static_cast<float>(std::clamp(sum, lo, hi));
    }
  }
  return out;
}

float sample_bilinear(const Grid& g, double x, double y) {
  x = std::clamp(x, 0.0, static_cast<double>(g.width - 1));
  y = std::clamp(y, 0.0, static_cast<double>(g.height - 1));
  const int x0 = std::min(static_cast<int>(std::floor(x)), std::max(g.width - 2, 0));
  const int y0 = std::min(static_cast<int>(std::floor(y)), std::max(g.height - 2, 0));
  const int x1 = std::min(x0 + 1, g.width - 1);
  const int y1 = std::min(y0 + 1, g.height - 1);
  const double fx = x - x0, fy = y - y0;
  const double top = g.at(x0, y0) * (1 - fx) + g.at(x1, y0) * fx;
  const double bottom = g.at(x0, y1) * (1 - fx) + g.at(x1, y1) * fx;
  return static_cast<float>(top * (1 - fy) + bottom * fy);
}

float quantile(const Grid& g, double fraction) {
  return quantile(g.values, fraction);
}

float quantile(std::vector<float> v, double fraction) {
  if (v.empty()) return 0.0f;
  const double f = std::clamp(fraction, 0.0, 1.0);
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(f * static_cast<double>(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace physarum::app::exporter
