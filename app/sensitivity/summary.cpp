#include "sensitivity/summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace physarum::app::sensitivity {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double student_t95(int dof) {
  static constexpr std::array<double, 30> table = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                                   2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                                   2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                                   2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof < 1) return kNaN;
  if (dof <= 30) return table[static_cast<size_t>(dof - 1)];
  // Abramowitz and Stegun 26.7.5: t = z + g1/v + g2/v^2 + g3/v^3 + g4/v^4 for the normal quantile z.
  const double z = kNormal975, z2 = z * z, v = dof;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
  return z + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v;
}

MeanCi mean_ci(const std::vector<double>& samples) {
  std::vector<double> v;
  for (double s : samples) {
    if (std::isfinite(s)) v.push_back(s);
  }
  MeanCi m;
  m.n = static_cast<int>(v.size());
  m.mean = m.n ? std::accumulate(v.begin(), v.end(), 0.0) / m.n : kNaN;
  m.sd = kNaN;
  m.half = kNaN;
  if (m.n >= 2) {
    double ss = 0;
    for (double s : v) ss += (s - m.mean) * (s - m.mean);
    m.sd = std::sqrt(ss / (m.n - 1));
    m.half = student_t95(m.n - 1) * m.sd / std::sqrt(static_cast<double>(m.n));
  }
  return m;
}

double derivative_norm(const RunData& r) {
  if (r.delta == 0 || r.records.empty()) return kNaN;
  const double scale = r.value != 0 ? std::fabs(r.value) : 1.0;
  return r.records.back().field_distance / (std::fabs(r.delta) / scale);
}

Analysis analyse(const std::vector<RunData>& runs, const CsvHeader& header) {
  Analysis a;
  std::vector<std::vector<double>> lambdas, saturations, derivatives;
  for (const RunData& r : runs) {
    std::vector<int64_t> steps;
    std::vector<double> d;
    for (const Record& rec : r.records) {
      steps.push_back(rec.step);
      d.push_back(rec.field_distance);
    }
    a.fits.push_back(fit_lyapunov(steps, d, header.fit_below));
    const LyapunovFit& f = a.fits.back();
    if (a.points.empty() || a.points.back().point != r.point) {
      a.points.push_back({r.point, r.parameter, r.value, {}, {}, {}});
      lambdas.emplace_back();
      saturations.emplace_back();
      derivatives.emplace_back();
    }
    lambdas.back().push_back(f.ok ? f.lambda : kNaN);
    saturations.back().push_back(f.saturation_step >= 0 ? static_cast<double>(f.saturation_step) : kNaN);
    derivatives.back().push_back(derivative_norm(r));
  }
  for (size_t i = 0; i < a.points.size(); ++i) {
    a.points[i].lambda = mean_ci(lambdas[i]);
    a.points[i].saturation = mean_ci(saturations[i]);
    a.points[i].derivative = mean_ci(derivatives[i]);
  }
  if (header.mode == Mode::Average) {
    a.ranking.resize(a.points.size());
    std::iota(a.ranking.begin(), a.ranking.end(), 0);
    const auto key = [&](int i) {
      const double m = a.points[static_cast<size_t>(i)].derivative.mean;
      return std::isfinite(m) ? m : -1.0;
    };
    std::stable_sort(a.ranking.begin(), a.ranking.end(), [&](int x, int y) { return key(x) > key(y); });
    for (const PointSummary& p : a.points) {
      if (std::isfinite(p.derivative.mean)) a.average_sensitivity += p.derivative.mean;
    }
  }
  return a;
}

}  // namespace physarum::app::sensitivity
