// A run drawn offscreen as the window draws it (a plane, or a volume through VolumeFrames), its
// frames fed to video recorders: `physarum render`'s pictures and videos. Frames are read back
// through a ring of pixel buffers (the window's asynchronous readback) and handed to the encoders a
// frame or two later, so reading and encoding overlap the next frames' simulation; a full ring waits
// for its oldest read instead of dropping it, so every frame arrives, in order, with the same bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "headless/volume_frames.hpp"
#include "render/headless_picture.hpp"
#include "render/offscreen.hpp"
#include "render/palette_blend.hpp"
#include "run/run.hpp"
#include "video/async_readback.hpp"
#include "video/frame_sink.hpp"
#include "video/loop_fade.hpp"
#include "video/recorder.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {

// Frames being read back at once: reading overlaps the next frames' simulation.
inline constexpr int kReadbackRing = 3;

// What shapes the pictures and the videos, as `render` takes it.
struct HeadlessOptions {
  int fps = 30;
  int video_stop_limit_s = 30;  // after the last frame or Ctrl-C, before a stalled encoder is ended
  VideoQuality quality;
  std::optional<double> orbit_s;  // a volume: a turntable of this many seconds of video
  SliceOption slice;              // a volume: the 2D picture of one plane (axis Off: the 3D view)
};

// A video to write and its comment tag.
struct VideoOutput {
  std::string file;
  std::string comment;
};

// A palette is a file beside the program, not a preset value the preset reader can check: a
// keyframe naming one that is not there would end the run at its step, a partial video left behind.
// Throws Error naming the keyframe.
void check_keyframed_palettes(const Preset& p, const render::PaletteSet& palettes);

// Every recorder takes every frame; the first one to fail is remembered (its index) and the frame
// loop stops with its message.
class RecorderFanOut final : public FrameSink {
 public:
  explicit RecorderFanOut(const std::vector<std::unique_ptr<Recorder>>& recorders) : recorders_(recorders) {}
  bool write_rgba(const uint8_t* rgba, int width, int height) override;
  std::optional<size_t> failed() const { return failed_; }

 private:
  const std::vector<std::unique_ptr<Recorder>>& recorders_;
  std::optional<size_t> failed_;
};

class HeadlessRender {
 public:
  // The context (on the run's CUDA device for a CUDA run), the palettes checked (the display's and
  // every keyframed one), and a colour target of `out`. Says on stderr what draws, as `command`.
  HeadlessRender(const HeadlessOptions& o, run::Run& sim, Size out, const char* command);

  void open_recorders(const std::vector<VideoOutput>& videos, const std::string& encoder);
  bool recording() const { return !recorders_.empty(); }
  // Frames go through the cross-fade first, every recorder getting its output.
  void loop(const LoopPlan& plan) { loop_.emplace(plan, fan_out_); }

  // Draws a frame and hands it to the recorders. False when a stop request (Ctrl-C) ended the wait
  // for the encoder.
  bool write_frame(bool host_range);
  // The run as it is now, into the colour target. `host_range`: the display range from a host copy.
  void draw(bool host_range);
  // The last state drawn again into a float target: the colours before any rounding to 8 bits.
  std::vector<float> draw_deep();

  // Hands over the frames still being read, then stops the videos cleanly; a failed one is an error.
  void finish_videos();

  const std::vector<float>& host_field() const { return picture_.plane().host_field(); }

  // Each video's status, by its --out name: after finish_videos(), what the file holds.
  std::map<std::string, RecorderStatus> video_statuses() const;

 private:
  FrameSink& sink() { return loop_ ? static_cast<FrameSink&>(*loop_) : fan_out_; }
  // False after Ctrl-C ended the wait for an encoder; throws when a recording failed.
  bool recorders_ok();

  const HeadlessOptions o_;
  run::Run& sim_;
  Backend* b_;  // a plane's; nullptr for a volume
  Size out_;
  render::HeadlessPicture picture_;  // the context: first made, last gone
  std::optional<VolumeFrames> volume_;
  uint64_t frame_ = 0;               // video frames written: the turntable's clock
  render::PaletteFollower palette_;  // what the renderer holds; keyframes blend it
  std::optional<render::OffscreenTarget> target_;
  std::vector<std::unique_ptr<Recorder>> recorders_;
  RecorderFanOut fan_out_{recorders_};
  std::optional<LoopFade> loop_;
  AsyncReadback readback_{kReadbackRing};  // after the GL objects it reads from; before the context goes
};

}  // namespace physarum::app
