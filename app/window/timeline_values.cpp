// The selected keyframe edited in place: its ease, and each value it holds with the widget its
// registry type calls for, in the ranges the panel's sliders use (window/panel_values.hpp). A value
// goes through the registry's own check before it is stored.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <variant>

#include "sim/keyframes.hpp"
#include "sim/registry.hpp"
#include "window/panel_values.hpp"
#include "window/timeline.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {

namespace {

bool edit_float(const registry::Param& p, const char* label, Value& v, Toasts& toasts) {
  float f = std::get<float>(v);
  if (!(p.ui_hi > p.ui_lo)) return ImGui::InputFloat(label, &f, 0, 0, "%g") && (v = f, true);
  const FloatLimit& limit = slider_limit(p);
  float typed = f;
  const ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp | (p.ui_log ? ImGuiSliderFlags_Logarithmic : 0);
  if (!ImGui::SliderFloat(label, &typed, limit.lo, limit.hi, std::string(p.ui_format).c_str(), flags))
    return false;
  std::string refusal;
  const bool changed = settle(typed, f, limit, &refusal);
  if (!refusal.empty()) toasts.error(refusal);
  if (changed) v = f;
  return changed;
}

bool edit_choice(const registry::Param& p, const char* label, Value& v,
                 const std::vector<std::string>& choices) {
  const std::string now = std::get<std::string>(v);
  bool changed = false;
  if (ImGui::BeginCombo(label, now.c_str())) {
    for (const std::string& c : choices) {
      if (ImGui::Selectable(c.c_str(), c == now) && c != now) v = c, changed = true;
    }
    ImGui::EndCombo();
  }
  (void)p;
  return changed;
}

bool edit_colour(const char* label, Value& v) {
  auto rgb = static_cast<uint32_t>(std::get<int64_t>(v));
  if (!colour_edit(label, rgb)) return false;
  v = static_cast<int64_t>(rgb);
  return true;
}

// One value's widget; true when `v` holds a new value (not yet checked).
bool edit_value(WindowCore& core, const registry::Param& p, const std::string& key, Value& v,
                Toasts& toasts) {
  const char* label = key.c_str();
  switch (p.type) {
    case registry::Type::Float: return edit_float(p, label, v, toasts);
    case registry::Type::Int: {
      int i = static_cast<int>(std::get<int64_t>(v)), typed = i;
      if (p.ui_hi > p.ui_lo) {
        const IntLimit& limit = int_slider_limit(p);
        if (!ImGui::SliderInt(label, &typed, limit.lo, limit.hi) || !settle(typed, i, limit)) return false;
      } else if (!ImGui::InputInt(label, &i)) {
        return false;
      }
      v = static_cast<int64_t>(i);
      return true;
    }
    case registry::Type::Bool: {
      bool b = std::get<bool>(v);
      return ImGui::Checkbox(label, &b) && (v = b, true);
    }
    case registry::Type::Choice: {
      std::vector<std::string> choices;
      for (const std::string_view c : registry::choice_list(p)) choices.emplace_back(c);
      return edit_choice(p, label, v, choices);
    }
    case registry::Type::Colour: return edit_colour(label, v);
    case registry::Type::Text:
      if (key == "display.palette") {
        std::vector<std::string> names;
        for (const auto& pal : core.palettes().palettes) names.push_back(pal.name);
        return edit_choice(p, label, v, names);
      }
      [[fallthrough]];
    default: ImGui::TextDisabled("%s = %s", label, registry::to_text(p, v).c_str()); return false;
  }
}

void ease_and_delete(WindowCore& core, TimelineState& st) {
  Keyframe& k = core.preset.keyframes[static_cast<size_t>(st.selected)];
  ImGui::Text("Keyframe at step %llu", static_cast<unsigned long long>(k.step));
  ImGui::SameLine();
  int ease = static_cast<int>(k.ease);
  const char* eases[] = {"linear", "smoothstep", "hold"};
  ImGui::SetNextItemWidth(px(120));
  if (ImGui::Combo("ease to the next", &ease, eases, 3)) k.ease = static_cast<Ease>(ease);
  ImGui::SameLine();
  if (ImGui::Button("Delete keyframe")) {
    delete_keyframe(core.preset, static_cast<size_t>(st.selected));
    st.selected = -1;
  }
}

}  // namespace

void selected_keyframe_editor(WindowCore& core, TimelineState& st, Toasts& toasts) {
  if (st.selected < 0 || st.selected >= static_cast<int>(core.preset.keyframes.size())) return;
  ease_and_delete(core, st);
  if (st.selected < 0) return;
  Keyframe& k = core.preset.keyframes[static_cast<size_t>(st.selected)];
  const std::string title = "Values (" + std::to_string(k.values.size()) + ")###keyframe_values";
  if (!ImGui::TreeNode(title.c_str())) return;
  ImGui::BeginChild("##values",
                    ImVec2(0, std::min(px(180), px(26) * static_cast<float>(k.values.size()) + px(8))));
  for (KeyframeValue& kv : k.values) {
    try {
      const registry::Key key = registry::resolve(core.preset, kv.key);
      Value edited = kv.value;
      ImGui::PushID(kv.key.c_str());
      ImGui::SetNextItemWidth(std::max(120.0f, ImGui::GetContentRegionAvail().x * 0.5f));
      const bool changed = edit_value(core, *key.param, kv.key, edited, toasts);
      ImGui::PopID();
      if (!changed) continue;
      registry::check(*key.param, edited, kv.key, core.preset.species.list.size());
      kv.value = std::move(edited);
    } catch (const Error& e) {
      toasts.error("keyframe not changed: " + std::string(e.what()));
    }
  }
  ImGui::EndChild();
  ImGui::TreePop();
}

}  // namespace physarum::app
