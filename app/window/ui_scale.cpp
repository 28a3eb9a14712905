#include "window/ui_scale.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace physarum::app {

float monitor_ui_scale(float content_scale, int width_px, int width_mm) {
  constexpr float kMaxAuto = 3.0f;
  if (content_scale > 1.0f && std::isfinite(content_scale)) return std::min(content_scale, kMaxAuto);
  if (width_px <= 0 || width_mm < 100) return 1.0f;
  const float dpi = static_cast<float>(width_px) * 25.4f / static_cast<float>(width_mm);
  if (dpi < 72.0f || dpi > 600.0f) return 1.0f;
  return std::clamp(std::floor(dpi / 96.0f * 4.0f) / 4.0f, 1.0f, kMaxAuto);
}

float chosen_ui_scale(float asked, float saved, float automatic) {
  if (asked > 0) return asked;
  if (saved > 0) return saved;
  return automatic > 0 ? automatic : 1.0f;
}

std::string scale_text(float scale) {
  char text[32];
  std::snprintf(text, sizeof text, "%gx", static_cast<double>(scale));
  return text;
}

void apply_ui_scale(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig font;
  font.SizePixels = kBaseFontSize * scale;
  font.OversampleH = font.OversampleV = 1;  // as ImGui's default font: a pixel font, snapped
  font.PixelSnapH = true;
  io.Fonts->AddFontDefault(&font);
  io.Fonts->Build();
  io.FontGlobalScale = 1.0f;
  ImGuiStyle style;  // the default sizes, so a new scale replaces the last one instead of compounding
  ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

float ui_scale() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.Fonts->Fonts.empty()) return io.FontGlobalScale;
  return io.Fonts->Fonts[0]->FontSize / kBaseFontSize * io.FontGlobalScale;
}

}  // namespace physarum::app
