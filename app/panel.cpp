#include "panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace physarum::app {
namespace {

void simulation_section(WindowCore& core, PanelState& st) {
  Backend& b = core.backend();
  ImGui::Text("Backend: %s", b.name().c_str());
  if (!core.backend_note().empty()) ImGui::TextWrapped("%s", core.backend_note().c_str());
  ImGui::TextWrapped("Field upload: %s", core.renderer().interop_status().c_str());
  ImGui::Text("Field %dx%d, %s agents, step %llu", b.size().width, b.size().height,
              format_count(b.agent_count()).c_str(), static_cast<unsigned long long>(b.steps_done()));

  if (ImGui::Button(core.paused ? "Resume (Space)" : "Pause (Space)")) core.paused = !core.paused;
  ImGui::SameLine();
  if (ImGui::Button("Step (S)")) {
    core.paused = true;
    core.single_step = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset (Backspace)")) core.reset();
  ImGui::SliderInt("steps / frame", &core.steps_per_frame, 1, 64);
  if (ImGui::Checkbox("vsync", &st.vsync)) st.vsync_changed = true;
  ImGui::SameLine();
  if (ImGui::Button("Fullscreen (F11)")) st.fullscreen_request = true;

  if (!ImGui::TreeNode("Size, agents, seed, spawn (reallocates)")) return;
  ImGui::InputInt("width", &st.width, 64, 256);
  ImGui::InputInt("height", &st.height, 64, 256);
  ImGui::InputInt("agents (K)", &st.agents_k, 10, 100);
  ImGui::InputInt("seed", &st.seed);
  const char* modes[] = {"random", "disc", "ring", "point"};
  ImGui::Combo("spawn", &st.spawn_mode, modes, 4);
  st.width = std::clamp(st.width, 8, kMaxSide);
  st.height = std::clamp(st.height, 8, kMaxSide);
  st.agents_k = std::clamp(st.agents_k, 1, 1'000'000);
  st.seed = std::max(st.seed, 0);
  if (ImGui::Button("Apply (reallocates)")) {
    RunParams run;
    run.size = {st.width, st.height};
    run.agents = static_cast<uint64_t>(st.agents_k) * 1000;
    run.seed = static_cast<uint32_t>(st.seed);
    SpawnParams spawn = core.preset.spawn;
    spawn.mode = static_cast<SpawnMode>(st.spawn_mode);
    core.rebuild(run, spawn);
  }
  ImGui::TreePop();
}

void model_section(WindowCore& core) {
  ModelParams m = core.preset.model;
  bool changed = false;
  changed |= ImGui::SliderFloat("sensor angle", &m.sensor_angle_deg, 0.0f, 180.0f, "%.1f deg");
  changed |= ImGui::SliderFloat("rotation angle", &m.rotation_angle_deg, 0.0f, 180.0f, "%.1f deg");
  changed |= ImGui::SliderFloat("sensor distance", &m.sensor_distance, 0.0f, 64.0f, "%.2f cells");
  changed |= ImGui::SliderFloat("step size", &m.step_size, 0.0f, 16.0f, "%.2f cells");
  changed |= ImGui::SliderFloat("deposit", &m.deposit, 0.0f, 20.0f, "%.3f");
  changed |= ImGui::SliderFloat("decay", &m.decay, 0.0f, 1.0f, "%.4f", ImGuiSliderFlags_Logarithmic);
  changed |= ImGui::SliderFloat("diffuse", &m.diffuse, 0.0f, 1.0f, "%.3f");
  changed |= ImGui::SliderFloat("jitter", &m.jitter, 0.0f, 3.14159f, "%.3f rad");
  int rule = m.turn_rule == TurnRule::Jones ? 1 : 0;
  const char* rules[] = {"simple", "jones"};
  if (ImGui::Combo("turn rule", &rule, rules, 2)) {
    m.turn_rule = rule == 1 ? TurnRule::Jones : TurnRule::Simple;
    changed = true;
  }
  if (changed) core.apply_model(m);
}

void palette_swatch(const render::Palette& p, float width, float height) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const int n = render::kLutSize;
  for (int i = 0; i < n; ++i) {
    const float x0 = at.x + width * static_cast<float>(i) / n;
    const float x1 = at.x + width * static_cast<float>(i + 1) / n;
    const ImU32 c = IM_COL32(p.lut[i * 4], p.lut[i * 4 + 1], p.lut[i * 4 + 2], 255);
    dl->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1 + 0.5f, at.y + height), c);
  }
  ImGui::Dummy(ImVec2(width, height));
}

