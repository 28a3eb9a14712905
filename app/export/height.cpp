#include "export/height.hpp"

#include <algorithm>
#include <cmath>

#include "sim/display_mapping.hpp"

namespace physarum::app::exporter {

std::vector<uint16_t> height_samples(const Grid& g, const DisplayParams& d) {
  double lo = 0, hi = 1;
  if (d.auto_range && !g.values.empty()) {
    const auto [mn, mx] = std::minmax_element(g.values.begin(), g.values.end());
    lo = *mn;
    hi = *mx;
  }
  const double span = hi - lo;
  const double inv_span = span > 0 ? 1.0 / span : 0.0;
  const double exposure = std::isfinite(d.exposure) && d.exposure > 0 ? d.exposure : 1.0;
  const double inv_gamma = std::isfinite(d.gamma) && d.gamma > 0 ? 1.0 / d.gamma : 1.0;
  std::vector<uint16_t> out(g.values.size());
  for (size_t i = 0; i < g.values.size(); ++i) {
    const double x = std::max((g.values[i] - lo) * inv_span, 0.0) * exposure;
    const double t = std::pow(std::clamp(apply_mapping(x, d.mapping), 0.0, 1.0), inv_gamma);
    out[i] = static_cast<uint16_t>(std::lround(t * 65535.0));
  }
  return out;
}

std::string r16_bytes(const std::vector<uint16_t>& samples) {
  std::string bytes(samples.size() * 2, '\0');
  for (size_t i = 0; i < samples.size(); ++i) {
    bytes[2 * i] = static_cast<char>(samples[i] & 0xff);
    bytes[2 * i + 1] = static_cast<char>(samples[i] >> 8);
  }
  return bytes;
}

}  // namespace physarum::app::exporter
