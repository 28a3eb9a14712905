#include "window/performance_window.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "window/layout.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {
namespace {

// The window sizes itself to its rows, which come and go (a stage that did not run has none); the
// plots give it its width.
constexpr float kPlotWidth = 330.0f;

void plot(const char* label, const PerfHistory& h, const std::array<float, PerfHistory::kHistory>& values) {
  float peak = 0;
  for (float v : values) peak = std::max(peak, v);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s (up to %.2f ms)", label, static_cast<double>(peak));
  ImGui::PushID(label);  // several plots share the hidden "##plot" label
  ImGui::PlotLines("##plot", values.data(), PerfHistory::kHistory, h.head, overlay, 0.0f, peak * 1.1f + 1e-3f,
                   ImVec2(px(kPlotWidth), px(40)));
  ImGui::PopID();
}

// One row: the name, and the time in a column that stays put while the numbers change.
void row(const char* name, double ms) {
  const std::string t = timing_text(ms);
  if (!t.empty()) ImGui::Text("  %-24s %12s", name, t.c_str());
}

void contents(WindowCore& core, float ui_ms) {
  const StageTimings t = core.stage_timings();
  const double fps = static_cast<double>(ImGui::GetIO().Framerate);
  ImGui::Text("%.1f frames per second (%.1f ms a frame)", fps, 1000.0 / std::max(1e-3, fps));
  ImGui::Text("%s agent moves per second", rate_text(core.agent_steps_per_s).c_str());
  ImGui::TextDisabled("each simulation step:");
  if (t.samples == 0) ImGui::TextDisabled("  not measured yet");
  row("agents sense and move", t.agents_ms);
  row("trails spread and fade", t.field_ms);
  row("agents sorted (average)", t.sort_ms);
  row("the whole step", t.step_ms);
  ImGui::TextDisabled("each frame:");
  if (core.paused()) {
    ImGui::Text("  %-24s %12s", "simulation", "paused");
  } else {
    row("simulation", core.sim_ms);
  }
  row("field handed to drawing", t.publish_ms);
  row(core.is_volume() ? "drawing the volume (GPU)" : "drawing the field", core.draw_ms());
  if (core.is_volume()) {
    const render::VolumeRenderer::StageMs v = core.volume_stage_ms();
    row("  display range", v.range);
    row("  bricks to skip", v.bricks);
    row("  rays marched", v.march);
  }
  row("panel", static_cast<double>(ui_ms));
  plot("simulation ms", core.history, core.history.step);
  plot("drawing ms", core.history, core.history.draw);
  plot("panel ms", core.history, core.history.ui);
  plot("whole frame ms", core.history, core.history.frame);
}

}  // namespace

std::string timing_text(double ms) {
  if (!(ms > 0.0) || !std::isfinite(ms)) return {};
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

std::string rate_text(double per_second) {
  char text[48];
  if (!(per_second > 0.0) || !std::isfinite(per_second)) return "no";
  if (per_second >= 1e9) {
    std::snprintf(text, sizeof text, "%.3g billion", per_second / 1e9);
  } else if (per_second >= 1e6) {
    std::snprintf(text, sizeof text, "%.3g million", per_second / 1e6);
  } else if (per_second >= 1e3) {
    std::snprintf(text, sizeof text, "%.3g thousand", per_second / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.0f", per_second);
  }
  return text;
}

void performance_window(WindowCore& core, float ui_ms, bool& open) {
  // At the top right of what the panel leaves: watched while the sliders move.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  place_over_field("Performance", ImVec2(vp->WorkPos.x + vp->WorkSize.x - px(10), vp->WorkPos.y + px(10)),
                   ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Performance", &open, ImGuiWindowFlags_AlwaysAutoResize)) contents(core, ui_ms);
  ImGui::End();
}

}  // namespace physarum::app
