#include "window/panel.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ErrorCheckEndFrameRecover

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <iterator>
#include <string>

#include "render/environment_overlay.hpp"
#include "run/area_fit.hpp"
#include "sim/byte_size.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "window/cpu_fit_note.hpp"
#include "window/layout.hpp"
#include "window/orbit_input.hpp"
#include "window/panel_values.hpp"
#include "window/panel_words.hpp"
#include "window/performance_window.hpp"
#include "window/species_panel.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {
namespace {

// Every widget works on a copy and hands the result to settle() (panel_values.hpp): ImGui's
// AlwaysClamp catches a typed value past the range, settle() the NaN that slips through it.
bool slider(float& value, const FloatLimit& limit, const char* format, Toasts& toasts,
            ImGuiSliderFlags flags = 0) {
  float typed = value;
  if (!ImGui::SliderFloat(limit.name, &typed, limit.lo, limit.hi, format,
                          flags | ImGuiSliderFlags_AlwaysClamp)) {
    return false;
  }
  std::string refusal;
  const bool changed = settle(typed, value, limit, &refusal);
  if (!refusal.empty()) toasts.error(refusal);
  return changed;
}

bool slider(int& value, const IntLimit& limit) {
  int typed = value;
  if (!ImGui::SliderInt(limit.name, &typed, limit.lo, limit.hi, "%d", ImGuiSliderFlags_AlwaysClamp))
    return false;
  return settle(typed, value, limit);
}

bool input(int& value, const IntLimit& limit, int step = 1, int step_fast = 100) {
  int typed = value;
  if (!ImGui::InputInt(limit.name, &typed, step, step_fast)) return false;
  return settle(typed, value, limit);
}

// A panel action (a button's work): an exception becomes an error toast, never the frame's end.
template <class Action>
void guarded(Toasts& toasts, const char* what, Action&& action) {
  try {
    action();
  } catch (const std::exception& e) {
    toasts.error(std::string(what) + ": " + e.what());
  }
}

void log_recovery(void*, const char* fmt, ...) {
  std::fprintf(stderr, "physarum: panel: ");
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fprintf(stderr, "\n");
}

// How the field reaches the screen, said only where it tells the user something: on the GPU
// straight, or through the CPU because sharing failed (the technical reason on hover).
void picture_path_line(WindowCore& core) {
  const bool on_gpu = core.backend_kind() == BackendKind::Cuda;
  if (core.interop_active()) {
    ImGui::TextDisabled("drawn straight from the GPU");
  } else if (core.is_volume() ? on_gpu
                              : core.backend().can_publish() && core.renderer().field_size().width > 0) {
    ImGui::TextWrapped("drawn through the CPU (slower): the GPU could not share the field with OpenGL");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", core.interop_status().c_str());
  }
}

// The size, agents and detail inputs as the run has them.
void show_run(PanelState& st, const RunParams& run) {
  st.width = run.size.width;
  st.height = run.size.height;
  st.depth = run.size.depth;
  st.agents_k = static_cast<int>(std::max<uint64_t>(1, run.agents / 1000));
  st.detail = run.scale;
}

// The size of the panel's text and widgets: the monitor's (automatic) or a chosen one, kept in the
// layout file. The window applies a change before its next frame.
void ui_scale_combo(PanelState& st) {
  static constexpr float kScales[] = {0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f};
  const float now = chosen_ui_scale(st.ui_scale_asked, st.layout.ui_scale, st.ui_scale_auto);
  std::string shown = scale_text(now);
  if (st.ui_scale_asked > 0) {
    shown += " (--ui-scale)";
  } else if (!(st.layout.ui_scale > 0)) {
    shown = "automatic (" + shown + ")";
  }
  if (!ImGui::BeginCombo("UI scale", shown.c_str())) {
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The size of the text and controls; automatic: the monitor's (%s here)",
                        scale_text(st.ui_scale_auto).c_str());
    return;
  }
  const std::string automatic = "automatic (" + scale_text(st.ui_scale_auto) + ")";
  if (ImGui::Selectable(automatic.c_str(), st.ui_scale_asked <= 0 && !(st.layout.ui_scale > 0))) {
    st.ui_scale_asked = 0;
    st.layout.ui_scale = 0;
  }
  for (const float k : kScales) {
    if (ImGui::Selectable(scale_text(k).c_str(), st.layout.ui_scale == k && st.ui_scale_asked <= 0)) {
      st.ui_scale_asked = 0;  // the panel's choice replaces the command line's for the rest of the session
      st.layout.ui_scale = k;
    }
  }
  ImGui::EndCombo();
}

