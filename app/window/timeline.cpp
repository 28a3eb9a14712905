#include "window/timeline.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "sim/keyframes.hpp"
#include "sim/registry.hpp"

namespace physarum::app {

size_t add_keyframe_here(Preset& p, uint64_t step) {
  auto& ks = p.keyframes;
  const auto at =
      std::lower_bound(ks.begin(), ks.end(), step, [](const Keyframe& k, uint64_t s) { return k.step < s; });
  const Ease ease = at != ks.end() && at->step == step ? at->ease
                    : at != ks.begin()                 ? std::prev(at)->ease
                                                       : Ease::Linear;
  Preset values = p;
  values.keyframes.clear();  // p holds the values of this step already (preset_at ran before it)
  Keyframe k = capture_keyframe(values, step, ease);
  const auto index = static_cast<size_t>(at - ks.begin());
  if (at != ks.end() && at->step == step) {
    *at = std::move(k);
  } else {
    ks.insert(at, std::move(k));
  }
  return index;
}

size_t move_keyframe(Preset& p, size_t index, uint64_t step) {
  auto& ks = p.keyframes;
  if (index >= ks.size()) return index;
  step = std::min(step, kMaxKeyframeStep);
  for (size_t i = 0; i < ks.size(); ++i) {
    if (i != index && ks[i].step == step) return index;
  }
  Keyframe k = std::move(ks[index]);
  ks.erase(ks.begin() + static_cast<std::ptrdiff_t>(index));
  k.step = step;
  const auto at = std::lower_bound(ks.begin(), ks.end(), step,
                                   [](const Keyframe& kf, uint64_t s) { return kf.step < s; });
  const auto new_index = static_cast<size_t>(at - ks.begin());
  ks.insert(at, std::move(k));
  return new_index;
}

void delete_keyframe(Preset& p, size_t index) {
  if (index < p.keyframes.size()) p.keyframes.erase(p.keyframes.begin() + static_cast<std::ptrdiff_t>(index));
}

uint64_t timeline_span(const Preset& p, uint64_t current) {
  const uint64_t last = p.keyframes.empty() ? 0 : p.keyframes.back().step;
  const uint64_t far = std::max(last, current);
  return std::max<uint64_t>(100, far + far / 8 + 1);
}

namespace {

void keyframe_tooltip(const Preset& p, const Keyframe& k) {
  std::string keys;
  for (const KeyframeValue& v : k.values) {
    if (keys.size() > 300) {
      keys += "\n...";
      break;
    }
    keys += "\n" + v.key + " = " + registry::to_text(*registry::resolve(p, v.key).param, v.value);
  }
  ImGui::SetTooltip("step %llu, %s (drag to move, right click to delete)%s",
                    static_cast<unsigned long long>(k.step), std::string(to_string(k.ease)).c_str(),
                    keys.c_str());
}

// The track: keyframes, the current step's marker; returns after handling drags and clicks.
void track(WindowCore& core, TimelineState& st) {
  auto& ks = core.preset.keyframes;
  const uint64_t current = core.backend().steps_done();
  const uint64_t span = st.drag_span > 0 ? st.drag_span : timeline_span(core.preset, current);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x);
  const float height = 30.0f;
  const float pad = 8.0f;  // diamonds at the ends stay inside
  const float x0 = origin.x + pad, x1 = origin.x + width - pad;
  const auto x_of = [&](uint64_t s) {
    return x0 + (x1 - x0) * static_cast<float>(static_cast<double>(s) / static_cast<double>(span));
  };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float mid = origin.y + height * 0.5f;
  dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(30, 30, 36, 255), 4.0f);
  dl->AddLine(ImVec2(x0, mid), ImVec2(x1, mid), IM_COL32(110, 110, 120, 255), 2.0f);
  // The segments between keyframes, coloured by their ease.
  for (size_t i = 0; i + 1 < ks.size(); ++i) {
    const ImU32 c = ks[i].ease == Ease::Hold         ? IM_COL32(120, 120, 130, 255)
                    : ks[i].ease == Ease::Smoothstep ? IM_COL32(90, 170, 240, 255)
                                                     : IM_COL32(90, 210, 140, 255);
    dl->AddLine(ImVec2(x_of(ks[i].step), mid), ImVec2(x_of(ks[i + 1].step), mid), c, 3.0f);
  }
  ImGui::InvisibleButton("##track", ImVec2(width, height));
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) st.selected = -1;
  const float marker = x_of(std::min(current, span));
  dl->AddLine(ImVec2(marker, origin.y + 2), ImVec2(marker, origin.y + height - 2), IM_COL32(255, 80, 60, 255),
              2.0f);

  int remove = -1;
  for (size_t i = 0; i < ks.size(); ++i) {
    const float cx = x_of(ks[i].step);
    const float r = 7.0f;
    ImGui::SetCursorScreenPos(ImVec2(cx - r, mid - r));
    ImGui::PushID(static_cast<int>(i));
    ImGui::InvisibleButton("##kf", ImVec2(2 * r, 2 * r));
    const bool selected = static_cast<int>(i) == st.selected;
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) st.selected = static_cast<int>(i);
    if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) remove = static_cast<int>(i);
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) keyframe_tooltip(core.preset, ks[i]);
    const ImU32 fill = selected ? IM_COL32(255, 210, 80, 255) : IM_COL32(230, 230, 235, 255);
    dl->AddQuadFilled(ImVec2(cx, mid - r), ImVec2(cx + r, mid), ImVec2(cx, mid + r), ImVec2(cx - r, mid),
                      fill);
    const bool dragging = ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f);
    ImGui::PopID();
    if (dragging) {
      st.drag_span = span;
      const double f = std::clamp((ImGui::GetIO().MousePos.x - x0) / (x1 - x0), 0.0f, 1.0f);
      const auto step = static_cast<uint64_t>(std::llround(f * static_cast<double>(span)));
      st.selected = static_cast<int>(move_keyframe(core.preset, i, step));
      break;  // the order may have changed: draw again next frame
    }
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) st.drag_span = 0;
  if (remove >= 0) {
    delete_keyframe(core.preset, static_cast<size_t>(remove));
    st.selected = -1;
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height + 4));
  ImGui::Dummy(ImVec2(width, 0));
}

}  // namespace

