// The timeline's ruler (steps, the playhead, the loop range) and its track (the keyframes). Each is
// one button covering its strip, and what a press means is found from where it lands, so nothing
// drawn over the strip takes the press away.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/keyframes.hpp"
#include "sim/registry.hpp"
#include "window/timeline.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {

namespace {

constexpr float kPad = 8.0f;      // diamonds at the ends stay inside
constexpr float kDiamond = 7.0f;  // half the diamond's width
constexpr ImU32 kPlayhead = IM_COL32(255, 80, 60, 255);

// Lays the strip out from the cursor: the span it shows and its ends; returns its top-left corner.
ImVec2 lay_out(WindowCore& core, TimelineState& st) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x);
  if (st.drag_span == 0) {
    const uint64_t far =
        std::max(st.seeker.active() ? st.seeker.target() : 0, st.scrubbing ? st.scrub_to : 0);
    st.span = timeline_span(core.preset, std::max(far, core.steps_done()), st.loop.out);
  } else {
    st.span = st.drag_span;
  }
  st.x0 = origin.x + kPad;
  st.x1 = origin.x + width - kPad;
  return origin;
}

void playhead(ImDrawList* dl, const TimelineState& st, uint64_t step, float top, float bottom, ImU32 colour) {
  const float x = x_of_step(st, std::min(step, st.span));
  dl->AddLine(ImVec2(x, top), ImVec2(x, bottom), colour, 2.0f);
}

std::string step_label(uint64_t s) {
  char buf[32];
  if (s >= 1'000'000 && s % 100'000 == 0) {
    std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(s) / 1e6);
  } else if (s >= 10'000 && s % 1000 == 0) {
    std::snprintf(buf, sizeof buf, "%lluk", static_cast<unsigned long long>(s / 1000));
  } else {
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(s));
  }
  return buf;
}

void ruler_ticks(ImDrawList* dl, const TimelineState& st, float top, float height) {
  const uint64_t tick = nice_tick(st.span, st.x1 - st.x0, 70.0f), minor = minor_tick(tick);
  for (uint64_t s = 0; s <= st.span; s += minor) {
    const float x = x_of_step(st, s);
    const bool major = s % tick == 0;
    dl->AddLine(ImVec2(x, top + height - (major ? 9.0f : 4.0f)), ImVec2(x, top + height),
                IM_COL32(150, 150, 160, 255));
    if (!major) continue;
    const std::string label = step_label(s);
    // A label that would run past the end is left out rather than cut.
    if (x + 3 + ImGui::CalcTextSize(label.c_str()).x <= st.x1 + kPad) {
      dl->AddText(ImVec2(x + 3, top + 1), IM_COL32(200, 200, 210, 255), label.c_str());
    }
  }
}

void ruler_menu(TimelineState& st) {
  if (!ImGui::BeginPopup("##ruler_menu")) return;
  const uint64_t at = st.scrub_to;
  ImGui::TextDisabled("step %llu", static_cast<unsigned long long>(at));
  if (ImGui::MenuItem("Loop from here")) {
    st.loop.in = at;
    if (st.loop.out <= at) st.loop.out = at + std::max<uint64_t>(snap_grid(st) * 5, 10);
    st.loop.on = true;
  }
  if (ImGui::MenuItem("Loop to here", nullptr, false, at > st.loop.in)) {
    st.loop.out = at;
    st.loop.on = true;
  }
  if (ImGui::MenuItem("No loop", nullptr, false, st.loop.on)) st.loop.on = false;
  ImGui::EndPopup();
}

// Where a click goes, and how long getting there takes: a step behind the run grows it again.
void ruler_tooltip(WindowCore& core, const TimelineState& st, uint64_t under) {
  const uint64_t now = core.steps_done();
  std::string how = under < now ? "grows the run again from step 0" : "steps on from here";
  const double s = st.seeker.estimate_s(now, under);
  if (s >= 0.5) how += ", about " + std::to_string(static_cast<int>(std::ceil(s))) + " s";
  ImGui::SetTooltip("step %llu: click or drag to go there (%s)\nright click: loop from or to here",
                    static_cast<unsigned long long>(under), how.c_str());
}

}  // namespace

