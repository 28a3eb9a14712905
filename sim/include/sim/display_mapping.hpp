// The display's mapping: a linear position x >= 0 (a value after the range and the exposure) to the
// mapped scale, linear or log,
//   t = log(1 + kLogScale x) / log(1 + kLogScale),
// with its inverse. The one statement of the curve, GL-free, for the renderers' CPU colouring and
// cave levels (render/colormap.hpp) and the exporters' heights, bands and contour levels;
// shaders/range.glsl restates it in GLSL, and a test holds its constant to kLogScale.
#pragma once

#include <cmath>

#include "sim/params.hpp"

namespace physarum {

inline constexpr float kLogScale = 1000.0f;

// In float, in the operations of shaders/range.glsl (times 1 / log(1 + kLogScale)): the renderers,
// and the exporters that must place a level where the window does (bands).
inline const float kInvLogDenominator = 1.0f / std::log(1.0f + kLogScale);
inline float apply_mapping(float x, Mapping m) {
  return m == Mapping::Log ? std::log(1.0f + kLogScale * x) * kInvLogDenominator : x;
}
inline float invert_mapping(float t, Mapping m) {  // the inverse of apply_mapping on [0, 1]
  return m == Mapping::Log ? (std::exp(t / kInvLogDenominator) - 1.0f) / kLogScale : t;
}

// In double, for the exporters that keep more than a float holds (16-bit heights, contour levels).
inline double apply_mapping(double x, Mapping m) {
  constexpr double k = kLogScale;
  return m == Mapping::Log ? std::log1p(k * x) / std::log1p(k) : x;
}
inline double invert_mapping(double t, Mapping m) {
  constexpr double k = kLogScale;
  return m == Mapping::Log ? std::expm1(t * std::log1p(k)) / k : t;
}

}  // namespace physarum
