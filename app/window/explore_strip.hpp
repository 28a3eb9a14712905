// The Explore window: a button (and the E key) that draws new parameters from the next explore
// seed (explore.hpp) and applies them, the seed of what is shown (type one to draw it again), and
// a strip of small previews of the last 12 draws, grown headless in the background; clicking one
// returns to it.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "render/gl_objects.hpp"
#include "sim/params.hpp"
#include "window/explore_previews.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

class ExploreStrip {
 public:
  static constexpr size_t kStrip = 12;
  explicit ExploreStrip(uint64_t first_seed) : next_seed_(first_seed) {}

  // Draws from the next seed and applies it (a toast says which seed).
  void explore(WindowCore& core, Toasts& toasts);
  // Draws from `seed` and applies it.
  void explore_seed(WindowCore& core, Toasts& toasts, uint64_t seed);
  void draw(WindowCore& core, Toasts& toasts);

 private:
  struct Entry {
    uint64_t seed = 0;
    Preset preset;
    render::Texture texture;  // empty until its preview arrives
  };
  void upload_finished();
  uint64_t next_seed_;
  uint64_t shown_seed_ = 0;
  bool shown_ = false;
  char typed_[24] = "";
  std::deque<Entry> entries_;  // newest last
  PreviewWorker worker_;
};

}  // namespace physarum::app
