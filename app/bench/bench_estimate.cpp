#include "bench/bench_estimate.hpp"

#include <chrono>
#include <cstdio>

#include "sim/elapsed.hpp"
#include "system/signals.hpp"
#include "video/progress.hpp"

namespace physarum::app {

std::string estimate_line(const CaseEstimate& e) {
  const double s = e.seconds();
  std::string steps;
  if (e.warmup_left > 0) steps = std::to_string(e.warmup_left) + " warm-up steps";
  if (e.after > 0) steps += (steps.empty() ? "" : " and ") + std::to_string(e.after) + " " + e.after_words;
  char text[512];
  const std::string over = e.measured == 1 ? "1 " + e.unit : std::to_string(e.measured) + " " + e.unit + "s";
  std::snprintf(text, sizeof text,
                "physarum bench: %s will take about %.0f s (%s) more: %s at %.3g s a %s, timed over %s; "
                "Ctrl-C stops it",
                e.what.c_str(), s, format_duration(s).c_str(), steps.c_str(), e.s_per_step, e.unit.c_str(),
                over.c_str());
  return text;
}

double warm_up_announcing(const std::string& what, uint64_t warmup, uint64_t after,
                          const std::string& after_words, const std::function<void(uint64_t)>& step,
                          double say_over_s) {
  uint64_t stepped = 0, done = 0;  // all the warm-up's steps so far; those timed
  double ms = 0;
  bool priced = false;
  step_in_slices(warmup, [&](uint64_t k) {
    const auto t0 = std::chrono::steady_clock::now();
    step(k);
    stepped += k;
    // The first slice is not timed unless it is the whole warm-up: the first step touches every
    // page of a new backend's memory for the first time and reorders the agents, several times
    // a later step's work.
    if (priced || (stepped == k && stepped < warmup)) return;
    ms += ms_since(t0);
    done += k;
    if (ms < kCalibrationS * 1000 && stepped < warmup) return;
    priced = true;
    const CaseEstimate e{what, warmup - stepped, after, after_words, ms / 1000 / static_cast<double>(done),
                         done};
    if (e.seconds() >= say_over_s) {
      std::fprintf(stderr, "%s\n", estimate_line(e).c_str());
      std::fflush(stderr);
    }
  });
  return done > 0 ? ms / 1000 / static_cast<double>(done) : 0.0;
}

}  // namespace physarum::app
