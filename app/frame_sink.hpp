// Where finished frames go (the recorder, a PNG writer, a test). The window and the headless
// renderer hand frames to a FrameSink without knowing what it does with them.
#pragma once

#include <cstdint>

namespace physarum::app {

struct FrameSink {
  virtual ~FrameSink() = default;
  // One frame of width x height RGBA8 pixels, tightly packed, rows top to bottom (a sink may be
  // told otherwise when it is made). Returns false once the sink has failed or stopped; the caller
  // may keep calling, nothing breaks, but no more frames are taken.
  virtual bool write_rgba(const uint8_t* rgba, int width, int height) = 0;
};

}  // namespace physarum::app
