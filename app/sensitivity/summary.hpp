// From runs to answers: each run's Lyapunov fit, and per point (sweep value or parameter) the mean
// over repeats with a 95% confidence interval (Student's t). For --average, each parameter's
// finite-difference derivative norm, ranked, and their sum: the average sensitivity.
#pragma once

#include <string>
#include <vector>

#include "sensitivity/fit.hpp"
#include "sensitivity/runs.hpp"

namespace physarum::app::sensitivity {

// The two-sided 95% quantile of the standard normal distribution.
inline constexpr double kNormal975 = 1.959963984540054;

// The two-sided 95% quantile of Student's t with `dof` >= 1 degrees of freedom (the half-width of a
// 95% interval of a mean of dof + 1 samples, in standard errors): from a table up to 30, computed
// above (Cornish-Fisher expansion around the normal's; within 1e-6 there).
double student_t95(int dof);

struct MeanCi {
  int n = 0;        // finite samples
  double mean = 0;  // NaN when n = 0
  double sd = 0;    // sample standard deviation (n - 1 in the denominator); NaN when n < 2
  double half = 0;  // 95% half-width; NaN when n < 2
};
MeanCi mean_ci(const std::vector<double>& samples);  // NaN samples are left out

// --average: the relative field change at the last record per relative parameter change:
// (||F_B - F_A|| / ||F_A||) / (|delta| / |value|), with |value| taken as 1 for a parameter at 0
// (then moved by eps absolutely). NaN when the perturbation rounded away (delta = 0).
double derivative_norm(const RunData& r);

struct PointSummary {
  int point = 0;
  std::string parameter;
  double value = 0;
  MeanCi lambda;      // per step
  MeanCi saturation;  // steps
  MeanCi derivative;  // --average
};

struct Analysis {
  std::vector<LyapunovFit> fits;     // one per run, in run order
  std::vector<PointSummary> points;  // in point order
  std::vector<int> ranking;          // --average: indices into points, most influential first
  double average_sensitivity = 0;    // --average: the sum of the derivative norms' means
};

Analysis analyse(const std::vector<RunData>& runs, const CsvHeader& header);

}  // namespace physarum::app::sensitivity
