// The recorder's frame buffers: a fixed set of slots that the frame loop fills and the writer thread
// empties, so a frame costs the loop one copy and never an allocation. The ring holds no lock of its
// own: its owner guards it together with the counters it keeps beside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace physarum::app {

enum class RingPolicy {
  Drop,  // interactive: never block the caller; a frame that finds the ring full is dropped
  Wait,  // headless: block until a slot is free; never drop
};

class FrameRing {
 public:
  // `slots` is clamped to 1..64 buffers of frame_bytes each, all allocated now.
  FrameRing(int slots, size_t frame_bytes);

  bool has_free() const { return !free_.empty(); }
  // A free slot for the caller to fill (outside any lock), made `repeats` video frames. Needs has_free().
  int take(uint64_t repeats);
  uint8_t* data(int slot) { return slots_[static_cast<size_t>(slot)].data(); }
  const uint8_t* data(int slot) const { return slots_[static_cast<size_t>(slot)].data(); }
  size_t frame_bytes() const { return frame_bytes_; }
  // A slot taken and filled joins the queue, oldest first.
  void queue(int slot);

  struct Queued {
    int slot = -1;
    uint64_t repeats = 1;
  };
  std::optional<Queued> pop();  // the oldest queued slot, now the writer's until release()
  void release(int slot);
  // Releases every queued slot unwritten; returns how many there were.
  uint64_t drop_queued();

  bool queue_empty() const { return queued_.empty(); }
  bool filling() const { return in_copy_ > 0; }  // a slot taken and not yet queued

 private:
  size_t frame_bytes_ = 0;
  std::vector<std::vector<uint8_t>> slots_;
  std::vector<uint64_t> repeats_;  // per slot: how many video frames it makes
  std::vector<int> free_;
  std::deque<int> queued_;
  int in_copy_ = 0;
};

// Copies a width x height RGBA frame into a video_w x video_h one: cropped on the right and bottom,
// padded with black, rows reversed when the source is bottom up (glReadPixels). A null source
// gives a black frame.
void copy_frame(uint8_t* dst, int video_w, int video_h, const uint8_t* rgba, int width, int height,
                bool bottom_up);

}  // namespace physarum::app
