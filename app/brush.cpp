#include "brush.hpp"

namespace physarum::app {

std::optional<BrushStroke> brush_stroke_at(const render::View& view, float px, float py, int fb_w, int fb_h,
                                           Size field, const BrushSettings& brush, bool erase) {
  float fx = 0, fy = 0;
  view.to_field(px, py, fb_w, fb_h, field, fx, fy);
  if (!(fx >= 0 && fy >= 0 && fx < static_cast<float>(field.width) &&
        fy < static_cast<float>(field.height))) {
    return std::nullopt;
  }
  return BrushStroke{fx, fy, brush.radius, erase ? -brush.erase : brush.strength};
}

}  // namespace physarum::app
