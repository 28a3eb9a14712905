#include "video/loop_fade.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/params.hpp"

namespace physarum::app {

LoopPlan plan_loop(double seconds, int fps) {
  const double frames = seconds * static_cast<double>(fps);
  if (!std::isfinite(frames) || frames < 2.0 || frames > 1.0e7) {
    char text[160];
    std::snprintf(text, sizeof text, "--loop %g: at %d fps that is %g frames; a loop needs 2 to 10^7",
                  seconds, fps, frames);
    throw Error(text);
  }
  LoopPlan p;
  p.loop_frames = static_cast<uint64_t>(std::llround(frames));
  p.fade_frames = std::clamp<uint64_t>(std::min<uint64_t>(static_cast<uint64_t>(fps), p.loop_frames / 4), 1,
                                       p.loop_frames);
  return p;
}

void cross_fade(const uint8_t* late, const uint8_t* held, uint64_t j, uint64_t fade, size_t bytes,
                uint8_t* out) {
  const float w = static_cast<float>(j + 1) / static_cast<float>(fade);
  for (size_t i = 0; i < bytes; ++i) {
    const float v = static_cast<float>(late[i]) * (1.0f - w) + static_cast<float>(held[i]) * w;
    out[i] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 255.0f)));
  }
}

bool LoopFade::write_rgba(const uint8_t* rgba, int width, int height) {
  if (complete()) return false;
  const size_t bytes = 4 * static_cast<size_t>(width) * static_cast<size_t>(height);
  const uint64_t k = taken_++;
  if (k < plan_.fade_frames) {
    held_.emplace_back(rgba, rgba + bytes);
    return true;
  }
  if (k < plan_.loop_frames) return next_.write_rgba(rgba, width, height);
  const uint64_t j = k - plan_.loop_frames;
  const std::vector<uint8_t>& held = held_[j];
  if (held.size() != bytes) throw Error("a looped video's frames changed size");
  mixed_.resize(bytes);
  cross_fade(rgba, held.data(), j, plan_.fade_frames, bytes, mixed_.data());
  std::vector<uint8_t>().swap(held_[j]);  // no longer needed: the memory goes back as the fade goes on
  return next_.write_rgba(mixed_.data(), width, height);
}

}  // namespace physarum::app
