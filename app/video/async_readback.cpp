#include "video/async_readback.hpp"

#include <glad/gl.h>

#include <algorithm>

namespace physarum::app {

namespace {

bool gl_fence_passed(void* fence, uint64_t timeout_ns) {
  // The first wait flushes, so a fence never waits on commands still sitting in a queue.
  const GLenum r = glClientWaitSync(static_cast<GLsync>(fence), GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns);
  return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

}  // namespace

AsyncReadback::AsyncReadback(int slots)
    : slots_(static_cast<size_t>(std::max(2, slots))), fence_wait_(&gl_fence_passed) {}

AsyncReadback::~AsyncReadback() {
  discard();
}

bool AsyncReadback::start(int w, int h) {
  if (w <= 0 || h <= 0) return false;
  ++submitted_;
  int free_slot = -1;
  for (int i = 0; i < static_cast<int>(slots_.size()); ++i) {
    if (std::find(in_flight_.begin(), in_flight_.end(), i) == in_flight_.end()) {
      free_slot = i;
      break;
    }
  }
  if (free_slot < 0) {
    ++dropped_;
    return false;
  }
  Slot& s = slots_[static_cast<size_t>(free_slot)];
  const long long bytes = static_cast<long long>(w) * h * 4;
  if (!s.pbo || s.capacity < bytes) {
    s.pbo = render::make_buffer(bytes, nullptr, GL_STREAM_READ);
    s.capacity = bytes;
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, s.pbo.get());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  s.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  s.w = w;
  s.h = h;
  s.started = FrameSink::Clock::now();
  in_flight_.push_back(free_slot);
  return true;
}

void AsyncReadback::start_lossless(int w, int h, FrameSink& sink) {
  if (in_flight_.size() >= slots_.size()) (void)deliver_oldest(sink, true);
  (void)start(w, h);
}

bool AsyncReadback::deliver_oldest(FrameSink& sink, bool wait) {
  Slot& s = slots_[static_cast<size_t>(in_flight_.front())];
  if (!fence_wait_(s.fence, wait ? 2'000'000'000ull : 0)) {
    if (!wait) return false;  // not done yet: next frame
    ++dropped_;               // never finished: lost, and counted
  } else {
    const auto bytes = static_cast<GLsizeiptr>(s.w) * s.h * 4;
    if (const void* p = glMapNamedBufferRange(s.pbo.get(), 0, bytes, GL_MAP_READ_BIT)) {
      sink.write_rgba_at(static_cast<const uint8_t*>(p), s.w, s.h, s.started);
      glUnmapNamedBuffer(s.pbo.get());
      ++delivered_;
    } else {
      ++dropped_;
    }
  }
  glDeleteSync(static_cast<GLsync>(s.fence));
  s.fence = nullptr;
  in_flight_.erase(in_flight_.begin());
  return true;
}

void AsyncReadback::deliver(FrameSink& sink, bool wait) {
  while (!in_flight_.empty() && deliver_oldest(sink, wait)) {
  }
}

void AsyncReadback::discard() {
  for (int i : in_flight_) {
    Slot& s = slots_[static_cast<size_t>(i)];
    if (s.fence) glDeleteSync(static_cast<GLsync>(s.fence));
    s.fence = nullptr;
  }
  dropped_ += in_flight_.size();
  in_flight_.clear();
}

}  // namespace physarum::app
