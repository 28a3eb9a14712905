#include "window/brush.hpp"

#include <algorithm>
#include <cmath>

namespace physarum::app {

std::optional<BrushStroke> brush_stroke_at(const render::View& view, float px, float py,
                                           const render::Area& area, Size field, const BrushSettings& brush,
                                           bool erase) {
  if (!area.contains(px, py)) return std::nullopt;  // zoomed in, the field reaches under the panel
  float fx = 0, fy = 0;
  view.to_field(px, py, area, field, fx, fy);
  if (!(fx >= 0 && fy >= 0 && fx < static_cast<float>(field.width) &&
        fy < static_cast<float>(field.height))) {
    return std::nullopt;
  }
  // The settings may hold anything typed into the panel; the backends refuse a radius that is
  // negative, not finite or beyond the field's longer side (it would cover the field anyway), and
  // an amount that is not finite. Such values are clamped here, NaN falls back to the default.
  const BrushSettings defaults;
  const float longest = static_cast<float>(std::max(field.width, field.height));
  const auto finite_in = [](float v, float lo, float hi, float fallback) {
    if (std::isnan(v)) return fallback;
    return std::clamp(v, lo, hi);
  };
  const float radius = finite_in(brush.radius, 0.0f, longest, std::min(defaults.radius, longest));
  const float amount = erase ? -finite_in(brush.erase, 0.0f, kMaxBrushAmount, defaults.erase)
                             : finite_in(brush.strength, 0.0f, kMaxBrushAmount, defaults.strength);
  const int channel = brush.channel >= 0 && brush.channel < kMaxSpecies ? brush.channel : kAllChannels;
  BrushStroke stroke{fx, fy, radius, amount, channel, BrushMode::Trail};
  switch (brush.mode) {
    case BrushMode::Trail: break;
    case BrushMode::Food:
      stroke.mode = BrushMode::Food;
      stroke.channel = kAllChannels;
      // The right button clears the food under the brush: E = max(0, E - kMaxFood) = 0.
      stroke.amount = erase ? -kMaxFood : finite_in(brush.food, 0.0f, kMaxFood, defaults.food);
      break;
    case BrushMode::Wall:
    case BrushMode::EraseWall:
      stroke.mode = (brush.mode == BrushMode::Wall) != erase ? BrushMode::Wall : BrushMode::EraseWall;
      stroke.channel = kAllChannels;
      stroke.amount = 0.0f;
      break;
  }
  return stroke;
}

const char* brush_mode_name(BrushMode m) {
  switch (m) {
    case BrushMode::Trail: return "trail";
    case BrushMode::Food: return "food";
    case BrushMode::Wall: return "wall";
    case BrushMode::EraseWall: return "erase wall";
  }
  return "?";
}

std::vector<BrushStroke> brush_segment(const BrushStroke& from, const BrushStroke& to) {
  const float dx = to.x - from.x, dy = to.y - from.y;
  const float spacing = std::max(0.5f, 0.5f * to.radius);
  const int dabs = std::clamp(static_cast<int>(std::ceil(std::hypot(dx, dy) / spacing)), 1, kMaxDabs);
  std::vector<BrushStroke> out;
  out.reserve(static_cast<size_t>(dabs));
  for (int i = 1; i <= dabs; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(dabs);
    BrushStroke dab = to;
    dab.x = from.x + t * dx;
    dab.y = from.y + t * dy;
    out.push_back(dab);
  }
  return out;
}

}  // namespace physarum::app
