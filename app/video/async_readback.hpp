// Reads frames back from the GPU without stalling the frame loop: glReadPixels into one of a ring
// of pixel buffer objects, a fence after it, and the pixels handed on a frame or two later, once
// the fence has passed. When every buffer is still in flight the frame is dropped and counted; so
// is a read that never finishes (a fence that times out while stopping) or cannot be mapped:
// started + dropped at start == delivered + dropped, once nothing is in flight.
// Needs a current OpenGL 4.5 context for its whole life.
#pragma once

#include <cstdint>
#include <vector>

#include "render/gl_objects.hpp"
#include "video/frame_sink.hpp"

namespace physarum::app {

class AsyncReadback {
 public:
  explicit AsyncReadback(int slots = 3);
  ~AsyncReadback();
  AsyncReadback(const AsyncReadback&) = delete;
  AsyncReadback& operator=(const AsyncReadback&) = delete;

  // Starts reading (0, 0, w, h) of the bound read framebuffer. Returns false, counting a drop,
  // when no buffer is free.
  bool start(int w, int h);
  // The same for a caller that must never drop a frame (headless render): when every buffer is in
  // flight, the oldest read is first waited for and handed to `sink`, so frames stay in order.
  void start_lossless(int w, int h, FrameSink& sink);
  // Hands every finished read to `sink` (rows bottom to top, as GL reads them, with the time the
  // read was started), oldest first. With wait, blocks until all reads in flight are done
  // (stopping a recording), at most two seconds each; one that is not done then is dropped.
  void deliver(FrameSink& sink, bool wait = false);
  // Forgets the reads in flight (the recording ended another way); they count as dropped.
  void discard();
  uint64_t submitted() const { return submitted_; }  // start() calls
  uint64_t delivered() const { return delivered_; }
  uint64_t dropped() const { return dropped_; }

  // Whether a fence has passed, waiting up to timeout_ns (glClientWaitSync). A seam for tests.
  using FenceWait = bool (*)(void* fence, uint64_t timeout_ns);
  void set_fence_wait(FenceWait wait) { fence_wait_ = wait; }

 private:
  struct Slot {
    render::Buffer pbo;
    long long capacity = 0;
    void* fence = nullptr;  // GLsync
    int w = 0, h = 0;
    FrameSink::Clock::time_point started{};
  };
  // Hands the oldest read to sink (or drops it, counted); false when it is not done and !wait.
  bool deliver_oldest(FrameSink& sink, bool wait);

  std::vector<Slot> slots_;
  std::vector<int> in_flight_;  // slot indices, oldest first
  uint64_t submitted_ = 0;
  uint64_t delivered_ = 0;
  uint64_t dropped_ = 0;
  FenceWait fence_wait_;
};

}  // namespace physarum::app