void simulation_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  ImGui::Text("Backend: %s", core.backend_name().c_str());
  if (!core.backend_note().empty() && core.backend_note() != core.backend_name())
    text_wrapped(core.backend_note());
  picture_path_line(core);
  ImGui::Text("%s %s, %s agents, step %llu", core.is_volume() ? "Volume" : "Field",
              format_size(core.field_size()).c_str(), format_count(core.agent_count()).c_str(),
              static_cast<unsigned long long>(core.steps_done()));
  if (!core.run().food_note().empty()) ImGui::TextDisabled("food: %s", core.run().food_note().c_str());
  if (const Backend* b = core.run().world().plane(); b && b->scale() > 1) {
    ImGui::SameLine();
    ImGui::TextDisabled("detail %d", b->scale());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Lengths in cells (sensor distance, step size) run %d times the values shown",
                        b->scale());
    }
  }
  cpu_fit_note(core, st.cpu_fit, toasts);

  if (ImGui::Button(core.paused() ? "Resume (Space)" : "Pause (Space)")) core.toggle_pause();
  ImGui::SameLine();
  if (ImGui::Button("Step (S)")) core.step_once();
  ImGui::SameLine();
  if (ImGui::Button("Reset (Backspace)"))
    guarded(toasts, "reset", [&] { (void)core.reset(); });  // a refusal shows as the notice
  slider(core.steps_per_frame, limits::kStepsPerFrame);
  if (ImGui::Checkbox("vsync", &st.vsync)) st.actions.push_back(PanelAction::ApplyVsync);
  ImGui::SameLine();
  if (ImGui::Button("Fullscreen (F11)")) st.actions.push_back(PanelAction::ToggleFullscreen);
  ui_scale_combo(st);

  if (!ImGui::TreeNode("Size, agents, detail, seed, spawn (restarts the run)")) return;
  input(st.width, limits::kWidth, 64, 256);
  input(st.height, limits::kHeight, 64, 256);
  if (core.is_volume()) input(st.depth, limits::kDepth, 16, 64);
  input(st.agents_k, limits::kAgentsK, 10, 100);
  input(st.detail, limits::kDetail);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("The same pattern %d times finer: width, height and agents above grow with it on Apply",
                      std::max(st.detail, 1));
  }
  input(st.seed, limits::kSeed);
  const char* modes[] = {"random", "disc", "ring", "point"};
  ImGui::Combo("spawn", &st.spawn_mode, modes, 4);
  if (ImGui::Button("Apply (restarts the run)")) {
    guarded(toasts, "cannot apply", [&] {
      RunParams run;
      run.size = {st.width, st.height, core.is_volume() ? st.depth : 1};
      run.agents = static_cast<uint64_t>(st.agents_k) * 1000;
      run.seed = static_cast<uint32_t>(st.seed);
      run.scale = core.preset.run.scale;
      run = run::at_scale(run, st.detail);  // the one rule of --scale
      SpawnParams spawn = core.preset.spawn;
      spawn.mode = static_cast<SpawnMode>(std::clamp(st.spawn_mode, 0, 3));
      if (const CommandResult r = core.rebuild(run, spawn); !r) {
        toasts.error(r.error());
      } else {
        show_run(st, core.preset.run);
      }
    });
  }
  ImGui::TreePop();
}

