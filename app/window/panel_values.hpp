// The range of every value the panel edits, and the one function that makes a typed value safe.
// Dear ImGui lets Ctrl+click type any number into a slider; ImGuiSliderFlags_AlwaysClamp pulls
// it back into the slider's range, but NaN passes its comparisons, and input boxes have no range
// at all. So each widget edits a copy and hands the result to settle(), which the tests drive
// with the same limits. The model then goes through sim's own validation (apply_model_edit).
#pragma once

#include <array>
#include <climits>
#include <string>

#include "render/colormap.hpp"
#include "sim/params.hpp"

namespace physarum::app {

class Toasts;
class WindowCore;

struct FloatLimit {
  const char* name;  // also the widget's label
  float lo, hi;
};
struct IntLimit {
  const char* name;
  int lo, hi;
};

namespace limits {
// Simulation.
inline constexpr IntLimit kStepsPerFrame{"steps / frame", 1, 64};
inline constexpr IntLimit kWidth{"width", 8, kMaxSide};
inline constexpr IntLimit kHeight{"height", 8, kMaxSide};
inline constexpr IntLimit kAgentsK{"agents (K)", 1, 1'000'000};
inline constexpr IntLimit kSeed{"seed", 0, INT_MAX};
// Model (each inside the range sim's validate(ModelParams) allows).
inline constexpr FloatLimit kSensorAngle{"sensor angle", 0.0f, 180.0f};
inline constexpr FloatLimit kRotationAngle{"rotation angle", 0.0f, 180.0f};
inline constexpr FloatLimit kSensorDistance{"sensor distance", 0.0f, 64.0f};
inline constexpr FloatLimit kStepSize{"step size", 0.0f, 16.0f};
inline constexpr FloatLimit kDeposit{"deposit", 0.0f, 20.0f};
inline constexpr FloatLimit kDecay{"decay", 0.0f, 1.0f};
inline constexpr FloatLimit kDiffuse{"diffuse", 0.0f, 1.0f};
inline constexpr FloatLimit kJitter{"jitter", 0.0f, 3.14159f};
inline constexpr FloatLimit kInteraction{"interaction", -10.0f, 10.0f};  // one entry of W
// Display (inside what the renderer draws, render::drawable_display).
inline constexpr FloatLimit kExposure{"exposure", 0.01f, 100.0f};
inline constexpr FloatLimit kGamma{"gamma", 0.2f, 5.0f};
inline constexpr IntLimit kLevels{"levels", render::kMinLevels, render::kMaxLevels};
inline constexpr FloatLimit kThreshold{"floor threshold", 0.0f, 1.0f};
inline constexpr IntLimit kSmoothing{"smoothing passes", 0, render::kMaxSmoothing};
// Seed image and brush.
inline constexpr FloatLimit kImageStrength{"image strength", 0.0f, 50.0f};
inline constexpr FloatLimit kBrushRadius{"brush radius", 0.5f, 200.0f};
inline constexpr FloatLimit kBrushStrength{"brush strength", 0.01f, 100.0f};
inline constexpr FloatLimit kEraserStrength{"eraser strength", 0.01f, 1000.0f};
inline constexpr FloatLimit kBrushFood{"food", 0.01f, 10.0f};
// Recording.
inline constexpr IntLimit kRecordFps{"fps", 1, 120};

// Every limit above, for the tests that drive each one with hostile values.
inline constexpr std::array kAllFloat{
    kSensorAngle,   kRotationAngle, kSensorDistance, kStepSize,       kDeposit,  kDecay,
    kDiffuse,       kJitter,        kInteraction,    kExposure,       kGamma,    kThreshold,
    kImageStrength, kBrushRadius,   kBrushStrength,  kEraserStrength, kBrushFood};
inline constexpr std::array kAllInt{kStepsPerFrame, kWidth,  kHeight,    kAgentsK,
                                    kSeed,          kLevels, kSmoothing, kRecordFps};
}  // namespace limits

// Stores `typed` into `value`, clamped into the limit (infinities go to its ends). NaN is
// refused: `value` keeps what it had and `refusal` (when given) says why. Returns whether
// `value` changed.
bool settle(float typed, float& value, const FloatLimit& limit, std::string* refusal = nullptr);
bool settle(int typed, int& value, const IntLimit& limit);

// A model edited in the panel: applied live through the backend, whose validation (sim's
// validate) is the last word; a refusal becomes an error toast and changes nothing. Never throws.
bool apply_model_edit(WindowCore& core, const ModelParams& edited, Toasts& toasts);
// Several species edited in the panel (a species' parameters or colour, an entry of W): applied
// live through the backend in the same way; a refusal is a toast and changes nothing.
bool apply_species_edit(WindowCore& core, const SpeciesSet& edited, Toasts& toasts);

}  // namespace physarum::app
