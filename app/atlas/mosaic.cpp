#include "atlas/mosaic.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "sim/params.hpp"
#include "system/gnuplot.hpp"

namespace physarum::app::atlas {
namespace {

// At most about a dozen labelled ticks an axis: a 24-value axis labels every second tick, and
// every tile keeps its tick mark.
std::string tics(const Axis& a) {
  const int every = std::max(1, (a.n + 11) / 12);
  std::string t = "(";
  for (int i = 0; i < a.n; ++i) {
    if (i > 0) t += ", ";
    t += gnuplot_string(i % every == 0 ? tick_label(a.value(i)) : std::string()) + " " + std::to_string(i);
  }
  return t + ")";
}

std::string frame_script(const MosaicLayout& l, const Axis& x, const Axis& y, const std::string& title) {
  const double cw = l.canvas_width(), ch = l.canvas_height();
  const auto at = [](double v) { return gnuplot_number(v); };
  std::string gp = "set terminal pngcairo size " + std::to_string(l.canvas_width()) + "," +
                   std::to_string(l.canvas_height()) + " noenhanced font 'sans," +
                   std::to_string(10 * l.text_scale) + "'\nset output 'frame.png'\n";
  gp += "set lmargin at screen " + at(l.left / cw) + "\nset rmargin at screen " + at((cw - l.right) / cw) +
        "\nset bmargin at screen " + at(l.bottom / ch) + "\nset tmargin at screen " + at((ch - l.top) / ch) +
        "\n";
  gp += "set xrange [-0.5:" + at(l.nx - 0.5) + "]\nset yrange [-0.5:" + at(l.ny - 0.5) + "]\n";
  gp += "set xtics " + tics(x) + " out nomirror\nset ytics " + tics(y) + " out nomirror\n";
  gp += "set xlabel " + gnuplot_string(x.label()) + "\nset ylabel " + gnuplot_string(y.label()) + "\n";
  gp += "set title " + gnuplot_string(title) + "\nunset key\n";
  // A constant below the y range: nothing is drawn but the frame.
  return gp + "plot -1e9 notitle\n";
}

}  // namespace

std::string tick_label(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

bool MosaicLayout::tile_at(int x, int y, int* ix, int* iy) const {
  if (tile_w <= 0 || tile_h <= 0 || x < left || y < top) return false;
  const int cx = (x - left) / tile_w, row = (y - top) / tile_h;
  if (cx >= nx || row >= ny) return false;
  *ix = cx;
  *iy = ny - 1 - row;
  return true;
}

MosaicLayout layout_for(int nx, int ny, int tile_w, int tile_h) {
  MosaicLayout l;
  l.nx = nx;
  l.ny = ny;
  l.tile_w = tile_w;
  l.tile_h = tile_h;
  // Room for a y label and its tick labels on the left, the x label below, a title above; a
  // 10-point font up to 1500 tiles' pixels wide, one step larger for each 1500 more (a 24 x 24
  // map of 200-cell tiles, 4800 pixels, is read scaled to a screen).
  l.text_scale = 1 + nx * tile_w / 1500;
  l.left = 90 * l.text_scale;
  l.right = 30 * l.text_scale;
  l.top = 40 * l.text_scale;
  l.bottom = 64 * l.text_scale;
  return l;
}

std::vector<uint8_t> bare_mosaic(const MosaicLayout& l, const std::vector<std::vector<uint8_t>>& tiles) {
  const size_t row = static_cast<size_t>(l.nx) * static_cast<size_t>(l.tile_w) * 4;
  std::vector<uint8_t> out(row * static_cast<size_t>(l.ny) * static_cast<size_t>(l.tile_h));
  const size_t tile_row = static_cast<size_t>(l.tile_w) * 4;
  for (int iy = 0; iy < l.ny; ++iy) {
    for (int ix = 0; ix < l.nx; ++ix) {
      const std::vector<uint8_t>& t = tiles[static_cast<size_t>(iy * l.nx + ix)];
      const int y0 = l.tile_y(iy) - l.top;
      for (int r = 0; r < l.tile_h; ++r) {
        std::memcpy(out.data() + static_cast<size_t>(y0 + r) * row + static_cast<size_t>(ix) * tile_row,
                    t.data() + static_cast<size_t>(r) * tile_row, tile_row);
      }
    }
  }
  return out;
}

std::vector<uint8_t> framed_mosaic(const MosaicLayout& l, const std::vector<uint8_t>& bare, const Axis& x,
                                   const Axis& y, const std::string& title) {
  ScratchDir dir("physarum-atlas");
  run_gnuplot(dir, frame_script(l, x, y, title), "frame.png");
  int w = 0, h = 0, n = 0;
  const std::unique_ptr<uint8_t, void (*)(void*)> frame(
      stbi_load((dir.path() / "frame.png").c_str(), &w, &h, &n, 4), stbi_image_free);
  if (!frame || w != l.canvas_width() || h != l.canvas_height()) {
    throw Error("plot: gnuplot's frame is not the " + std::to_string(l.canvas_width()) + "x" +
                std::to_string(l.canvas_height()) + " picture asked for");
  }
  std::vector<uint8_t> out(frame.get(), frame.get() + static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  const size_t row = static_cast<size_t>(l.nx) * static_cast<size_t>(l.tile_w) * 4;
  for (int r = 0; r < l.ny * l.tile_h; ++r) {
    std::memcpy(
        out.data() +
            (static_cast<size_t>(l.top + r) * static_cast<size_t>(w) + static_cast<size_t>(l.left)) * 4,
        bare.data() + static_cast<size_t>(r) * row, row);
  }
  return out;
}

}  // namespace physarum::app::atlas