// One registry parameter's widget on its table (ModelParams, DisplayParams, ...): a slider in the
// registry's ui range, a checkbox or a choice (a volume's choices too for a volume); true when the
// value changed.
bool parameter_widget(const registry::Param& p, void* table, Toasts& toasts, bool volume = false) {
  switch (p.type) {
    case registry::Type::Float: {
      float v = std::get<float>(p.get(table));
      const bool changed = slider(v, slider_limit(p), std::string(p.ui_format).c_str(), toasts,
                                  p.ui_log ? ImGuiSliderFlags_Logarithmic : 0);
      if (changed) p.put(table, v);
      return changed;
    }
    case registry::Type::Int: {
      if (p.ui_hi <= p.ui_lo) return false;  // no slider (a count typed elsewhere)
      int v = static_cast<int>(std::get<int64_t>(p.get(table)));
      const bool changed = slider(v, int_slider_limit(p));
      if (changed) p.put(table, static_cast<int64_t>(v));
      return changed;
    }
    case registry::Type::Choice: {
      const auto choices = registry::choice_list(p, volume);
      const std::string now = std::get<std::string>(p.get(table));
      std::string label(p.name);
      std::replace(label.begin(), label.end(), '_', ' ');
      bool changed = false;
      if (ImGui::BeginCombo(label.c_str(), now.c_str())) {
        for (const std::string_view c : choices) {
          if (ImGui::Selectable(std::string(c).c_str(), c == now) && c != now) {
            p.put(table, std::string(c));
            changed = true;
          }
        }
        ImGui::EndCombo();
      }
      return changed;
    }
    default: return false;  // other types have their own widgets (sizes, colours, names)
  }
}

// The rule's widgets for one set of model parameters, every model key of the registry a plane
// reads, or with `volume` every one a volume reads; true when one changed.
bool model_sliders(ModelParams& m, Toasts& toasts, bool volume) {
  bool changed = false;
  for (const registry::Param& p : registry::params()) {
    if (p.section == registry::Section::Model && (volume ? !p.plane_only : !p.volume_only))
      changed |= parameter_widget(p, &m, toasts, volume);
  }
  return changed;
}

ImVec4 rgb_colour(uint32_t rgb) {
  return ImVec4(static_cast<float>((rgb >> 16) & 0xffU) / 255.0f,
                static_cast<float>((rgb >> 8) & 0xffU) / 255.0f, static_cast<float>(rgb & 0xffU) / 255.0f,
                1.0f);
}

// Adding and removing species: a plan shown as the list Apply will build, applied at once by
// "Apply (restarts the run)" like the size and agents; the species that stay remain live meanwhile.
void species_count_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  const SpeciesSet live = core.species();
  if (!plan_fits(st.species_plan, live)) st.species_plan = unchanged_plan(live);
  if (!ImGui::TreeNode("Add / remove species (restarts the run)")) return;
  SpeciesPlan& plan = st.species_plan;
  const SpeciesSet planned = merged_species(plan, live);
  int remove = -1;
  for (size_t i = 0; i < planned.list.size(); ++i) {
    const Species& sp = planned.list[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::ColorButton("##c", rgb_colour(sp.colour), ImGuiColorEditFlags_NoTooltip, ImVec2(px(14), px(14)));
    ImGui::SameLine();
    ImGui::Text("%s%s", sp.name.c_str(), plan.entries[i].origin < 0 ? "  (new)" : "");
    ImGui::SameLine();
    if (planned.list.size() <= 1) ImGui::BeginDisabled();
    if (ImGui::SmallButton("remove")) remove = static_cast<int>(i);
    if (planned.list.size() <= 1) ImGui::EndDisabled();
    ImGui::PopID();
  }
  if (remove >= 0) plan_remove(plan, remove);
  const int like = std::clamp(st.species_tab, 0, static_cast<int>(live.list.size()) - 1);
  const bool full = static_cast<int>(plan.entries.size()) >= kMaxSpecies;
  if (full) ImGui::BeginDisabled();
  const std::string add = "Add species (like " + live.list[static_cast<size_t>(like)].name + ")";
  if (ImGui::Button(add.c_str())) {
    // `like` names a live species; its entry in the plan, if it is still there, is copied.
    int entry = 0;
    for (size_t i = 0; i < plan.entries.size(); ++i)
      if (plan.entries[i].origin == like) entry = static_cast<int>(i);
    plan_add(plan, live, entry);
  }
  if (full) ImGui::EndDisabled();
  const bool pending = plan_changes(plan, live);
  if (!pending) ImGui::BeginDisabled();
  if (ImGui::Button("Apply (restarts the run)")) {
    guarded(toasts, "cannot apply the species", [&] {
      if (const CommandResult r = core.apply_species_set(merged_species(plan, live)); r) {
        st.species_plan = unchanged_plan(core.species());
        st.species_tab = 0;
      } else {
        toasts.error(r.error());
      }
    });
  }
  ImGui::SameLine();
  if (ImGui::Button("Discard")) plan = unchanged_plan(live);
  if (!pending) ImGui::EndDisabled();
  ImGui::TreePop();
}

