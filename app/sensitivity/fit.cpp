#include "sensitivity/fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace physarum::app::sensitivity {

LyapunovFit fit_lyapunov(const std::vector<int64_t>& steps, const std::vector<double>& distance,
                         double fit_below) {
  if (steps.size() != distance.size()) throw std::invalid_argument("fit_lyapunov: lengths differ");
  LyapunovFit fit;
  const size_t n = distance.size();
  if (n == 0) {
    fit.why = "no records";
    return fit;
  }
  std::vector<double> tail(distance.end() - static_cast<std::ptrdiff_t>(std::max<size_t>(1, n / 4)),
                           distance.end());
  std::sort(tail.begin(), tail.end());
  fit.saturation_level =
      tail.size() % 2 ? tail[tail.size() / 2] : 0.5 * (tail[tail.size() / 2 - 1] + tail[tail.size() / 2]);
  size_t first = 0;
  while (first < n && distance[first] <= 0) ++first;
  if (first == n) {
    fit.why = "the twins never diverged (distance 0 throughout)";
    return fit;
  }
  // Still growing at the end (the last eighth's median over twice the eighth before): S is then no
  // plateau, and the fit may run into the growth itself.
  const size_t eighth = n / 8;
  const auto median_of = [&](size_t from, size_t count) {
    std::vector<double> v(distance.begin() + static_cast<std::ptrdiff_t>(from),
                          distance.begin() + static_cast<std::ptrdiff_t>(from + count));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const bool growing = eighth >= 2 && median_of(n - eighth, eighth) > 2 * median_of(n - 2 * eighth, eighth);
  // The end level below the first difference: the perturbation fades instead of growing. The slope
  // over everything from the first difference on is then the (negative) rate it fades at.
  const bool fades = fit.saturation_level < distance[first];
  if (!fades) {
    for (size_t i = 0; i < n; ++i) {
      if (distance[i] >= kSaturationReached * fit.saturation_level) {
        fit.saturation_step = steps[i];
        break;
      }
    }
  }
  const double top = fades ? std::numeric_limits<double>::infinity() : fit_below * fit.saturation_level;
  std::vector<size_t> used;  // records in the phase with a logarithm (a fading run may touch 0)
  for (size_t i = first; i < n && distance[i] <= top; ++i) {
    if (distance[i] > 0) used.push_back(i);
  }
  fit.points = static_cast<int>(used.size());
  if (fit.points < 2) {
    fit.why = "the distance jumped to saturation within one record interval (use a smaller --every or eps)";
    return fit;
  }
  if (fades) fit.why = "the perturbation fades: slope over the whole series after the first difference";
  double sx = 0, sy = 0;
  for (size_t i : used) {
    sx += static_cast<double>(steps[i]);
    sy += std::log(distance[i]);
  }
  // Centred sums: steps reach millions, and sxx - sx^2/n would cancel badly.
  const double m = fit.points, mx = sx / m, my = sy / m;
  double cxx = 0, cxy = 0;
  for (size_t i : used) {
    const double dx = static_cast<double>(steps[i]) - mx;
    cxx += dx * dx;
    cxy += dx * (std::log(distance[i]) - my);
  }
  if (growing && !fades)
    fit.why = "still growing at the end: no plateau yet, lambda may be low (run more --steps)";
  fit.lambda = cxy / cxx;
  fit.intercept = my - fit.lambda * mx;
  fit.from_step = steps[used.front()];
  fit.to_step = steps[used.back()];
  fit.ok = true;
  return fit;
}

}  // namespace physarum::app::sensitivity