void timeline_ruler(WindowCore& core, TimelineState& st) {
  const ImVec2 origin = lay_out(core, st);
  const float width = st.x1 - st.x0 + 2 * kPad, height = px(22);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(24, 24, 30, 255), 3.0f);
  if (st.loop.out > st.loop.in) {
    const ImU32 c = st.loop.on ? IM_COL32(70, 120, 200, 110) : IM_COL32(90, 90, 100, 70);
    dl->AddRectFilled(ImVec2(x_of_step(st, st.loop.in), origin.y),
                      ImVec2(x_of_step(st, st.loop.out), origin.y + height), c);
  }
  ruler_ticks(dl, st, origin.y, height);
  st.ruler_mid = origin.y + height * 0.5f;
  ImGui::InvisibleButton("##ruler", ImVec2(width, height),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const float mouse_x = ImGui::GetIO().MousePos.x;
  const auto under = static_cast<uint64_t>(std::llround(step_at_x(st, mouse_x)));
  if (ImGui::IsItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    if (!st.scrubbing) st.drag_span = st.span;  // the scale holds still under the mouse
    st.scrubbing = true;
    st.scrub_to = under;
    if (under >= core.steps_done()) seek_to(core, st, under);  // forward: follows the mouse
  } else if (st.scrubbing) {
    st.scrubbing = false;
    st.drag_span = 0;
    if (st.scrub_to != core.steps_done()) seek_to(core, st, st.scrub_to);  // back: on release
  }
  if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
    st.scrub_to = under;
    ImGui::OpenPopup("##ruler_menu");
  }
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) ruler_tooltip(core, st, under);
  ruler_menu(st);
  if (st.seeker.active())
    playhead(dl, st, st.seeker.target(), origin.y, origin.y + height, IM_COL32(255, 160, 140, 150));
  if (st.scrubbing) playhead(dl, st, st.scrub_to, origin.y, origin.y + height, IM_COL32(255, 160, 140, 150));
  const float px = x_of_step(st, std::min(core.steps_done(), st.span));
  dl->AddTriangleFilled(ImVec2(px - 5, origin.y), ImVec2(px + 5, origin.y), ImVec2(px, origin.y + 7),
                        kPlayhead);
  playhead(dl, st, core.steps_done(), origin.y, origin.y + height, kPlayhead);
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
  ImGui::SetTooltip("step %llu, %s (drag to move, Alt: single steps; right click deletes)%s",
                    static_cast<unsigned long long>(k.step), std::string(to_string(k.ease)).c_str(),
                    keys.c_str());
}

// The keyframe whose diamond is under (x, y), or -1.
int keyframe_under(const Preset& p, const TimelineState& st, float x, float y) {
  int best = -1;
  float best_d = kDiamond + 2.0f;
  if (std::fabs(y - st.track_mid) > best_d) return -1;
  for (size_t i = 0; i < p.keyframes.size(); ++i) {
    const float d = std::fabs(x - x_of_step(st, p.keyframes[i].step));
    if (d <= best_d) best = static_cast<int>(i), best_d = d;
  }
  return best;
}

void draw_keyframes(ImDrawList* dl, const Preset& p, const TimelineState& st) {
  const auto& ks = p.keyframes;
  // The segments between keyframes, coloured by their ease.
  for (size_t i = 0; i + 1 < ks.size(); ++i) {
    const ImU32 c = ks[i].ease == Ease::Hold         ? IM_COL32(120, 120, 130, 255)
                    : ks[i].ease == Ease::Smoothstep ? IM_COL32(90, 170, 240, 255)
                                                     : IM_COL32(90, 210, 140, 255);
    dl->AddLine(ImVec2(x_of_step(st, ks[i].step), st.track_mid),
                ImVec2(x_of_step(st, ks[i + 1].step), st.track_mid), c, 3.0f);
  }
  for (size_t i = 0; i < ks.size(); ++i) {
    const float cx = x_of_step(st, ks[i].step), m = st.track_mid, r = kDiamond;
    const ImU32 fill =
        static_cast<int>(i) == st.selected ? IM_COL32(255, 210, 80, 255) : IM_COL32(230, 230, 235, 255);
    dl->AddQuadFilled(ImVec2(cx, m - r), ImVec2(cx + r, m), ImVec2(cx, m + r), ImVec2(cx - r, m), fill);
  }
}

}  // namespace

void timeline_track(WindowCore& core, TimelineState& st) {
  Preset& p = core.preset;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = st.x1 - st.x0 + 2 * kPad, height = px(30);
  st.track_mid = origin.y + height * 0.5f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), IM_COL32(30, 30, 36, 255), 4.0f);
  dl->AddLine(ImVec2(st.x0, st.track_mid), ImVec2(st.x1, st.track_mid), IM_COL32(110, 110, 120, 255), 2.0f);
  ImGui::InvisibleButton("##track", ImVec2(width, height),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const int under = keyframe_under(p, st, mouse.x, mouse.y);
  if (ImGui::IsItemActivated() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    st.selected = under;
    st.moving = under >= 0;
    if (st.moving) st.drag_span = st.span;
  }
  if (st.moving && ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f) &&
      st.selected >= 0) {
    const double at = step_at_x(st, mouse.x);
    const uint64_t step = ImGui::GetIO().KeyAlt ? snap_step(at, 1) : snap_step(at, snap_grid(st));
    st.selected = static_cast<int>(move_keyframe(p, static_cast<size_t>(st.selected), step));
  }
  if (!ImGui::IsItemActive() && st.moving) {
    st.moving = false;
    st.drag_span = 0;
  }
  if (ImGui::IsItemClicked(ImGuiMouseButton_Right) && under >= 0) {
    delete_keyframe(p, static_cast<size_t>(under));
    st.selected = -1;
  } else if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) {
    if (under >= 0) {
      keyframe_tooltip(p, p.keyframes[static_cast<size_t>(under)]);
    } else {
      ImGui::SetTooltip(
          "Click a keyframe to edit it, drag it to move it; Backspace grows the run again from step 0");
    }
  }
  draw_keyframes(dl, p, st);
  playhead(dl, st, core.steps_done(), origin.y + 2, origin.y + height - 2, kPlayhead);
}

}  // namespace physarum::app
