// A benchmark case that will take long says so before it does, from its own first steps: the
// first slices of its warm-up are timed, and the steps still to come are priced at that rate.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace physarum::app {

// A case expected to take at least this long is announced.
inline constexpr double kLongCaseS = 10.0;
// The warm-up's first slices are timed until they have taken this long (or the warm-up is done).
inline constexpr double kCalibrationS = 0.25;

// What an announcement says: `what` (the case), the steps left and the rate they were priced at.
struct CaseEstimate {
  std::string what;           // "4096x4096 with 16M agents"
  uint64_t warmup_left = 0;   // warm-up steps after the timed ones
  uint64_t after = 0;         // steps after the warm-up
  std::string after_words;    // what they are: "timed steps", "steps of 8 worlds alone"
  double s_per_step = 0;      // as measured
  uint64_t measured = 0;      // over this many steps
  std::string unit = "step";  // what is priced: "step", or "frame" (the frame bench's frames)
  double seconds() const { return s_per_step * static_cast<double>(warmup_left + after); }
};

// "physarum bench: 4096x4096 with 16M agents will take about 156 s (2:36) more: 297 warm-up steps
// and 64 timed steps at 0.43 s a step, timed over 2 steps; Ctrl-C stops it"
std::string estimate_line(const CaseEstimate& e);

// Runs `warmup` steps through `step` as step_in_slices does (a stop request is seen between
// slices). `step` must return only when its steps are done (on CUDA: synchronise). The slices after
// the first are timed; once they have taken kCalibrationS, or the warm-up is done, the rest of it
// and the `after` steps are priced at their rate, and a case of at least `say_over_s` is announced
// on stderr (estimate_line), once. Returns the seconds a step of the timed slices (0 without
// warm-up).
double warm_up_announcing(const std::string& what, uint64_t warmup, uint64_t after,
                          const std::string& after_words, const std::function<void(uint64_t)>& step,
                          double say_over_s = kLongCaseS);

}  // namespace physarum::app
