// What an atlas writes, and the checks before any world grows: the picture's kind (a still, or a
// video with a third axis) and its encoder, the paths, the output budget; after, the per-world CSV
// and the stack of fields.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "atlas/atlas_run.hpp"
#include "atlas/sweep_grid.hpp"
#include "atlas/worlds.hpp"
#include "sim/params.hpp"
#include "video/video_quality.hpp"

namespace physarum::app::atlas {

// The grid's two axes and, for a video, the third: one mosaic a value of it.
struct Axes {
  Axis x, y;
  std::optional<Axis> t;
  int frames() const { return t ? t->n : 1; }
  int worlds() const { return x.n * y.n * frames(); }
};

// frames[it][iy * nx + ix]: one grid of worlds a value of the third axis (one grid without it).
using Frames = std::vector<std::vector<WorldResult>>;

int fps_of(const AtlasRequest& r);

// The video's quality: the frames as they are, a GIF at the video's own rate and the canvas's
// width (as far as a GIF goes), since a mosaic shrunk or blended between frames cannot be read.
VideoQuality video_quality(const AtlasRequest& r, int canvas_width);

// The encoder for a video of the canvas's size; refuses what no encoder here takes (UsageError).
// Throws Error without ffmpeg, with the message `render` gives.
std::string checked_encoder(const AtlasRequest& r, int w, int h);

// Every output checked before a world grows: writable, distinct, the right kind, within budget.
// `p` is the resolved preset: its size is each world's.
void check_outputs(const AtlasRequest& r, const Preset& p, const Axes& a);

// One row per world: (it,) ix, iy, the (three) values, then its statistics.
void write_csv(const std::string& file, const Axes& a, const Frames& frames);
// (ny, nx, H, W), or (nt, ny, nx, H, W) with a third axis.
void write_stack(const std::string& file, const Axes& a, const Frames& frames);

}  // namespace physarum::app::atlas
