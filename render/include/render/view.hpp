// Where the field appears in a framebuffer: letterboxed to keep its aspect ratio, then zoomed
// (about a point under the cursor) and panned. Plain math, no GL: the window and the headless
// renderer share it, and tests check it without a context.
#pragma once

#include <algorithm>

#include "sim/params.hpp"

namespace physarum::render {

struct View {
  float zoom = 1.0f;      // 1 = the whole field fits (letterboxed)
  float center_x = 0.5f;  // field cell at the framebuffer's centre, as a fraction of the field
  float center_y = 0.5f;

  static constexpr float kMinZoom = 0.25f;
  static constexpr float kMaxZoom = 64.0f;

  void reset() { *this = View{}; }

  // Framebuffer pixels per field cell.
  float scale(int fb_w, int fb_h, Size field) const {
    const float fit = std::min(static_cast<float>(fb_w) / static_cast<float>(field.width),
                               static_cast<float>(fb_h) / static_cast<float>(field.height));
    return fit * zoom;
  }
  float center_cell_x(Size field) const { return center_x * static_cast<float>(field.width); }
  float center_cell_y(Size field) const { return center_y * static_cast<float>(field.height); }

  // Framebuffer pixel (y down) to field cell coordinates (may lie outside the field).
  void to_field(float px, float py, int fb_w, int fb_h, Size field, float& fx, float& fy) const {
    const float s = scale(fb_w, fb_h, field);
    fx = center_cell_x(field) + (px - 0.5f * static_cast<float>(fb_w)) / s;
    fy = center_cell_y(field) + (py - 0.5f * static_cast<float>(fb_h)) / s;
  }

  // Multiplies the zoom by `factor`, keeping the field point under pixel (px, py) where it is.
  void zoom_at(float factor, float px, float py, int fb_w, int fb_h, Size field) {
    float bx, by;
    to_field(px, py, fb_w, fb_h, field, bx, by);
    zoom = std::clamp(zoom * factor, kMinZoom, kMaxZoom);
    float ax, ay;
    to_field(px, py, fb_w, fb_h, field, ax, ay);
    center_x += (bx - ax) / static_cast<float>(field.width);
    center_y += (by - ay) / static_cast<float>(field.height);
  }

  // Drags the image by (dx, dy) framebuffer pixels.
  void pan(float dx, float dy, int fb_w, int fb_h, Size field) {
    const float s = scale(fb_w, fb_h, field);
    center_x = std::clamp(center_x - dx / s / static_cast<float>(field.width), 0.0f, 1.0f);
    center_y = std::clamp(center_y - dy / s / static_cast<float>(field.height), 0.0f, 1.0f);
  }
};

}  // namespace physarum::render
