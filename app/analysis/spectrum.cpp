#include "analysis/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace physarum::app::analysis {

std::vector<double> power_spectrum(const std::vector<double>& f, Size s) {
  const int w = s.width;
  const int h = s.height;
  double mean = 0;
  for (double v : f) mean += v;
  mean /= static_cast<double>(f.size());
  std::vector<std::complex<double>> a(f.size());
  for (size_t i = 0; i < f.size(); ++i) a[i] = f[i] - mean;
  const auto dft = [](std::vector<std::complex<double>>& line) {
    const size_t n = line.size();
    std::vector<std::complex<double>> roots(n);
    for (size_t j = 0; j < n; ++j)
      roots[j] = std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(n));
    std::vector<std::complex<double>> out(n);
    for (size_t u = 0; u < n; ++u) {
      std::complex<double> acc = 0;
      for (size_t x = 0; x < n; ++x) acc += line[x] * roots[u * x % n];
      out[u] = acc;
    }
    line = out;
  };
  std::vector<std::complex<double>> line;
  for (int y = 0; y < h; ++y) {
    line.assign(a.begin() + y * w, a.begin() + (y + 1) * w);
    dft(line);
    std::copy(line.begin(), line.end(), a.begin() + y * w);
  }
  for (int x = 0; x < w; ++x) {
    line.resize(static_cast<size_t>(h));
    for (int y = 0; y < h; ++y) line[static_cast<size_t>(y)] = a[static_cast<size_t>(y * w + x)];
    dft(line);
    for (int y = 0; y < h; ++y) a[static_cast<size_t>(y * w + x)] = line[static_cast<size_t>(y)];
  }
  std::vector<double> p(a.size());
  for (size_t i = 0; i < a.size(); ++i) p[i] = std::norm(a[i]);
  return p;
}

std::vector<double> radial_power(const std::vector<double>& f, Size s) {
  const std::vector<double> p = power_spectrum(f, s);
  const double df = 1.0 / std::max(s.width, s.height);
  const auto bins = static_cast<size_t>(0.5 * std::sqrt(2.0) / df) + 2;
  std::vector<double> sum(bins, 0.0);
  std::vector<int> count(bins, 0);
  for (int v = 0; v < s.height; ++v) {
    for (int u = 0; u < s.width; ++u) {
      const double fu = static_cast<double>(u <= s.width / 2 ? u : u - s.width) / s.width;
      const double fv = static_cast<double>(v <= s.height / 2 ? v : v - s.height) / s.height;
      const auto bin = static_cast<size_t>(std::lround(std::hypot(fu, fv) / df));
      sum[bin] += p[static_cast<size_t>(v * s.width + u)];
      ++count[bin];
    }
  }
  for (size_t i = 0; i < bins; ++i) sum[i] = count[i] > 0 ? sum[i] / count[i] : 0.0;
  return sum;
}

double peak_wavelength(const std::vector<double>& radial, Size s) {
  size_t peak = kFirstSpectrumBin;
  for (size_t i = kFirstSpectrumBin; i < radial.size(); ++i)
    if (radial[i] > radial[peak]) peak = i;
  return static_cast<double>(std::max(s.width, s.height)) / static_cast<double>(peak);
}

double mean_wavelength(const std::vector<double>& radial, Size s) {
  double power = 0;
  double moment = 0;
  for (size_t i = kFirstSpectrumBin; i < radial.size(); ++i) {
    power += radial[i];
    moment += radial[i] * static_cast<double>(i);
  }
  return static_cast<double>(std::max(s.width, s.height)) * power / moment;
}

std::vector<double> network_cells(const Grid& g, const Mask* walls) {
  const NetworkOptions defaults;
  const Mask m = network_mask(g, walls, threshold_for_fraction(g, walls, defaults.fraction));
  return std::vector<double>(m.cells.begin(), m.cells.end());
}

}  // namespace physarum::app::analysis
