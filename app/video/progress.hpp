// A one-line progress bar on stderr for headless runs: step, frames, fps, ETA. Silent when stderr
// is not a terminal (logs, CI) or when asked to be quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace physarum::app {

struct ProgressState {
  uint64_t step = 0;
  uint64_t total_steps = 0;  // 0: unknown (no bar, no ETA)
  uint64_t frames = 0;
  double elapsed_s = 0;
  uint64_t record_from = 0;  // before this step the run grows without recording: the line says so
};

// The line drawn for a state, at most `columns` characters wide (pure, for tests).
std::string format_progress(const ProgressState& s, int columns);
// "0:07", "1:02:03"; "--:--" for a negative or non-finite number.
std::string format_duration(double seconds);

class ProgressBar {
 public:
  // enabled: draw at all (false with --quiet); output must also be a terminal unless forced.
  ProgressBar(uint64_t total_steps, bool enabled, std::FILE* out = stderr, bool force = false);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Redraws at most ~10 times a second, so calling it every step costs nothing.
  void update(uint64_t step, uint64_t frames);
  // Draws the final state and ends the line. Called by the destructor when not called before.
  void finish();
  bool active() const { return active_; }
  // The step the first frame is recorded at (render --from); until then the line says "growing".
  void set_record_from(uint64_t step) { record_from_ = step; }

 private:
  void draw(bool final_draw);
  int columns() const;

  uint64_t total_;
  bool active_;
  bool finished_ = false;
  std::FILE* out_;
  uint64_t step_ = 0;
  uint64_t frames_ = 0;
  uint64_t record_from_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace physarum::app