// Several species: a tab each (colour and rule), then the matrix; all live.
void species_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  SpeciesSet s = core.species();
  bool changed = false;
  if (ImGui::BeginTabBar("species")) {
    for (size_t i = 0; i < s.list.size(); ++i) {
      Species& sp = s.list[i];
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::BeginTabItem(sp.name.c_str())) {
        st.species_tab = static_cast<int>(i);
        changed |= colour_edit("colour", sp.colour);
        changed |= model_sliders(sp.model, toasts, core.is_volume());
        ImGui::EndTabItem();
      }
      ImGui::PopID();
    }
    ImGui::EndTabBar();
  }
  changed |= interaction_matrix(s, toasts);
  if (changed) apply_species_edit(core, s, toasts);
  if (!core.is_volume()) species_count_section(core, st, toasts);  // a volume's species are its preset's
}

void model_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  // A [[species]] preset of one species keeps its list (and its W, which may not be 1).
  if (core.species_count() > 1 || !core.preset.species.list.empty()) {
    species_section(core, st, toasts);
    return;
  }
  ModelParams m = core.preset.model;
  if (model_sliders(m, toasts, core.is_volume())) apply_model_edit(core, m, toasts);
  st.species_tab = 0;
  if (!core.is_volume()) species_count_section(core, st, toasts);
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

// The environment's overlays (render/environment_overlay.hpp, a volume's in its renderer); greyed
// out while the run has none.
void environment_overlay_controls(WindowCore& core) {
  DisplayParams& d = core.preset.display;
  const bool walls =
      core.is_volume() ? !core.run().volume().walls().empty() : core.renderer().has_walls_map();
  const bool food = core.is_volume() ? !core.run().food_note().empty() : core.renderer().has_food_map();
  ImGui::BeginDisabled(!walls);
  ImGui::Checkbox("show walls", &d.show_walls);
  ImGui::SameLine();
  colour_edit("##walls colour", d.walls_colour);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!food);
  ImGui::Checkbox("show food", &d.show_food);
  ImGui::SameLine();
  colour_edit("##food colour", d.food_colour);
  ImGui::EndDisabled();
  if (!walls && !food)
    note(core.is_volume() ? "no food or walls (a volume takes them from its preset: points, .npy)"
                          : "no food or walls (drop a map, or paint them with the brush)");
}

