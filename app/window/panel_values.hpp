// The range of every value the panel edits, and the one function that makes a typed value safe.
// Dear ImGui lets Ctrl+click type any number into a slider; ImGuiSliderFlags_AlwaysClamp pulls
// it back into the slider's range, but NaN passes its comparisons, and input boxes have no range
// at all. So each widget edits a copy and hands the result to settle(), which the tests drive
// with the same limits. The model then goes through sim's own validation (apply_model_edit).
#pragma once

#include <array>
#include <climits>
#include <string>
#include <string_view>
#include <vector>

#include "render/colormap.hpp"
#include "sim/params.hpp"
#include "sim/registry.hpp"

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
inline constexpr IntLimit kDepth{"depth", 8, kMaxSide};  // a volume's
inline constexpr IntLimit kTurntableSteps{"turntable steps", 1, 1'000'000};
inline constexpr IntLimit kAgentsK{"agents (K)", 1, 1'000'000};
inline constexpr IntLimit kDetail{"detail", 1, kMaxScale};
inline constexpr IntLimit kSeed{"seed", 0, INT_MAX};
// The panel's ranges of the parameters (model, display, spawn.field_strength) come from the
// registry (sim/registry.hpp): slider_limit() below.
// Seed image and brush.
inline constexpr FloatLimit kBrushRadius{"brush radius", 0.5f, 200.0f};
inline constexpr FloatLimit kBrushStrength{"brush strength", 0.01f, 100.0f};
inline constexpr FloatLimit kEraserStrength{"eraser strength", 0.01f, 1000.0f};
inline constexpr FloatLimit kBrushFood{"food", 0.01f, 10.0f};
// Recording.
inline constexpr IntLimit kRecordFps{"fps", 1, 120};

// Every limit above, for the tests that drive each one with hostile values.
inline constexpr std::array kAllFloat{kBrushRadius, kBrushStrength, kEraserStrength, kBrushFood};
inline constexpr std::array kAllInt{kStepsPerFrame, kWidth,  kHeight, kDepth,    kTurntableSteps,
                                    kAgentsK,       kDetail, kSeed,   kRecordFps};
}  // namespace limits

// "sensor_angle_deg" -> "sensor angle": a registry key in words, for labels.
std::string label_of(const registry::Param& p);

// A registry parameter's slider (its ui range; its label is the key in words: "sensor angle").
// Float and Int parameters with a ui range only; the objects live as long as the program.
const FloatLimit& slider_limit(const registry::Param& p);
const IntLimit& int_slider_limit(const registry::Param& p);
// The same by table and key: slider_limit(registry::Section::Model, "decay").
const FloatLimit& slider_limit(registry::Section s, std::string_view name);
const IntLimit& int_slider_limit(registry::Section s, std::string_view name);
// Every registry parameter with a slider, for the tests that drive each with hostile values.
std::vector<FloatLimit> registry_float_limits();

// Stores `typed` into `value`, clamped into the limit (infinities go to its ends). NaN is
// refused: `value` keeps what it had and `refusal` (when given) says why. Returns whether
// `value` changed.
bool settle(float typed, float& value, const FloatLimit& limit, std::string* refusal = nullptr);
bool settle(int typed, int& value, const IntLimit& limit);

// A 0xRRGGBB colour edited in place with ImGui's colour button; true when it changed.
bool colour_edit(const char* label, uint32_t& rgb);

// A model edited in the panel: applied live through the backend, whose validation (sim's
// validate) is the last word; a refusal becomes an error toast and changes nothing. Never throws.
bool apply_model_edit(WindowCore& core, const ModelParams& edited, Toasts& toasts);
// Several species edited in the panel (a species' parameters or colour, an entry of W): applied
// live through the backend in the same way; a refusal is a toast and changes nothing.
bool apply_species_edit(WindowCore& core, const SpeciesSet& edited, Toasts& toasts);

}  // namespace physarum::app
