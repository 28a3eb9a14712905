// Small previews of explore draws: each draw grows on the CPU backend at a small size, in a
// background thread, and is coloured on the CPU as render does. The window uploads the images.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
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

inline constexpr Size kPreviewSize{160, 90};
inline constexpr int kPreviewSteps = 300;

// `p` grown for kPreviewSteps at kPreviewSize with one agent per cell (one thread, CPU), coloured
// with `palette` and p's display.
PreviewImage render_preview(const Preset& p, const render::Palette& palette);

// Renders requests one after another in its own thread; the newest requests first are not needed:
// requests are served in order. The destructor stops after the preview in progress.
class PreviewWorker {
 public:
  PreviewWorker();
  ~PreviewWorker();
  PreviewWorker(const PreviewWorker&) = delete;
  PreviewWorker& operator=(const PreviewWorker&) = delete;

  void request(uint64_t id, const Preset& p, const render::Palette& palette);
  struct Done {
    uint64_t id;
    PreviewImage image;
  };
  std::vector<Done> take_done();

 private:
  struct Job {
    uint64_t id;
    Preset preset;
    render::Palette palette;
  };
  void run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::vector<Done> done_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace physarum::app
