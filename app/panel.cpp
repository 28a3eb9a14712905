#include "panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/preset.hpp"

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
  ImGui::PushID(label);  // several plots share the hidden "##plot" label
  ImGui::PlotLines("##plot", values.data(), PerfHistory::kHistory, h.head, overlay, 0.0f, peak * 1.1f + 1e-3f,
                   ImVec2(ImGui::GetContentRegionAvail().x, 40));
  ImGui::PopID();
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
  plot("sim ms/frame", core.history, core.history.step);
  plot("draw ms", core.history, core.history.draw);
  plot("panel ms", core.history, core.history.ui);
  plot("frame ms", core.history, core.history.frame);
}

void presets_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  if (!st.presets_scanned) {
    st.presets = list_presets(shipped_preset_dir(), user_preset_dir());
    st.presets_scanned = true;
  }
  ImGui::TextDisabled("current: %s", core.preset_file.empty()
                                         ? "built-in defaults"
                                         : std::filesystem::path(core.preset_file).stem().string().c_str());
  bool load_now = false;
  if (ImGui::BeginListBox("##presets", ImVec2(-1, 7.5f * ImGui::GetTextLineHeightWithSpacing()))) {
    for (int i = 0; i < static_cast<int>(st.presets.size()); ++i) {
      const PresetEntry& e = st.presets[static_cast<size_t>(i)];
      const std::string label = e.name + (e.user ? "  (yours)" : "");
      ImGui::PushID(i);
      if (ImGui::Selectable(label.c_str(), st.preset_selected == i, ImGuiSelectableFlags_AllowDoubleClick)) {
        st.preset_selected = i;
        load_now = ImGui::IsMouseDoubleClicked(0);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.file.c_str());
      ImGui::PopID();
    }
    ImGui::EndListBox();
  }
  const bool have = st.preset_selected >= 0 && st.preset_selected < static_cast<int>(st.presets.size());
  if (!have) ImGui::BeginDisabled();
  load_now |= ImGui::Button("Load (or double-click)");
  if (have && load_now) {
    const PresetEntry& e = st.presets[static_cast<size_t>(st.preset_selected)];
    try {
      const Preset p = load_preset(e.file);  // a broken file throws: nothing changes
      if (core.apply_preset(p, e.file.string())) {
        st.initialised = false;  // the reallocation fields follow the new preset
        toasts.info("loaded preset " + e.name);
      } else {
        toasts.error(core.message);
      }
    } catch (const std::exception& ex) {
      toasts.error(std::string("cannot load preset ") + e.name + ": " + ex.what());
    }
  }
  if (!have) ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Rescan")) st.presets_scanned = false;
  ImGui::InputText("name", st.save_name, sizeof st.save_name);
  if (ImGui::Button("Save current as preset")) {
    try {
      const auto file = save_user_preset(core.preset, user_preset_dir(), st.save_name);
      toasts.info("saved " + file.string());
      core.preset_file = file.string();
      st.presets_scanned = false;
    } catch (const std::exception& ex) {
      toasts.error(std::string("cannot save the preset: ") + ex.what());
    }
  }
  ImGui::TextDisabled("saved in %s", user_preset_dir().c_str());
}

void seed_brush_section(WindowCore& core, PanelState& st) {
  ImGui::TextWrapped("Drop an image file (PNG or JPEG) on the window to seed the field.");
  const char* fits[] = {"fill (cover, crop)", "fit (letterbox)"};
  ImGui::Combo("image fit", &st.image_fit, fits, 2);
  ImGui::SliderFloat("image strength", &core.preset.spawn.field_strength, 0.0f, 50.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::Checkbox("respawn agents from the image", &core.preset.spawn.agents_from_image);
  ImGui::Separator();
  ImGui::SliderFloat("brush radius", &st.brush.radius, 0.5f, 200.0f, "%.1f cells",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("brush strength", &st.brush.strength, 0.01f, 100.0f, "%.2f / frame",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("eraser strength", &st.brush.erase, 0.01f, 1000.0f, "%.2f / frame",
                     ImGuiSliderFlags_Logarithmic);
}

void record_section(PanelState& st) {
  const RecordingStatus& r = st.recording;
  if (!r.active) {
    const char* sources[] = {"field alone (field resolution)", "whole window with panel"};
    ImGui::Combo("source", &st.record_source, sources, 2);
    ImGui::SliderInt("fps", &st.record_fps, 1, 120);
    ImGui::InputTextWithHint("file", "physarum-<date>-<time>.mp4", st.record_path, sizeof st.record_path);
  }
  if (ImGui::Button(r.active ? "Stop recording (F9)" : "Record (F9)")) st.record_toggle = true;
  ImGui::SameLine();
  if (ImGui::Button("Screenshot (F12)")) st.screenshot_request = true;
  if (r.active || r.rec.finished || !r.rec.error.empty()) {
    if (r.active) {
      ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "REC");
      ImGui::SameLine();
    }
    ImGui::TextWrapped("%s", r.file.c_str());
    ImGui::Text("%llu frames written, %llu dropped", static_cast<unsigned long long>(r.rec.written),
                static_cast<unsigned long long>(r.dropped));
    ImGui::Text("%.1f s, %s, %dx%d %s", r.rec.duration_s, format_bytes(r.rec.file_bytes).c_str(),
                r.rec.video_width, r.rec.video_height, r.rec.encoder.c_str());
    if (!r.rec.error.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", r.rec.error.c_str());
  }
}

void help_section() {
  ImGui::BulletText("Space: pause / resume    S: single step");
  ImGui::BulletText("Backspace: reset the simulation");
  ImGui::BulletText("Scroll: zoom at the cursor    Middle drag: pan");
  ImGui::BulletText("R: reset the view    F11: fullscreen    Tab: hide this panel");
  ImGui::BulletText("Left drag: paint pheromone    Right drag: erase");
  ImGui::BulletText("Drop an image on the window: seed the field");
  ImGui::BulletText("F9: start / stop recording    F12: screenshot");
  ImGui::BulletText("Esc: quit");
}

}  // namespace

void draw_panel(WindowCore& core, PanelState& st, Toasts& toasts) {
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
    if (ImGui::CollapsingHeader("Record", ImGuiTreeNodeFlags_DefaultOpen)) record_section(st);
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(core);
    if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) display_section(core);
    if (ImGui::CollapsingHeader("Presets")) presets_section(core, st, toasts);
    if (ImGui::CollapsingHeader("Seed image & brush")) seed_brush_section(core, st);
    if (ImGui::CollapsingHeader("Help")) help_section();
    ImGui::PopItemWidth();
  }
  ImGui::End();
  draw_toasts(toasts);
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
