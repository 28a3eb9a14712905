// The environment overlays (docs/MODEL.md, "Environment") on the host: the mirror of
// shaders/environment_overlay.glsl, for tests and for pictures made without OpenGL. Walls are drawn in
// display.walls_colour, opaque; a food cell's colour moves toward display.food_colour by
// kFoodTint * min(E, 1) (E = 1, a white pixel of a food image, is the full tint).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/params.hpp"

namespace physarum::render {

inline constexpr float kFoodTint = 0.7f;

// The display colour 0xRRGGBB as three floats in [0, 1].
void colour_components(uint32_t rgb, float out[3]);

// Overlays one field-sized RGBA8 image (one pixel per cell, rows top to bottom), as the shader does
// with display `d`. `food` (W x H values of E) and `walls` (W x H, non-zero = wall) may be empty: none.
void overlay_environment(std::vector<uint8_t>& rgba, Size size, const std::vector<float>& food,
                         const std::vector<uint8_t>& walls, const DisplayParams& d);

}  // namespace physarum::render