void display_section(WindowCore& core) {
  DisplayParams& d = core.preset.display;
  const auto& pals = core.palettes.palettes;
  if (ImGui::BeginCombo("palette", pals[core.palette_index].name.c_str())) {
    for (size_t i = 0; i < pals.size(); ++i) {
      const bool selected = i == core.palette_index;
      std::string label = pals[i].name + (pals[i].discrete ? "  (discrete)" : "");
      if (ImGui::Selectable(label.c_str(), selected)) core.select_palette(i);
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  palette_swatch(pals[core.palette_index], ImGui::CalcItemWidth(), ImGui::GetFrameHeight());
  if (ImGui::Button("Reload palettes")) core.reload_palettes();
  for (const auto& e : core.palettes.errors) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", e.c_str());

  int mapping = d.mapping == Mapping::Log ? 1 : 0;
  const char* mappings[] = {"linear", "log"};
  if (ImGui::Combo("mapping", &mapping, mappings, 2)) d.mapping = mapping ? Mapping::Log : Mapping::Linear;
  ImGui::SliderFloat("exposure", &d.exposure, 0.01f, 100.0f, "%.3f", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("gamma", &d.gamma, 0.2f, 5.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  ImGui::Checkbox("auto range", &d.auto_range);
  ImGui::SameLine();
  ImGui::Checkbox("invert", &d.invert);

  int cave = static_cast<int>(d.cave);
  const char* caves[] = {"off (palette)", "levels, even", "levels, quantile", "binary walls/floor"};
  if (ImGui::Combo("cave map", &cave, caves, 4)) d.cave = static_cast<CaveMode>(cave);
  if (d.cave == CaveMode::Even || d.cave == CaveMode::Quantile) ImGui::SliderInt("levels", &d.levels, 2, 16);
  if (d.cave == CaveMode::Binary) {
    ImGui::SliderFloat("floor threshold", &d.threshold, 0.0f, 1.0f, "%.3f");
    ImGui::SliderInt("smoothing passes", &d.smoothing, 0, 8);
  }
  if (ImGui::Button("Reset view (R)")) core.view.reset();
  ImGui::SameLine();
  ImGui::Text("zoom %.2fx", static_cast<double>(core.view.zoom));
}

void plot(const char* label, const PerfHistory& h, const std::array<float, PerfHistory::kHistory>& values) {
  float peak = 0;
  for (float v : values) peak = std::max(peak, v);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s (max %.2f ms)", label, static_cast<double>(peak));
  ImGui::PlotLines("##plot", values.data(), PerfHistory::kHistory, h.head, overlay, 0.0f, peak * 1.1f + 1e-3f,
                   ImVec2(ImGui::GetContentRegionAvail().x, 40));
}

void performance_section(WindowCore& core, const PanelState& st) {
  const StageTimings t = core.backend().timings();
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::Text("%.1f FPS (%.2f ms/frame)", static_cast<double>(io.Framerate),
              1000.0 / std::max(1e-3, static_cast<double>(io.Framerate)));
  ImGui::Text("%.3g agent-steps/s", core.agent_steps_per_s);
  // Fixed-width text lines: the numbers stay in one column while they change.
  auto row = [](const char* name, double ms) { ImGui::Text("%-22s %9.3f ms", name, ms); };
  ImGui::TextDisabled("per simulation step:");
  row("agents (sense+move)", t.agents_ms);
  row("field (blur+decay)", t.field_ms);
  if (t.sort_ms > 0) row("sort (amortised)", t.sort_ms);
  row("whole step", t.step_ms);
  ImGui::TextDisabled("per frame:");
  row("sim (wall clock)", core.sim_ms);
  row("publish field", t.publish_ms);
  row("draw (GL timer)", core.renderer().draw_ms());
  row("panel (CPU)", static_cast<double>(st.ui_ms));
  ImGui::PushID("step");
  plot("sim ms/frame", core.history, core.history.step);
  ImGui::PopID();
  ImGui::PushID("draw");
  plot("draw ms", core.history, core.history.draw);
  ImGui::PopID();
  ImGui::PushID("ui");
  plot("panel ms", core.history, core.history.ui);
  ImGui::PopID();
  ImGui::PushID("frame");
  plot("frame ms", core.history, core.history.frame);
  ImGui::PopID();
}

void help_section() {
  ImGui::BulletText("Space: pause / resume    S: single step");
  ImGui::BulletText("Backspace: reset the simulation");
  ImGui::BulletText("Scroll: zoom at the cursor    Middle drag: pan");
  ImGui::BulletText("R: reset the view    F11: fullscreen    Tab: hide this panel");
  ImGui::BulletText("Left drag: paint pheromone    Right drag: erase");
  ImGui::BulletText("Esc: quit");
}

}  // namespace

void draw_panel(WindowCore& core, PanelState& st) {
  if (!st.initialised) {
    st.width = core.preset.run.size.width;
    st.height = core.preset.run.size.height;
    st.agents_k = static_cast<int>(std::max<uint64_t>(1, core.preset.run.agents / 1000));
    st.seed = static_cast<int>(core.preset.run.seed & 0x7fffffff);
    st.spawn_mode = static_cast<int>(core.preset.spawn.mode);
    st.initialised = true;
  }
  if (!st.visible) return;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.88f);
  if (ImGui::Begin("physarum")) {
    if (!core.message.empty()) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", core.message.c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) core.message.clear();
    }
    ImGui::PushItemWidth(-140);
    if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) simulation_section(core, st);
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(core);
    if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) display_section(core);
    if (ImGui::CollapsingHeader("Help")) help_section();
    ImGui::PopItemWidth();
  }
  ImGui::End();
  // Performance in its own window at the top right: it is watched while the sliders move.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + 10),
                          ImGuiCond_FirstUseEver, ImVec2(1, 0));
  ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Performance")) performance_section(core, st);
  ImGui::End();
}

}  // namespace physarum::app
