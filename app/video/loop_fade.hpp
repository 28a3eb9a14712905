// A seamless loop out of a straight run of frames: the run is `loop` + `fade` frames long, and its
// first `fade` frames are held back and cross-faded into its last `fade`, which close the video.
// Output frame i is rendered frame fade + i for i < loop - fade; then frame loop + j (j < fade)
// mixed with the held frame j, the held one's weight rising (j + 1) / fade to 1. The last output
// frame is then the held frame fade - 1, and the first one is its successor, rendered frame fade:
// played on a loop, the end flows into the start as any two consecutive frames do. Only the held
// frames are kept in memory; the rest pass straight through, so every format gets the same pixels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "video/frame_sink.hpp"

namespace physarum::app {

// The frames a loop of `seconds` at `fps` cross-fades: a second's worth, at most a quarter of the
// loop, at least one. Throws Error naming the value for a loop shorter than two frames.
struct LoopPlan {
  uint64_t loop_frames = 0;  // in the output
  uint64_t fade_frames = 0;  // rendered beyond the loop and faded into its start
  uint64_t rendered_frames() const { return loop_frames + fade_frames; }
};
LoopPlan plan_loop(double seconds, int fps);

// Frame j of the fade: `held` (rendered frame j) mixed into `late` (rendered frame loop + j) with
// weight (j + 1) / fade, rounded to the nearest byte. Every byte, alpha included.
void cross_fade(const uint8_t* late, const uint8_t* held, uint64_t j, uint64_t fade, size_t bytes,
                uint8_t* out);

class LoopFade final : public FrameSink {
 public:
  LoopFade(const LoopPlan& plan, FrameSink& next) : plan_(plan), next_(next) {}
  bool write_rgba(const uint8_t* rgba, int width, int height) override;
  // Frames taken so far, and whether the loop is complete (frames beyond it are refused).
  uint64_t taken() const { return taken_; }
  bool complete() const { return taken_ >= plan_.rendered_frames(); }

 private:
  LoopPlan plan_;
  FrameSink& next_;
  uint64_t taken_ = 0;
  std::vector<std::vector<uint8_t>> held_;
  std::vector<uint8_t> mixed_;
};

}  // namespace physarum::app
