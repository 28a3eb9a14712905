// The Explore window: a button (and the E key) that draws new parameters from the next explore
// seed (explore.hpp) and applies them, or draws a whole strip of 12 at once to choose from, the seed
// of what is shown (type one to draw it again), and a strip of previews of the last 12 results, grown
// headless in the background (hover to see one larger, click to return to it, right-click to keep it). Below:
// locks and "mutate" around the current parameters, favourites (saved between sessions), save as a preset in
// one click, and a morph between two chosen parameter sets, live or written as a two-keyframe story.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "render/gl_objects.hpp"
#include "sim/params.hpp"
#include "window/explore.hpp"
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
  // Draws a whole strip (kStrip) from the next seeds without applying any: their previews grow
  // together, as one batch (one CUDA batch on a GPU), and a click on one runs it.
  void explore_strip(WindowCore& core, Toasts& toasts);
  // The labels of the strip's previews, oldest first (for tests).
  std::vector<std::string> strip_labels() const;
  // Moves the current parameters by `amount` (explore_mutate with the locks) and applies them.
  void mutate(WindowCore& core, Toasts& toasts);
  // What runs now, saved in the user's preset folder under a free name (a toast says which).
  void save_current(WindowCore& core, Toasts& toasts);
  // What runs now, kept as a favourite (and saved in the favourites' folder when there is one).
  void favourite_current(WindowCore& core, Toasts& toasts);
  size_t favourite_count() const { return favourites_.size(); }
  void draw(WindowCore& core, Toasts& toasts);

  // What the panel's controls hold, for tests that drive them.
  ExploreLocks locks;
  float mutate_amount = 0.2f;
  float morph_t = 0.5f;
  int story_steps = 1000;

 private:
  struct Entry {
    uint64_t id = 0;    // the preview request
    std::string label;  // "explore-17", "explore-17-mutated": also the name a saved preset gets
    Preset preset;
    render::Texture texture;  // empty until its preview arrives
    std::string file;         // a favourite's file; empty when not saved
  };
  struct MorphEnd {
    bool set = false;
    std::string label;
    Preset preset;
  };
  Entry running(const WindowCore& core) const;
  Entry& add(std::deque<Entry>& to, const std::string& label, const Preset& p, WindowCore& core);
  bool apply(WindowCore& core, Toasts& toasts, const Entry& e, bool restart);
  void upload_finished();
  void header(WindowCore& core, Toasts& toasts);
  void strip(WindowCore& core, Toasts& toasts);
  bool preview(const Entry& e, float width);
  // The right-click menu of a preview; true when a favourite is to be removed.
  bool entry_menu(WindowCore& core, Toasts& toasts, const Entry& e, bool favourite);
  void load_favourites_once(WindowCore& core);
  void lock_and_mutate(WindowCore& core, Toasts& toasts);
  void favourites(WindowCore& core, Toasts& toasts);
  void morph(WindowCore& core, Toasts& toasts);
  void add_favourite(WindowCore& core, const Entry& e, Toasts& toasts);
  void save_as_preset(const Entry& e, Toasts& toasts);

  uint64_t next_seed_;
  uint64_t next_id_ = 1;
  uint64_t mutations_ = 0;
  std::string shown_;  // the label of what is shown; empty: nothing drawn yet
  char typed_[24] = "";
  std::deque<Entry> entries_;     // newest last
  std::deque<Entry> favourites_;  // oldest first
  bool favourites_loaded_ = false;
  MorphEnd a_, b_;
  PreviewWorker worker_;
};

}  // namespace physarum::app
