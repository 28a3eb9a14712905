// The size of the window's text and widgets, the UI scale: from the monitor by default (a 4K
// screen or a laptop gets larger text), from --ui-scale or the panel's choice (kept in the layout
// file, window/layout.hpp) when asked. Fonts are built at the scale, not magnified: they stay sharp.
#pragma once

#include <string>

namespace physarum::app {

inline constexpr float kMinUiScale = 0.5f;
inline constexpr float kMaxUiScale = 4.0f;
inline constexpr float kBaseFontSize = 13.0f;  // ImGui's own font at scale 1, in pixels

// The scale a monitor asks for: its content scale (the desktop's setting: Xft.dpi on X11, the
// Wayland or Windows scale) when above 1; else, when it tells its physical width, its pixel density
// over 96 dpi rounded down to a quarter (a 27" 4K screen: 1.5, a 15" 4K laptop: 2.75), for a desktop
// that sets no scale; 1 when neither says more. A density under 72 or over 600 dpi, or a width under
// 100 mm, is a monitor misreporting its size and is not believed. At most 3.
float monitor_ui_scale(float content_scale, int width_px, int width_mm);

// The scale the window uses: `asked` (--ui-scale) when above 0, else `saved` (the panel's choice)
// when above 0, else `automatic`.
float chosen_ui_scale(float asked, float saved, float automatic);

// "1.5x".
std::string scale_text(float scale);

// Between ImGui frames: ImGui's font built at kBaseFontSize * scale and the dark style's sizes
// (padding, spacing, rounding) times `scale`, replacing the last scale's. The renderer's copy of the
// font texture is then out of date: the window remakes it (ImGui_ImplOpenGL3_CreateFontsTexture).
void apply_ui_scale(float scale);

// The scale of the current ImGui context: 1 until apply_ui_scale.
float ui_scale();

// `v` screen units at scale 1, at the current scale: for sizes the code gives (widths of boxes,
// plots, windows), which ImGui's style does not scale.
inline float px(float v) {
  return v * ui_scale();
}

}  // namespace physarum::app
