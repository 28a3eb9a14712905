#include "render/environment_overlay.hpp"

#include <algorithm>
#include <cmath>

namespace physarum::render {
namespace {

uint8_t to_byte(float v) {
  return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

}  // namespace

void colour_components(uint32_t rgb, float out[3]) {
  out[0] = static_cast<float>((rgb >> 16) & 0xffU) / 255.0f;
  out[1] = static_cast<float>((rgb >> 8) & 0xffU) / 255.0f;
  out[2] = static_cast<float>(rgb & 0xffU) / 255.0f;
}

void overlay_environment(std::vector<uint8_t>& rgba, Size size, const std::vector<float>& food,
                         const std::vector<uint8_t>& walls, const DisplayParams& d) {
  const size_t cells = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  if (rgba.size() < cells * 4) return;
  const bool show_walls = d.show_walls && walls.size() == cells;
  const bool show_food = d.show_food && food.size() == cells;
  float wall[3], tint[3];
  colour_components(d.walls_colour, wall);
  colour_components(d.food_colour, tint);
  for (size_t i = 0; i < cells; ++i) {
    uint8_t* px = &rgba[i * 4];
    if (show_walls && walls[i] != 0) {
      for (int k = 0; k < 3; ++k) px[k] = to_byte(wall[k]);
      px[3] = 255;
    } else if (show_food && food[i] > 0.0f) {
      const float w = kFoodTint * std::min(food[i], 1.0f);
      for (int k = 0; k < 3; ++k)
        px[k] = to_byte(static_cast<float>(px[k]) / 255.0f * (1.0f - w) + tint[k] * w);
      px[3] = std::max(px[3], to_byte(w));
    }
  }
}

}  // namespace physarum::render
