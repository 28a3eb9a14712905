// Where the field appears in a framebuffer: fitted into an area (the whole framebuffer or the part
// the window's panels leave), letterboxed to keep its aspect ratio, then zoomed (about a point
// under the cursor) and panned. Plain math, no GL: the window and the headless
// renderer share it, and tests check it without a context.
#pragma once

#include <algorithm>

#include "sim/params.hpp"

namespace physarum::render {

// A rectangle of the framebuffer in pixels (y down) that the field is fitted into: the whole
// framebuffer, or what the window's side panel and the strips under the field leave of it.
struct Area {
  float x = 0, y = 0, w = 0, h = 0;
  static Area whole(int fb_w, int fb_h) { return {0, 0, static_cast<float>(fb_w), static_cast<float>(fb_h)}; }
  float center_x() const { return x + 0.5f * w; }
  float center_y() const { return y + 0.5f * h; }
  bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
  bool operator==(const Area&) const = default;
};

struct View {
  float zoom = 1.0f;      // 1 = the whole field fits the area (letterboxed)
  float center_x = 0.5f;  // field cell at the area's centre, as a fraction of the field
  float center_y = 0.5f;

  static constexpr float kMinZoom = 0.25f;
  static constexpr float kMaxZoom = 64.0f;

  void reset() { *this = View{}; }

  // Framebuffer pixels per field cell.
  float scale(const Area& a, Size field) const {
    const float fit = std::min(a.w / static_cast<float>(field.width), a.h / static_cast<float>(field.height));
    return fit * zoom;
  }
  float scale(int fb_w, int fb_h, Size field) const { return scale(Area::whole(fb_w, fb_h), field); }
  float center_cell_x(Size field) const { return center_x * static_cast<float>(field.width); }
  float center_cell_y(Size field) const { return center_y * static_cast<float>(field.height); }

  // Framebuffer pixel (y down) to field cell coordinates (may lie outside the field).
  void to_field(float px, float py, const Area& a, Size field, float& fx, float& fy) const {
    const float s = scale(a, field);
    fx = center_cell_x(field) + (px - a.center_x()) / s;
    fy = center_cell_y(field) + (py - a.center_y()) / s;
  }
  void to_field(float px, float py, int fb_w, int fb_h, Size field, float& fx, float& fy) const {
    to_field(px, py, Area::whole(fb_w, fb_h), field, fx, fy);
  }

  // The field cell at the centre of a fb_w x fb_h framebuffer when the field is placed in `a`: the
  // shaders place the field about the framebuffer's centre.
  void framebuffer_center_cell(const Area& a, int fb_w, int fb_h, Size field, float& cx, float& cy) const {
    to_field(0.5f * static_cast<float>(fb_w), 0.5f * static_cast<float>(fb_h), a, field, cx, cy);
  }

  // Multiplies the zoom by `factor`, keeping the field point under pixel (px, py) where it is.
  void zoom_at(float factor, float px, float py, const Area& a, Size field) {
    float bx, by;
    to_field(px, py, a, field, bx, by);
    zoom = std::clamp(zoom * factor, kMinZoom, kMaxZoom);
    float ax, ay;
    to_field(px, py, a, field, ax, ay);
    center_x += (bx - ax) / static_cast<float>(field.width);
    center_y += (by - ay) / static_cast<float>(field.height);
  }
  void zoom_at(float factor, float px, float py, int fb_w, int fb_h, Size field) {
    zoom_at(factor, px, py, Area::whole(fb_w, fb_h), field);
  }

  // Drags the image by (dx, dy) framebuffer pixels.
  void pan(float dx, float dy, const Area& a, Size field) {
    const float s = scale(a, field);
    center_x = std::clamp(center_x - dx / s / static_cast<float>(field.width), 0.0f, 1.0f);
    center_y = std::clamp(center_y - dy / s / static_cast<float>(field.height), 0.0f, 1.0f);
  }
  void pan(float dx, float dy, int fb_w, int fb_h, Size field) {
    pan(dx, dy, Area::whole(fb_w, fb_h), field);
  }
};

}  // namespace physarum::render