bool draw_timeline(WindowCore& core, TimelineState& st, Toasts& toasts) {
  auto& ks = core.preset.keyframes;
  if (ks.empty() && !st.force_show) return false;
  if (st.selected >= static_cast<int>(ks.size())) st.selected = -1;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Between the panel (left, 380 wide) and the Explore window (bottom right, 340 wide) when the
  // window is wide enough; across the bottom otherwise.
  const bool wide = vp->WorkSize.x >= 1100;
  const float left = wide ? 400.0f : 10.0f, right = wide ? 360.0f : 10.0f;
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + left, vp->WorkPos.y + vp->WorkSize.y - 8),
                          ImGuiCond_FirstUseEver, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x - left - right, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Timeline")) {
    if (ImGui::Button(core.paused() ? "Play (Space)" : "Pause (Space)")) core.toggle_pause();
    ImGui::SameLine();
    ImGui::Text("step %llu", static_cast<unsigned long long>(core.backend().steps_done()));
    ImGui::SameLine();
    if (ImGui::Button("Add keyframe here (K)")) {
      try {
        st.selected = static_cast<int>(add_keyframe_here(core.preset, core.backend().steps_done()));
      } catch (const std::exception& e) {
        toasts.error(std::string("cannot add a keyframe: ") + e.what());
      }
    }
    if (st.selected >= 0) {
      Keyframe& k = ks[static_cast<size_t>(st.selected)];
      ImGui::SameLine();
      int ease = static_cast<int>(k.ease);
      const char* eases[] = {"linear", "smoothstep", "hold"};
      ImGui::SetNextItemWidth(110);
      if (ImGui::Combo("ease", &ease, eases, 3)) k.ease = static_cast<Ease>(ease);
      ImGui::SameLine();
      if (ImGui::Button("Delete keyframe")) {
        delete_keyframe(core.preset, static_cast<size_t>(st.selected));
        st.selected = -1;
      }
    }
    track(core, st);
    ImGui::TextDisabled("Backspace restarts from step 0; keyframes are saved with the preset");
  }
  ImGui::End();
  return true;
}

}  // namespace physarum::app
