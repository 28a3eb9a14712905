// The atlas's picture: the worlds' tiles in a grid (x to the right, y upward, as on a plot) inside
// a frame that gnuplot draws, with the keys as axis labels and a tick at every tile's centre.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "atlas/sweep_grid.hpp"

namespace physarum::app::atlas {

// Where everything lies on the canvas, in pixels, rows from the top.
struct MosaicLayout {
  int nx = 1, ny = 1;
  int tile_w = 0, tile_h = 0;
  int left = 0, right = 0, top = 0, bottom = 0;  // the frame's margins around the tiles
  int text_scale = 1;  // labels and margins grow with a wide mosaic, so they stay readable scaled down

  int canvas_width() const { return left + nx * tile_w + right; }
  int canvas_height() const { return top + ny * tile_h + bottom; }
  // The top-left pixel of the tile of (ix, iy): iy = 0, the lowest value, is the bottom row.
  int tile_x(int ix) const { return left + ix * tile_w; }
  int tile_y(int iy) const { return top + (ny - 1 - iy) * tile_h; }
  // The tile under pixel (x, y), the inverse of tile_x and tile_y: false outside every tile.
  bool tile_at(int x, int y, int* ix, int* iy) const;
};

// The margins that hold the labels and ticks of a grid of nx x ny tiles of tile_w x tile_h.
MosaicLayout layout_for(int nx, int ny, int tile_w, int tile_h);

// The bare mosaic (layout's tiles only, no margins): tiles[iy * nx + ix] is tile_w x tile_h RGBA,
// rows from the top.
std::vector<uint8_t> bare_mosaic(const MosaicLayout& l, const std::vector<std::vector<uint8_t>>& tiles);

// The canvas: gnuplot's frame (title, axes, labels, ticks at the tiles' centres in the keys'
// values) with the bare mosaic pasted pixel for pixel at (left, top). Throws Error when gnuplot
// is missing or fails.
std::vector<uint8_t> framed_mosaic(const MosaicLayout& l, const std::vector<uint8_t>& bare, const Axis& x,
                                   const Axis& y, const std::string& title);

// The value of tick i as its label shows it ("%.3g").
std::string tick_label(double v);

}  // namespace physarum::app::atlas