void display_section(WindowCore& core, Toasts& toasts) {
  DisplayParams& d = core.preset.display;
  const int species = core.species_count();
  if (palette_shown(species, d.cave)) {
    const auto& pals = core.palettes().palettes;
    if (ImGui::BeginCombo("palette", pals[core.palette_index()].name.c_str())) {
      for (size_t i = 0; i < pals.size(); ++i) {
        const bool selected = i == core.palette_index();
        std::string label = pals[i].name + (pals[i].discrete ? "  (discrete)" : "");
        if (ImGui::Selectable(label.c_str(), selected))
          guarded(toasts, "palette", [&] { core.select_palette(i); });
        if (selected) ImGui::SetItemDefaultFocus();
      }
      ImGui::EndCombo();
    }
    palette_swatch(pals[core.palette_index()], ImGui::CalcItemWidth(), ImGui::GetFrameHeight());
    if (ImGui::Button("Reload palettes"))
      guarded(toasts, "cannot reload palettes", [&] { core.reload_palettes(); });
    for (const auto& e : core.palettes().errors)
      ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", e.c_str());
  } else {
    ImGui::TextDisabled("colours: each species' own (Model section)");
  }

  int mapping = d.mapping == Mapping::Log ? 1 : 0;
  const char* mappings[] = {"linear", "log"};
  if (ImGui::Combo("mapping", &mapping, mappings, 2)) d.mapping = mapping ? Mapping::Log : Mapping::Linear;
  for (const char* key : {"exposure", "gamma"})
    parameter_widget(*registry::find(registry::Section::Display, key), &d, toasts);
  ImGui::Checkbox("auto range", &d.auto_range);
  ImGui::SameLine();
  ImGui::Checkbox("invert", &d.invert);
  for (const std::string_view key : species_display_keys(species, d.cave))
    parameter_widget(*registry::find(registry::Section::Display, key), &d, toasts);

  int cave = static_cast<int>(d.cave);
  // With several species the palette is not used: "off" draws each species in its colour.
  const char* caves[] = {species > 1 ? "off" : "off (palette)", "levels, even", "levels, quantile",
                         "binary walls/floor"};
  if (ImGui::Combo("cave map", &cave, caves, 4)) d.cave = static_cast<CaveMode>(cave);
  if (cave_channel_shown(species, d.cave)) cave_channel_choice(d, core.species());
  using registry::Section;
  if (d.cave == CaveMode::Even || d.cave == CaveMode::Quantile)
    slider(d.levels, int_slider_limit(Section::Display, "levels"));
  if (d.cave == CaveMode::Binary) {
    parameter_widget(*registry::find(Section::Display, "threshold"), &d, toasts);
    slider(d.smoothing, int_slider_limit(Section::Display, "smoothing"));
  }
  environment_overlay_controls(core);
  if (core.is_volume()) {
    if (ImGui::Button("Reset camera (R)")) orbit_reset(d);
    return;
  }
  if (ImGui::Button("Reset view (R)")) core.view.reset();
  ImGui::SameLine();
  ImGui::Text("zoom %.2fx", static_cast<double>(core.view.zoom));
}

// A group of the volume's display keys: those whose name starts with `prefix` ("" for the rest).
bool in_group(const registry::Param& p, std::string_view prefix) {
  static constexpr std::string_view kGroups[] = {"camera_", "clip_", "slice_"};
  if (!prefix.empty()) return p.name.starts_with(prefix);
  for (const std::string_view g : kGroups)
    if (p.name.starts_with(g)) return false;
  return true;
}

// A volume's display keys, every one the registry marks as a volume's, in its order: how the
// volume is drawn, then the camera, the clip box and the slicing plane (which shows the plane's
// palettes and cave maps of the Display section across the volume).
void volume_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  DisplayParams& d = core.preset.display;
  const auto group = [&](std::string_view prefix) {
    for (const registry::Param& p : registry::params()) {
      if (p.section == registry::Section::Display && p.volume_only && in_group(p, prefix))
        parameter_widget(p, &d, toasts, true);
    }
  };
  group("");
  ImGui::Separator();
  ImGui::TextDisabled("camera (left drag, wheel, middle drag, R)");
  group("camera_");
  input(st.turntable_steps, limits::kTurntableSteps, 100, 1000);
  if (ImGui::Button("Add turntable (one turn over the steps above, from now)")) {
    guarded(toasts, "cannot add a turntable", [&] {
      const uint64_t now = core.steps_done();
      add_turntable(core.preset, now, static_cast<uint64_t>(st.turntable_steps));
      toasts.info("turntable: one turn from step " + std::to_string(now) + " to " +
                  std::to_string(now + static_cast<uint64_t>(st.turntable_steps)) +
                  " (camera yaw keyframes)");
    });
  }
  ImGui::Separator();
  ImGui::TextDisabled("clip box");
  group("clip_");
  ImGui::Separator();
  ImGui::TextDisabled("slice (palette and cave map of Display)");
  group("slice_");
}

