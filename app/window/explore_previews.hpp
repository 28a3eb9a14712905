// Small pictures of presets: Explore's draws, the Presets gallery's thumbnails and the Atlas
// window's tiles. Each grows at a small size through the run library (so maps and keyframes apply as
// in a full run), in a background thread, and is coloured on the CPU as render does. Several asked
// for at once grow together through run::Batch: one CUDA batch on a GPU, side by side on the CPU's
// threads the window spares. The window uploads the images.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "render/palette.hpp"
#include "run/recipe.hpp"
#include "sim/params.hpp"

namespace physarum::app {

struct PreviewImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // rows top to bottom
};

inline constexpr Size kPreviewSize{256, 144};  // enlarged on hover to 384x216 without much blur
inline constexpr int kPreviewSteps = 300;

// The threads the window spares for growing in the background (previews, the atlas): about half
// the cores, at least one, so its own run keeps going.
int background_threads();

// `p` at `size` with as many agents per cell as p has (at least one agent), on any backend, every
// core: a preview's world.
run::Recipe preview_recipe(const Preset& p, Size size);

// A grown world's field ((S, H, W) planes) coloured with `palette` (or the species' colours) and the
// display of `p`, the preset it ran.
PreviewImage colour_preview(const std::vector<float>& field, Size size, const Preset& p,
                            const SpeciesSet& species, const render::Palette& palette);

struct PreviewAsk {
  Preset preset;
  render::Palette palette;
};
// Each preset's preview (preview_recipe, `steps` steps, colour_preview), grown together through one
// run::Batch on `backend` ("auto": one CUDA batch where a device is there) with at most `threads` CPU
// threads. Preview i is the same image as render_preview of ask i on the same backend.
std::vector<PreviewImage> render_previews(const std::vector<PreviewAsk>& asks, Size size, int steps,
                                          int threads, const std::string& backend = "auto");

// `p`'s preview grown alone on the CPU backend, one thread (the gallery's thumbnails, kept on disk).
PreviewImage render_preview(const Preset& p, const render::Palette& palette, Size size = kPreviewSize,
                            int steps = kPreviewSteps);

// Runs jobs one after another in its own thread, in the order they were asked for; previews of
// presets waiting together grow together (render_previews on background_threads()). The destructor
// drops the waiting jobs and stops after the one in progress.
class PreviewWorker {
 public:
  using Job = std::function<PreviewImage()>;  // an exception from it gives an empty image
  PreviewWorker();
  ~PreviewWorker();
  PreviewWorker(const PreviewWorker&) = delete;
  PreviewWorker& operator=(const PreviewWorker&) = delete;

  void request(uint64_t id, Job job);
  // A preview of `p` (kPreviewSize, kPreviewSteps), with the other previews waiting then.
  void request(uint64_t id, const Preset& p, const render::Palette& palette);
  struct Done {
    uint64_t id;
    PreviewImage image;
  };
  std::vector<Done> take_done();

 private:
  struct Waiting {
    uint64_t id = 0;
    Job job;                        // a job of its own, or
    std::optional<PreviewAsk> ask;  // a preview that grows with the others waiting
  };
  void run();
  // The front job, or every preview waiting at the front, run; their results are kept.
  void run_front(std::unique_lock<std::mutex>& lock);
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Waiting> jobs_;
  std::vector<Done> done_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace physarum::app
