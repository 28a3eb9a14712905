// The mouse brush: a window position under the current zoom and pan becomes a stroke in field
// cells. Pure math, so tests check the mapping without a window.
#pragma once

#include <optional>
#include <vector>

#include "render/view.hpp"
#include "sim/backend.hpp"

namespace physarum::app {

struct BrushSettings {
  float radius = 8.0f;         // cells
  float strength = 5.0f;       // pheromone added per frame at each covered cell
  float erase = 50.0f;         // pheromone removed per frame (right button)
  int channel = kAllChannels;  // the species' channel it paints into, or every channel
  // What the left button paints (docs/MODEL.md, "Seeding and the brush"). The right button erases:
  // trail (by `erase`), food (all of it), walls in the Wall mode; in the EraseWall mode it paints walls.
  BrushMode mode = BrushMode::Trail;
  float food = 0.25f;  // food E added per frame at each covered cell (1: a white pixel of a food image)
};

// The brush modes in the panel's order, with their names.
inline constexpr BrushMode kBrushModes[] = {BrushMode::Trail, BrushMode::Food, BrushMode::Wall,
                                            BrushMode::EraseWall};
const char* brush_mode_name(BrushMode m);

// The largest amount one dab adds or removes: far above anything useful, far below the 1e30
// the backends accept.
inline constexpr float kMaxBrushAmount = 1.0e6f;

// px, py: framebuffer pixels (y down); the field is fitted into `area` of the framebuffer. Nothing
// when the point lies outside the field or the area. A radius or amount the backends would refuse
// (negative, infinite, NaN, too large) is clamped.
std::optional<BrushStroke> brush_stroke_at(const render::View& view, float px, float py,
                                           const render::Area& area, Size field, const BrushSettings& brush,
                                           bool erase);
inline std::optional<BrushStroke> brush_stroke_at(const render::View& view, float px, float py, int fb_w,
                                                  int fb_h, Size field, const BrushSettings& brush,
                                                  bool erase) {
  return brush_stroke_at(view, px, py, render::Area::whole(fb_w, fb_h), field, brush, erase);
}

// The dabs that carry a drag from `from` to `to` (same radius and amount as `to`): spaced at most
// half a radius apart so a fast drag paints a line, not beads; `from` itself is not repeated.
// At most kMaxDabs, evenly spread, however long the jump. The dabs keep `to`'s mode and channel.
inline constexpr int kMaxDabs = 256;
std::vector<BrushStroke> brush_segment(const BrushStroke& from, const BrushStroke& to);

}  // namespace physarum::app
