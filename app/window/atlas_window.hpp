// The Atlas window: the live preset swept over two numeric keys (the grid of `physarum atlas`), one
// small world a tile, grown together through run::Batch in a background thread (one CUDA batch on a
// GPU, side by side on the threads the window spares on the CPU) and drawn as they grow. Hovering a
// tile shows its two values; clicking it loads them into the main simulation as Explore loads a
// draw, so the window's undo takes it back.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "atlas/mosaic.hpp"
#include "atlas/sweep_grid.hpp"
#include "render/gl_objects.hpp"
#include "window/explore_previews.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

inline constexpr Size kAtlasTileSize{128, 128};
inline constexpr int kAtlasMinCount = 2;
inline constexpr int kAtlasMaxCount = 12;

// What the window's controls hold.
struct AtlasAxisChoice {
  std::string key;
  double from = 0, to = 0;
  int count = 6;
};
struct AtlasSettings {
  AtlasAxisChoice x{"model.sensor_angle_deg", 5, 120, 6};
  AtlasAxisChoice y{"model.rotation_angle_deg", 5, 120, 6};
  int steps = 300;
};

// A grid to grow: the two axes over the preset that was live when it was asked for.
struct AtlasGrid {
  atlas::Axis x, y;
  Preset base;  // the live preset without its keyframes, which would override the swept values
  int steps = 0;
};

// The grid the settings ask for over `live`, checked as `physarum atlas` checks its axes (every value
// within its key's range). Throws run::UsageError naming the value: a count outside 2..12, steps
// below 1, a key that is not a sweepable number.
AtlasGrid make_atlas_grid(const Preset& live, const AtlasSettings& s);
// The worlds, tile (ix, iy) at iy * nx + ix: the base at kAtlasTileSize with its density of agents,
// the two values set.
std::vector<run::Recipe> atlas_recipes(const AtlasGrid& g);
// What clicking tile (ix, iy) loads: the base at its own size with the tile's two values.
Preset atlas_tile_preset(const AtlasGrid& g, int ix, int iy);
// Tile (ix, iy)'s preset applied to the main simulation as Explore applies a draw (restarted, so it
// grows as the tile did). The window's history records it as one undo step.
CommandResult load_atlas_tile(WindowCore& core, const AtlasGrid& g, int ix, int iy);
// The hover text: each key with its unit and the tile's value.
std::string atlas_tooltip(const AtlasGrid& g, int ix, int iy);
// The mosaic as the window draws it: tiles of `tile` px, y upward, no margins.
atlas::MosaicLayout atlas_screen_layout(const AtlasGrid& g, int tile);

// Grows a grid's worlds in its own thread; the pictures are taken as they grow.
class AtlasGrower {
 public:
  AtlasGrower() = default;
  ~AtlasGrower() { cancel(); }
  AtlasGrower(const AtlasGrower&) = delete;
  AtlasGrower& operator=(const AtlasGrower&) = delete;

  // Stops what grows (if anything) and starts the grid's worlds on at most `threads` CPU threads,
  // coloured with `palette`.
  void start(const AtlasGrid& g, const render::Palette& palette, int threads);
  // Stops growing; the pictures so far stay.
  void cancel();
  bool growing() const { return growing_; }

  struct Snapshot {
    uint64_t version = 0;  // grows with every new set of pictures
    uint64_t steps_done = 0;
    std::vector<PreviewImage> tiles;  // as atlas_recipes orders them; empty before the first
    std::string note;                 // how the worlds run (run::Batch::note)
    std::string error;                // why growing stopped, when it failed
  };
  // The latest pictures when they are newer than `version`; else a snapshot without tiles.
  Snapshot take_if_newer(uint64_t version);

 private:
  void grow(std::vector<run::Recipe> recipes, uint64_t steps, render::Palette palette, int threads);

  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> growing_{false};
  std::mutex mutex_;
  Snapshot latest_;
};

class AtlasWindow {
 public:
  // Starts growing the settings' grid over the live preset; a refused grid is told as a toast.
  void grow(WindowCore& core, Toasts& toasts);
  // The window, while `open`.
  void draw(WindowCore& core, Toasts& toasts, bool& open);

  AtlasSettings settings;
  const AtlasGrid* grid() const { return shown_ ? &grid_ : nullptr; }

 private:
  void controls(WindowCore& core, Toasts& toasts);
  // `keys`: those of `live` an axis can sweep.
  void axis_controls(const char* id, AtlasAxisChoice& a, const Preset& live,
                     const std::vector<std::string>& keys);
  void upload_latest();
  void mosaic(WindowCore& core, Toasts& toasts);
  void tick_labels(const atlas::MosaicLayout& l, float x0, float y0);

  AtlasGrower grower_;
  AtlasGrid grid_;
  bool shown_ = false;
  uint64_t version_ = 0;
  uint64_t steps_done_ = 0;
  std::string note_;
  std::vector<render::Texture> textures_;
};

}  // namespace physarum::app
