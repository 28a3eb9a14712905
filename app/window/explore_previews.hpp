// Small pictures of presets: Explore's draws and the Presets gallery's thumbnails. Each grows on the
// CPU backend at a small size through run::Run (so maps and keyframes apply as in a full run), in
// a background thread, and is coloured on the CPU as render does. The window uploads the images.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "render/palette.hpp"
#include "sim/params.hpp"

namespace physarum::app {

struct PreviewImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // rows top to bottom
};

inline constexpr Size kPreviewSize{256, 144};  // enlarged on hover to 384x216 without much blur
inline constexpr int kPreviewSteps = 300;

// `p` grown for `steps` at `size` (one CPU thread) with as many agents per cell as p has, at least
// one agent; coloured with `palette` (or the species' colours) and p's display.
PreviewImage render_preview(const Preset& p, const render::Palette& palette, Size size = kPreviewSize,
                            int steps = kPreviewSteps);

// Runs jobs one after another in its own thread, in the order they were asked for. The destructor
// drops the waiting jobs and stops after the one in progress.
class PreviewWorker {
 public:
  using Job = std::function<PreviewImage()>;  // an exception from it gives an empty image
  PreviewWorker();
  ~PreviewWorker();
  PreviewWorker(const PreviewWorker&) = delete;
  PreviewWorker& operator=(const PreviewWorker&) = delete;

  void request(uint64_t id, Job job);
  // A preview of `p` (render_preview with the defaults).
  void request(uint64_t id, const Preset& p, const render::Palette& palette);
  struct Done {
    uint64_t id;
    PreviewImage image;
  };
  std::vector<Done> take_done();

 private:
  void run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<uint64_t, Job>> jobs_;
  std::vector<Done> done_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace physarum::app