void presets_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  if (!st.presets_scanned) {
    st.presets_scanned = true;  // a folder that cannot be read is reported once, not every frame
    guarded(toasts, "cannot list the presets",
            [&] { st.presets = run::list_presets(run::shipped_preset_dir(), run::user_preset_dir()); });
  }
  ImGui::TextDisabled("current: %s", core.preset_file.empty()
                                         ? "built-in defaults"
                                         : std::filesystem::path(core.preset_file).stem().string().c_str());
  // A click on a thumbnail loads its preset.
  const int clicked = st.gallery.draw(st.presets, core.palettes(), core.preset_file);
  if (clicked >= 0) {
    st.preset_selected = clicked;
    const run::PresetEntry& e = st.presets[static_cast<size_t>(clicked)];
    try {
      Preset p = load_preset(e.file);  // a broken file throws (also NaN, out of range): nothing changes
      const std::optional<run::AreaFit> fit =
          fit_preset_for_cpu(p, core.backend_kind(), core.steps_per_frame);
      if (const CommandResult r = core.apply_preset(p, e.file.string()); r) {
        st.initialised = false;  // the reallocation fields follow the new preset
        st.cpu_fit = fit;
        toasts.info("loaded preset " + e.name + (fit ? ", " + run::describe_fit(*fit) : ""));
      } else {
        toasts.error(r.error());
      }
    } catch (const std::exception& ex) {
      toasts.error(std::string("cannot load preset ") + e.name + ": " + ex.what());
    }
  }
  if (ImGui::Button("Rescan")) st.presets_scanned = false;
  ImGui::InputText("name", st.save_name, sizeof st.save_name);
  if (ImGui::Button("Save current as preset")) {
    try {
      const auto file = run::save_user_preset(core.preset, run::user_preset_dir(), st.save_name);
      toasts.info("saved " + file.string());
      core.preset_file = file.string();
      st.presets_scanned = false;
    } catch (const std::exception& ex) {
      toasts.error(std::string("cannot save the preset: ") + ex.what());
    }
  }
  ImGui::TextDisabled("saved in %s", run::user_preset_dir().c_str());
}

void seed_brush_section(WindowCore& core, PanelState& st, Toasts& toasts) {
  ImGui::TextWrapped(
      "Drop an image file (PNG or JPEG) on the window: a dialog asks whether it seeds the field or becomes "
      "the food or walls map (Shift-drop: food, Ctrl-drop: walls).");
  const char* fits[] = {"fill (cover, crop)", "fit (letterbox)"};
  ImGui::Combo("image fit", &st.image_fit, fits, 2);
  slider(core.preset.spawn.field_strength, slider_limit(registry::Section::Spawn, "field_strength"), "%.2f",
         toasts, ImGuiSliderFlags_Logarithmic);
  ImGui::Checkbox("respawn agents from the image", &core.preset.spawn.agents_from_image);
  ImGui::Separator();
  // What the left drag paints; the right drag undoes it (brush.hpp).
  ImGui::TextUnformatted("brush paints:");
  for (const BrushMode m : kBrushModes) {
    ImGui::SameLine();
    if (ImGui::RadioButton(brush_mode_name(m), st.brush.mode == m)) st.brush.mode = m;
  }
  slider(st.brush.radius, limits::kBrushRadius, "%.1f cells", toasts, ImGuiSliderFlags_Logarithmic);
  switch (st.brush.mode) {
    case BrushMode::Trail:
      slider(st.brush.strength, limits::kBrushStrength, "%.2f / frame", toasts, ImGuiSliderFlags_Logarithmic);
      slider(st.brush.erase, limits::kEraserStrength, "%.2f / frame", toasts, ImGuiSliderFlags_Logarithmic);
      break;
    case BrushMode::Food:
      slider(st.brush.food, limits::kBrushFood, "%.2f / frame", toasts, ImGuiSliderFlags_Logarithmic);
      ImGui::TextDisabled("left: add food    right: clear food");
      break;
    case BrushMode::Wall: ImGui::TextDisabled("left: build walls    right: erase walls"); break;
    case BrushMode::EraseWall: ImGui::TextDisabled("left: erase walls    right: build walls"); break;
  }
  // Several species: which channel the brush paints into (index 0 of the combo: all of them).
  const auto& species = core.backend().species().list;  // the section shows for a plane only
  if (species.size() > 1 && st.brush.mode == BrushMode::Trail) {
    std::string items = std::string("every species") + '\0';
    for (const auto& s : species) items += s.name + '\0';
    int choice = st.brush.channel + 1;
    if (choice < 0 || choice > static_cast<int>(species.size())) choice = 0;
    ImGui::Combo("paints into", &choice, items.c_str());
    st.brush.channel = choice - 1;
  }
}

