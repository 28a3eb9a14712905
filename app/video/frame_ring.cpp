#include "video/frame_ring.hpp"

#include <algorithm>
#include <cstring>

namespace physarum::app {

FrameRing::FrameRing(int slots, size_t frame_bytes) : frame_bytes_(frame_bytes) {
  const int n = std::clamp(slots, 1, 64);
  slots_.resize(static_cast<size_t>(n));
  repeats_.assign(static_cast<size_t>(n), 1);
  for (int i = 0; i < n; ++i) {
    slots_[static_cast<size_t>(i)].resize(frame_bytes_);
    free_.push_back(i);
  }
}

int FrameRing::take(uint64_t repeats) {
  const int slot = free_.back();
  free_.pop_back();
  repeats_[static_cast<size_t>(slot)] = repeats;
  ++in_copy_;
  return slot;
}

void FrameRing::queue(int slot) {
  --in_copy_;
  queued_.push_back(slot);
}

std::optional<FrameRing::Queued> FrameRing::pop() {
  if (queued_.empty()) return std::nullopt;
  const int slot = queued_.front();
  queued_.pop_front();
  return Queued{slot, repeats_[static_cast<size_t>(slot)]};
}

void FrameRing::release(int slot) {
  free_.push_back(slot);
}

uint64_t FrameRing::drop_queued() {
  const uint64_t n = queued_.size();
  for (int q : queued_) free_.push_back(q);
  queued_.clear();
  return n;
}

void copy_frame(uint8_t* dst, int video_w, int video_h, const uint8_t* rgba, int width, int height,
                bool bottom_up) {
  const size_t dst_row = static_cast<size_t>(video_w) * 4;
  const int copy_w = rgba ? std::clamp(width, 0, video_w) : 0;
  const int copy_h = rgba ? std::clamp(height, 0, video_h) : 0;
  const size_t copy_bytes = static_cast<size_t>(copy_w) * 4;
  const size_t src_row = static_cast<size_t>(std::max(width, 0)) * 4;
  for (int y = 0; y < video_h; ++y) {
    uint8_t* out = dst + static_cast<size_t>(y) * dst_row;
    if (y < copy_h) {
      const int src_y = bottom_up ? height - 1 - y : y;
      std::memcpy(out, rgba + static_cast<size_t>(src_y) * src_row, copy_bytes);
      std::memset(out + copy_bytes, 0, dst_row - copy_bytes);
    } else {
      std::memset(out, 0, dst_row);
    }
  }
}

}  // namespace physarum::app
