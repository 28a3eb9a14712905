// Moving averages of the backends' stage timings (Backend::timings()).
#pragma once

#include <cstddef>
#include <deque>
#include <utility>

#include "sim/backend.hpp"

namespace physarum {

// The mean of the most recent `capacity` samples. A sample may stand for several units (a batch of
// 10 steps that took 5 ms: add(5, 10)); the mean is then per unit.
class MovingAverage {
 public:
  explicit MovingAverage(size_t capacity) : capacity_(capacity) {}
  void add(double total, double units = 1) {
    samples_.emplace_back(total, units);
    if (samples_.size() > capacity_) samples_.pop_front();
  }
  double units() const {
    double n = 0;
    for (const auto& s : samples_) n += s.second;
    return n;
  }
  double mean() const {  // 0 before the first sample
    double total = 0;
    for (const auto& s : samples_) total += s.first;
    const double n = units();
    return n > 0 ? total / n : 0.0;
  }

 private:
  size_t capacity_;
  std::deque<std::pair<double, double>> samples_;  // total, units
};

// Each stage's time per step over the last kSteps steps (the CPU backend, one sample a step).
class StageAverages {
 public:
  static constexpr size_t kSteps = 64;
  void add(const StageTimings& t) {
    agents_.add(t.agents_ms);
    field_.add(t.field_ms);
    sort_.add(t.sort_ms);
    publish_.add(t.publish_ms);
    step_.add(t.step_ms);
  }
  StageTimings average() const {
    StageTimings avg;
    avg.agents_ms = agents_.mean();
    avg.field_ms = field_.mean();
    avg.sort_ms = sort_.mean();
    avg.publish_ms = publish_.mean();
    avg.step_ms = step_.mean();
    avg.samples = static_cast<int>(step_.units());
    return avg;
  }

 private:
  MovingAverage agents_{kSteps}, field_{kSteps}, sort_{kSteps}, publish_{kSteps}, step_{kSteps};
};

}  // namespace physarum
