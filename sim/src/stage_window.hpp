// A moving average of per-step stage times over the last kWindow steps, shared by backends.
#pragma once

#include <array>
#include <cstddef>

#include "sim/backend.hpp"

namespace physarum {

class StageWindow {
 public:
  static constexpr size_t kWindow = 64;
  void add(const StageTimings& t) {
    ring_[next_] = t;
    next_ = (next_ + 1) % kWindow;
    if (count_ < kWindow) ++count_;
  }
  StageTimings average() const {
    StageTimings avg;
    for (size_t i = 0; i < count_; ++i) {
      avg.agents_ms += ring_[i].agents_ms;
      avg.field_ms += ring_[i].field_ms;
      avg.sort_ms += ring_[i].sort_ms;
      avg.publish_ms += ring_[i].publish_ms;
      avg.step_ms += ring_[i].step_ms;
    }
    if (count_ > 0) {
      const double n = static_cast<double>(count_);
      avg.agents_ms /= n;
      avg.field_ms /= n;
      avg.sort_ms /= n;
      avg.publish_ms /= n;
      avg.step_ms /= n;
    }
    avg.samples = static_cast<int>(count_);
    return avg;
  }

 private:
  std::array<StageTimings, kWindow> ring_{};
  size_t next_ = 0;
  size_t count_ = 0;
};

}  // namespace physarum