// Beside the last item when a button labelled `label` fits there, else on the next line: the
// Record buttons' row is wider while recording ("Stop recording").
void same_line_if_fits(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetItemRectMax().x + style.ItemSpacing.x + ImGui::CalcTextSize(label).x +
                      2 * style.FramePadding.x;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

void record_section(PanelState& st) {
  const RecordingStatus& r = st.recording;
  if (!r.active) {
    static constexpr Choice sources[] = {
        {"field alone", "The field at its own resolution, without the panel"},
        {"whole window", "The window as you see it, panel included"}};
    choice_combo("source", st.record_source, sources);
    slider(st.record_fps, limits::kRecordFps);
    static constexpr Choice pacings[] = {
        {"smooth",
         "Each picture once, at most fps a second: real time when the window keeps up, faster "
         "when it draws fewer (never a repeated frame)"},
        {"every frame", "Each window frame is one video frame: the video's speed follows the frame rate"},
        {"real time", "The video lasts as long as the recording ran: a slow window's frames are repeated"}};
    static_assert(std::size(pacings) == std::size(kWindowPacings));
    choice_combo("timing", st.record_pacing, pacings);
    static constexpr Choice formats[] = {{"MP4 (H.264)", "Plays everywhere"},
                                         {"WebM (VP9)", "Keeps a transparent background"},
                                         {"GIF", "Loops; made when the recording stops"},
                                         {"PNG frames", "A folder with one PNG file per frame"}};
    choice_combo("format", st.record_format, formats);
    ImGui::InputTextWithHint("file", "physarum-<date>-<time>", st.record_path, sizeof st.record_path);
  }
  if (ImGui::Button(r.active ? "Stop recording (F9)" : "Record (F9)"))
    st.actions.push_back(PanelAction::ToggleRecording);
  same_line_if_fits("Screenshot (F12)");
  if (ImGui::Button("Screenshot (F12)")) st.actions.push_back(PanelAction::Screenshot);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The field alone at field resolution; Shift+F12: the whole window");
  same_line_if_fits("Render at 4x detail");
  ImGui::BeginDisabled(!st.detail_status.empty());
  if (ImGui::Button("Render at 4x detail")) st.actions.push_back(PanelAction::RenderDetail);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip(
        "Grows this run again in the background, 4 times finer on a field 4 times larger each way,\n"
        "up to this step, and saves it as a PNG with its recipe beside it (a dropped seed image\n"
        "is not part of the recipe). On the CPU this takes a while: the panel shows how long.");
  }
  if (!st.detail_status.empty()) ImGui::TextDisabled("%s", st.detail_status.c_str());
  if (r.active || r.rec.finished || !r.rec.error.empty()) {
    if (r.active) {
      ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "REC");
      ImGui::SameLine();
    }
    text_wrapped(r.file.string());
    text_wrapped(video_summary(r.rec, r.fps, r.pacing));
    if (r.dropped > 0) ImGui::Text("%llu dropped", static_cast<unsigned long long>(r.dropped));
    if (const std::string slideshow = slideshow_note(r.rec, r.fps, r.pacing); !slideshow.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.6f, 0.3f, 1));
      text_wrapped(slideshow);
      ImGui::PopStyleColor();
    }
    ImGui::Text("%s, %dx%d %s", format_bytes(r.rec.file_bytes).c_str(), r.rec.video_width, r.rec.video_height,
                r.rec.encoder.c_str());
    if (!r.rec.error.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", r.rec.error.c_str());
  }
}

