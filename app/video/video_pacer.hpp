// Real-time pacing of a recording: frames carry their capture time, and each video frame k shows
// the newest frame captured by first + k / fps, so the video lasts the wall time however unevenly
// the frames came.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace physarum::app {

// How frames map to video frames.
enum class Pacing {
  EveryFrame,  // each frame handed over is one video frame (headless; "every frame" in the window)
  RealTime,    // frames carry their capture time: repeated or skipped so the video lasts the wall time
};

class VideoPacer {
 public:
  using Clock = std::chrono::steady_clock;
  // RealTime with a start time: the video covers start .. the end, the first frame shown from the
  // start. Without one it covers the first capture .. the last.
  VideoPacer(int fps, Pacing pacing, std::optional<Clock::time_point> started);

  // Notes a frame's arrival (its capture time).
  void capture(Clock::time_point captured);
  // How many video frames a frame captured then fills (0: it came faster than the video's rate).
  // Integer nanoseconds, so a frame exactly on a tick (0.7 s at 30 fps) lands on it.
  uint64_t repeats_for(Clock::time_point captured) const;
  // The frame was taken: the video is scheduled `repeats` frames further.
  void schedule(uint64_t repeats) { scheduled_ += repeats; }
  // At the end (RealTime with a start): how often the last frame is shown again so the video
  // reaches `now`, as the screen kept showing it; 0 otherwise.
  uint64_t hold_last_until(Clock::time_point now);

  double wall_s() const;  // from the first capture (or the start) to the last

 private:
  int fps_ = 60;
  Pacing pacing_ = Pacing::EveryFrame;
  std::optional<Clock::time_point> started_;
  std::optional<Clock::time_point> first_;
  Clock::time_point last_{};
  uint64_t scheduled_ = 0;  // video frames handed to the ring so far
};

}  // namespace physarum::app
