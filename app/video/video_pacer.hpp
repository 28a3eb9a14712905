// Pacing of a recording. Real time: frames carry their capture time, and each video frame k shows
// the newest frame captured by first + k / fps, so the video lasts the wall time however unevenly
// the frames came (a slow window's frames repeated). Smooth: the same clock, but a frame that comes
// late is shown once and the clock moves on from it: never a repeated frame.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace physarum::app {

// How frames map to video frames.
enum class Pacing {
  EveryFrame,  // each frame handed over is one video frame (headless; "every frame" in the window)
  RealTime,    // frames carry their capture time: repeated or skipped so the video lasts the wall time
  // Each frame at most once and at most fps a second: frames that come faster are skipped (real
  // time), a frame that comes later than its tick is shown once, not repeated (the video plays
  // faster than it ran). The window's default: a slow window records every picture, a fast one
  // keeps the clock.
  Smooth,
};

// The window's timings in the order the panel offers them, the default first.
inline constexpr Pacing kWindowPacings[] = {Pacing::Smooth, Pacing::EveryFrame, Pacing::RealTime};
// Their names on the command line: "smooth", "every-frame", "real-time".
std::string_view pacing_name(Pacing p);
// The timing of that name; empty for another name.
std::optional<Pacing> pacing_named(std::string_view name);

class VideoPacer {
 public:
  using Clock = std::chrono::steady_clock;
  // RealTime with a start time: the video covers start .. the end, the first frame shown from the
  // start. Without one it covers the first capture .. the last.
  VideoPacer(int fps, Pacing pacing, std::optional<Clock::time_point> started);

  // Notes a frame's arrival (its capture time).
  void capture(Clock::time_point captured);
  // How many video frames a frame captured then fills (0: it came faster than the video's rate;
  // Smooth: at most 1). Integer nanoseconds, so a frame exactly on a tick (0.7 s at 30 fps) lands on it.
  uint64_t repeats_for(Clock::time_point captured) const;
  // The frame was taken: the video is scheduled `repeats` frames further (Smooth: and a late
  // frame's tick becomes the clock's, the time it was late forgotten).
  void schedule(uint64_t repeats, Clock::time_point captured);
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
  uint64_t forgotten_ = 0;  // Smooth: ticks of lateness the clock moved on over
};

}  // namespace physarum::app