// Bulleted and wrapped: a line reads whole at any panel width.
void help_line(const char* text) {
  ImGui::Bullet();
  ImGui::TextWrapped("%s", text);
}

void help_section() {
  for (const char* line : {
           "Space: pause / resume    S: single step",
           "Backspace: restart the simulation    F11: fullscreen",
           "Scroll: zoom at the cursor    Middle drag: pan    R: reset the view",
           "A volume: left drag turns the camera    Scroll: nearer / farther    Middle drag: pan    R: the "
           "default 3/4 view",
           "Tab: hide all but the field    P: performance    E: explore    A: atlas",
           "Left drag: paint (trail, food or walls: see Seed image & brush)    Right drag: erase",
           "Drop an image on the window: seed, food or walls (a dialog asks); Shift-drop: food, Ctrl-drop: "
           "walls",
           "F9: start / stop recording    F12: save the field    Shift+F12: save the whole window",
           "Ctrl+Z / Ctrl+Shift+Z: undo / redo    K: keyframe here",
           "Esc: quit (asks first while recording or with unsaved changes)",
       })
    help_line(line);
}

void panel_windows(WindowCore& core, PanelState& st, Toasts& toasts) {
  if (!st.initialised) {
    show_run(st, core.preset.run);
    st.seed = static_cast<int>(core.preset.run.seed & 0x7fffffff);
    st.spawn_mode = static_cast<int>(core.preset.spawn.mode);
    st.species_plan = unchanged_plan(core.species());
    st.initialised = true;
  }
  if (!st.visible) return;
  if (begin_side_panel(st.layout, st.visible)) {
    if (!core.notice().empty()) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", core.notice().c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) core.dismiss_notice();
    }
    ImGui::PushItemWidth(-px(140));
    if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen))
      simulation_section(core, st, toasts);
    if (ImGui::CollapsingHeader("Record", ImGuiTreeNodeFlags_DefaultOpen)) record_section(st);
    if (ImGui::CollapsingHeader("Model", ImGuiTreeNodeFlags_DefaultOpen)) model_section(core, st, toasts);
    if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) display_section(core, toasts);
    if (core.is_volume() && ImGui::CollapsingHeader("Volume", ImGuiTreeNodeFlags_DefaultOpen))
      volume_section(core, st, toasts);
    if (ImGui::CollapsingHeader("Presets")) presets_section(core, st, toasts);
    if (!core.is_volume()) {  // what acts on a plane: images, the brush, the twin, the 2D graph
      if (ImGui::CollapsingHeader("Seed image & brush")) seed_brush_section(core, st, toasts);
      twin_panel(core, st.twin, toasts);
      graph_overlay_section(core, st.graph);
    }
    if (ImGui::CollapsingHeader("Help")) help_section();
    ImGui::PopItemWidth();
  }
  end_side_panel();
  draw_toasts(toasts);
  if (st.layout.performance_open) performance_window(core, st.ui_ms, st.layout.performance_open);
}

}  // namespace

void run_panel_guarded(Toasts& toasts, const std::function<void()>& draw) {
  try {
    draw();
  } catch (const std::exception& e) {
    // Ends what the panel left open (windows, tree nodes, ID scopes, disabled blocks): ImGui
    // asserts on an unbalanced frame, and the frame must still end so the program goes on.
    ImGui::ErrorCheckEndFrameRecover(log_recovery, nullptr);
    toasts.error(std::string("panel: ") + e.what());
  }
}

void draw_panel(WindowCore& core, PanelState& st, Toasts& toasts) {
  run_panel_guarded(toasts, [&] { panel_windows(core, st, toasts); });
}

}  // namespace physarum::app
