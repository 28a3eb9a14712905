#include "window/timeline_seek.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "window/window_core.hpp"

namespace physarum::app {

uint64_t nice_tick(uint64_t span, float width_px, float min_px) {
  const double per_px = static_cast<double>(std::max<uint64_t>(span, 1)) / std::max(1.0f, width_px);
  const double least = per_px * std::max(1.0f, min_px);
  for (uint64_t decade = 1;; decade *= 10) {
    for (const uint64_t m : {1u, 2u, 5u}) {
      if (static_cast<double>(m * decade) >= least) return m * decade;
    }
    if (decade > 100'000'000'000'000ULL) return decade * 10;
  }
}

uint64_t minor_tick(uint64_t tick) {
  uint64_t lead = tick;
  while (lead >= 10 && lead % 10 == 0) lead /= 10;
  return std::max<uint64_t>(1, lead == 2 ? tick / 2 : tick / 5);
}

uint64_t snap_step(double step, uint64_t grid) {
  if (!(step > 0)) return 0;
  const double g = static_cast<double>(std::max<uint64_t>(grid, 1));
  return static_cast<uint64_t>(std::llround(step / g)) * static_cast<uint64_t>(g);
}

std::optional<uint64_t> LoopRange::wrap(uint64_t current) const {
  if (!on || out <= in || current < out) return std::nullopt;
  return in;
}

void Seeker::seek(uint64_t target) {
  target_ = target;
  active_ = true;
  started_ = false;
}

double Seeker::progress() const {
  if (!active_) return 1.0;
  if (!started_ || target_ <= from_) return 0.0;
  return std::clamp(static_cast<double>(at_ - std::min(at_, from_)) / static_cast<double>(target_ - from_),
                    0.0, 1.0);
}

bool Seeker::advance(WindowCore& core, double budget_ms) {
  if (!active_) return false;
  at_ = core.steps_done();
  if (!started_) {
    if (at_ > target_) {
      if (const CommandResult r = core.restart(); !r) {
        active_ = false;
        return false;
      }
      at_ = core.steps_done();
    }
    from_ = at_;
    started_ = true;
    began_ = std::chrono::steady_clock::now();
    made_ = 0;
  }
  if (at_ >= target_) {
    active_ = false;
    return false;
  }
  // Unmeasured: one step first, to learn the rate.
  const double per = ms_per_step_ > 0 ? ms_per_step_ : budget_ms;
  const auto steps =
      std::clamp<uint64_t>(static_cast<uint64_t>(budget_ms / std::max(per, 1e-6)), 1, target_ - at_);
  const auto t0 = std::chrono::steady_clock::now();
  core.run().step(steps);
  const auto t1 = std::chrono::steady_clock::now();
  note_step_time(std::chrono::duration<double, std::milli>(t1 - t0).count() / static_cast<double>(steps),
                 steps);
  made_ += steps;
  at_ = core.steps_done();
  if (at_ >= target_) active_ = false;
  return active_;
}

void Seeker::note_step_time(double ms_per_step, uint64_t steps) {
  if (!(ms_per_step > 0) || steps == 0) return;
  // A running mean that forgets: the rate changes as the network forms, and with the field size.
  ms_per_step_ = ms_per_step_ > 0 ? 0.7 * ms_per_step_ + 0.3 * ms_per_step : ms_per_step;
}

double Seeker::estimate_s(uint64_t current, uint64_t target) const {
  const uint64_t steps = target >= current ? target - current : target;  // behind: again from 0
  return static_cast<double>(steps) * ms_per_step_ / 1000.0;
}

}  // namespace physarum::app

namespace physarum::app {

double Seeker::seconds_left(uint64_t current) const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
  const uint64_t left = target_ > current ? target_ - current : 0;
  if (!active_ || !started_ || made_ < 2 || elapsed < 0.3) return estimate_s(current, target_);
  return static_cast<double>(left) * elapsed / static_cast<double>(made_);
}

}  // namespace physarum::app
