#include "sensitivity/distance.hpp"

#include <algorithm>
#include <cmath>

namespace physarum::app::sensitivity {

double relative_l2(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) throw Error("relative_l2: fields of different sizes");
  double diff = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = b[i];
    diff += (x - y) * (x - y);
    aa += x * x;
    bb += y * y;
  }
  const double norm = std::sqrt(std::max(aa, bb));
  return norm > 0 ? std::sqrt(diff) / norm : 0.0;
}

double cell_mismatch_fraction(const AgentState& a, const AgentState& b) {
  if (a.size() != b.size()) throw Error("cell_mismatch_fraction: different agent counts");
  if (a.size() == 0) return 0.0;
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a.id[i] != b.id[i]) throw Error("cell_mismatch_fraction: agents not in the same id order");
    differ += std::floor(a.x[i]) != std::floor(b.x[i]) || std::floor(a.y[i]) != std::floor(b.y[i]);
  }
  return static_cast<double>(differ) / static_cast<double>(a.size());
}

}  // namespace physarum::app::sensitivity
