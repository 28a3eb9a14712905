#include "window/twin_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "window/panel_words.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {

std::vector<float> log10_distances(const std::vector<sensitivity::Record>& records, float floor) {
  std::vector<float> out;
  out.reserve(records.size());
  for (const auto& r : records)
    out.push_back(r.field_distance > 0 ? static_cast<float>(std::log10(r.field_distance)) : floor);
  return out;
}

std::string growth_words(double lambda) {
  char text[128];
  if (lambda > 0 && std::isfinite(lambda)) {
    std::snprintf(text, sizeof text, "the difference doubles every %.3g steps (lambda = %.3g per step)",
                  std::log(2.0) / lambda, lambda);
  } else if (std::isfinite(lambda)) {
    std::snprintf(text, sizeof text, "the difference is not growing (lambda = %.3g per step)", lambda);
  } else {
    std::snprintf(text, sizeof text, "the difference is not growing");
  }
  return text;
}

namespace {

void distance_plots(const TwinRun& t) {
  const auto& recs = t.records();
  if (recs.empty()) return;
  // The floor sits a decade under the smallest nonzero distance (or at -8): zeros lie on it.
  double smallest = 1.0;
  for (const auto& r : recs)
    if (r.field_distance > 0) smallest = std::min(smallest, r.field_distance);
  const float floor = std::min(-8.0f, static_cast<float>(std::floor(std::log10(smallest))) - 1.0f);
  const std::vector<float> logd = log10_distances(recs, floor);
  const float width = ImGui::GetContentRegionAvail().x;
  char overlay[96];
  const auto& last = recs.back();
  std::snprintf(overlay, sizeof overlay, "d = %.3g at step %lld", last.field_distance,
                static_cast<long long>(last.step));
  ImGui::PlotLines("##logd", logd.data(), static_cast<int>(logd.size()), 0, overlay, floor, 0.5f,
                   ImVec2(width, px(90)));
  ImGui::TextDisabled("log10 distance of the fields (%.0f: equal)", static_cast<double>(floor));
  std::vector<float> frac;
  frac.reserve(recs.size());
  float top = 1e-3f;  // the axis follows the fraction up (a few agents in thousands would not show on 0..1)
  for (const auto& r : recs) {
    frac.push_back(static_cast<float>(r.agent_fraction));
    top = std::max(top, 1.1f * frac.back());
  }
  std::snprintf(overlay, sizeof overlay, "%.2f%% of agents in other cells", 100.0 * last.agent_fraction);
  ImGui::PlotLines("##agents", frac.data(), static_cast<int>(frac.size()), 0, overlay, 0.0f,
                   std::min(top, 1.0f), ImVec2(width, px(50)));
  const sensitivity::LyapunovFit& f = t.fit();
  if (f.ok) {
    text_wrapped(growth_words(f.lambda));  // never "0." and "0244" on two lines
    ImGui::TextDisabled("fitted over steps %lld to %lld (%d points)", static_cast<long long>(f.from_step),
                        static_cast<long long>(f.to_step), f.points);
    if (f.saturation_step >= 0)
      ImGui::Text("saturated (start forgotten) after %lld steps", static_cast<long long>(f.saturation_step));
  } else {
    ImGui::TextDisabled("lambda: %s", f.why.empty() ? "not yet" : f.why.c_str());
  }
}

void twin_section(WindowCore& core, TwinPanelState& st, Toasts& toasts) {
  TwinRun& t = core.twin;
  ImGui::TextWrapped(
      "A second run B starts from this moment, perturbed once, and follows every step, parameter change "
      "and brush stroke of A: watch a tiny difference grow.");
  ImGui::InputText("perturbation", st.spec, sizeof st.spec);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "agent:ID:theta|x|y:EPS, field:X,Y:EPS or KEY:REL_EPS (as physarum sensitivity --perturb)");
  if (ImGui::Button(t.active() ? "Restart twin" : "Start twin")) {
    if (const CommandResult r = core.start_twin(st.spec); r) {
      toasts.info("twin started: " + t.perturbation().text);
    } else {
      toasts.error(r.error());
    }
  }
  if (t.active()) {
    ImGui::SameLine();
    if (ImGui::Button("Stop twin")) t.stop();
  }
  if (!t.active()) {
    if (!t.stopped_why().empty()) ImGui::TextDisabled("%s", t.stopped_why().c_str());
    return;
  }
  int display = static_cast<int>(t.display);
  ImGui::RadioButton("A", &display, 0);
  ImGui::SameLine();
  ImGui::RadioButton("A - B", &display, 1);
  ImGui::SameLine();
  ImGui::RadioButton("|A - B|", &display, 2);
  t.display = static_cast<TwinDisplay>(std::clamp(display, 0, 2));
  if (t.display != TwinDisplay::A) {
    ImGui::SliderFloat("contrast", &t.gain, 1.0f, 1000.0f, "%.0fx",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    ImGui::TextDisabled("red: A > B, blue: B > A; full colour at %.3g", t.max_abs_difference() / t.gain);
  }
  ImGui::SliderInt("measure every", &t.every, 1, 600, "%d frames", ImGuiSliderFlags_AlwaysClamp);
  ImGui::Text("%s, delta %.3g, %zu records", t.perturbation().text.c_str(), t.delta(), t.records().size());
  const std::string note = t.counter_note();
  if (!note.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", note.c_str());
}

}  // namespace

void twin_panel(WindowCore& core, TwinPanelState& st, Toasts& toasts) {
  if (core.twin.active()) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Twin (butterfly effect)")) twin_section(core, st, toasts);
  if (!core.twin.active()) return;
  // The plots in a window of their own, above the explore strip: watched while the field changes.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + vp->WorkSize.y - 110),
                          ImGuiCond_FirstUseEver, ImVec2(1, 1));
  ImGui::SetNextWindowSize(ImVec2(px(360), 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Twin distance")) distance_plots(core.twin);
  ImGui::End();
}

}  // namespace physarum::app
