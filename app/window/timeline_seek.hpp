// Moving through a run in time. Runs are deterministic, so going to step N means growing the same
// run again from step 0 to N (forward: on from where it is). A seek on the CPU may take seconds, so
// it runs in chunks of about a frame's budget across frames, with its progress and an estimate from
// the step time measured so far, and the window stays responsive. A loop range plays [in, out) over
// and over: reaching `out` seeks back to `in`.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace physarum::app {

class WindowCore;

// The ruler's tick spacing: the smallest of 1, 2, 5 x 10^k steps whose ticks are at least
// `min_px` apart when `span` steps take `width_px` pixels.
uint64_t nice_tick(uint64_t span, float width_px, float min_px);
// The minor ticks between two labelled ones (tick / 5 for 1 and 5 x 10^k, tick / 2 for 2 x 10^k), 1 at least.
uint64_t minor_tick(uint64_t tick);
// `step` to the nearest multiple of `grid` (grid 0 or 1: itself).
uint64_t snap_step(double step, uint64_t grid);

struct LoopRange {
  bool on = false;
  uint64_t in = 0, out = 0;
  // Where a run at `current` steps done goes next: `in` once it reached `out` (a range with out > in),
  // else nothing.
  std::optional<uint64_t> wrap(uint64_t current) const;
};

class Seeker {
 public:
  // Asks to go to `target` (the last request wins). The seek starts on the next advance().
  void seek(uint64_t target);
  void cancel() { active_ = false; }
  bool active() const { return active_; }
  uint64_t target() const { return target_; }
  // Steps made toward the target over steps still to make (restarting from 0 counts all of them).
  double progress() const;
  // One frame's share of the seek: a target behind the run restarts it from step 0 (WindowCore::restart),
  // then steps for about `budget_ms` by the measured step time. False once the target is reached
  // (or the restart was refused, saying so in the core's notice).
  bool advance(WindowCore& core, double budget_ms);

  // The step time, from the seek's own chunks and from the window's frames while it plays.
  void note_step_time(double ms_per_step, uint64_t steps);
  double ms_per_step() const { return ms_per_step_; }
  // Seconds a seek from `current` to `target` takes at the measured step time (0 while unmeasured).
  double estimate_s(uint64_t current, uint64_t target) const;
  // Seconds the running seek still needs: at the pace it has kept so far, which includes the frames
  // drawn between its chunks, once it has one; else estimate_s.
  double seconds_left(uint64_t current) const;

 private:
  bool active_ = false;
  bool started_ = false;  // the first advance() of a request decides whether to restart
  uint64_t target_ = 0;
  uint64_t from_ = 0;  // the step the stepping began at (0 after a restart)
  uint64_t at_ = 0;    // steps done, as last seen
  double ms_per_step_ = 0;
  std::chrono::steady_clock::time_point began_{};  // when the stepping began
  uint64_t made_ = 0;                              // steps made since
};

}  // namespace physarum::app
