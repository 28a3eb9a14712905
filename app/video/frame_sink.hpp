// Where finished frames go (the recorder, a PNG writer, a test). The window and the headless
// renderer hand frames to a FrameSink without knowing what it does with them.
#pragma once

#include <chrono>
#include <cstdint>

namespace physarum::app {

struct FrameSink {
  virtual ~FrameSink() = default;
  // One frame of width x height RGBA8 pixels, tightly packed, rows top to bottom (a sink may be
  // told otherwise when it is made). Returns false once the sink has failed or stopped; the caller
  // may keep calling, nothing breaks, but no more frames are taken.
  virtual bool write_rgba(const uint8_t* rgba, int width, int height) = 0;
  // The same, with the time the frame was captured, for sinks that keep real time (the window's
  // recorder repeats or skips frames by it); the others ignore it.
  using Clock = std::chrono::steady_clock;
  virtual bool write_rgba_at(const uint8_t* rgba, int width, int height, Clock::time_point /*captured*/) {
    return write_rgba(rgba, width, height);
  }
};

}  // namespace physarum::app
