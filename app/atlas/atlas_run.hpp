// `physarum atlas` run whole: the worlds of a grid over two registry keys grown headless, drawn as
// `render` draws a still and laid out as a mosaic with labelled axes (gnuplot draws the frame);
// per-world statistics as CSV and the stack of fields as .npy. A third key (t) makes a video: one
// whole mosaic a frame, the grid grown again at each of its values. Every output is checked before a
// world grows.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "run/recipe.hpp"

namespace physarum::app::atlas {

// A mosaic takes a while to read: a few a second, unless fps says otherwise. 4 divides 100, so a
// GIF plays it evenly too.
inline constexpr int kDefaultAtlasFps = 4;

// What the command line asked for; the options name each field in messages (--x, --out).
struct AtlasRequest {
  run::Recipe sim;
  std::string x, y, t;  // the axes, KEY=a:b:n or KEY=a:b:n:log (grid.hpp); t empty: a still
  int fps = 0;          // 0: kDefaultAtlasFps
  uint64_t steps = 500;
  int tile = 160;  // without a size in `sim`: each world's width in cells
  std::string out, csv, npy;
  std::string output_budget;
  // What the run chose for the user ("640x360 with 60K agents (...)"), said once the outputs pass.
  std::function<void(const std::string& chosen)> say_chosen = [](const std::string&) {};
};

// Throws UsageError for what the user can fix in the command (naming the option and the value),
// Error for what failed while running. Returns the exit code.
int run_atlas(AtlasRequest r);

}  // namespace physarum::app::atlas
