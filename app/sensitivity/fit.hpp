// The largest Lyapunov exponent of a twin run: the slope of ln(distance) against steps over the
// exponential phase, and the saturation time (after how many steps the start is forgotten).
//
// The phase, detected from the series alone:
//   saturation level S = the median distance over the last quarter of the records;
//   the phase starts at the first record with a nonzero distance (before it the twins agree to the
//   bit: an agent nudged by 1e-4 deposits into the same cell until it crosses a cell edge), and
//   runs on while the distance stays at or below fit_below * S (default 0.3), so the plateau and
//   the bend into it are left out. The slope is the least-squares fit of ln(d) on those records.
//   Saturation step = the first record with d >= 0.9 S.
// When S is below the first nonzero distance (or 0: the twins became identical again, as when a
// nudged agent rejoins its twin's path) the perturbation fades rather than grows: the slope is
// then fitted over every nonzero record from the first one on (negative: the rate it fades at),
// `why` says so, and there is no saturation step.
// A series whose last eighth's median is over twice the eighth's before is still growing: `why`
// says so (the fit stands, but S is no plateau yet).
// Jitter-free runs are piecewise constant in their discrete choices, so the growth comes in steps
// (one more agent choosing differently); the fit measures the mean rate of that cascade.
// lambda is per step (multiply by 1/step-time for per second); doubling time = ln 2 / lambda.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace physarum::app::sensitivity {

inline constexpr double kDefaultFitBelow = 0.3;
// --fit-below and a CSV's fit_below: a phase that ends nearer saturation is no longer exponential.
inline constexpr double kMinFitBelow = 1e-6;
inline constexpr double kMaxFitBelow = 0.95;
inline constexpr double kSaturationReached = 0.9;

struct LyapunovFit {
  bool ok = false;        // a slope was fitted (at least 2 records in the phase)
  std::string why;        // when !ok: why not, for people
  double lambda = 0;      // per step
  double intercept = 0;   // ln(d) at step 0 of the fitted line
  int64_t from_step = 0;  // first and last record of the phase
  int64_t to_step = 0;
  int points = 0;
  double saturation_level = 0;   // S
  int64_t saturation_step = -1;  // -1: never reached
};

// `steps` ascending, `distance` >= 0, the same length.
LyapunovFit fit_lyapunov(const std::vector<int64_t>& steps, const std::vector<double>& distance,
                         double fit_below = kDefaultFitBelow);

}  // namespace physarum::app::sensitivity
