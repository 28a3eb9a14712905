#include "window/timeline.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the window the mouse is moving

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>

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

uint64_t timeline_span(const Preset& p, uint64_t current, uint64_t loop_out) {
  const uint64_t last = p.keyframes.empty() ? 0 : p.keyframes.back().step;
  const uint64_t far = std::max({last, current, loop_out});
  return std::max<uint64_t>(100, far + far / 8 + 1);
}

float x_of_step(const TimelineState& st, uint64_t step) {
  const double f = static_cast<double>(step) / static_cast<double>(std::max<uint64_t>(st.span, 1));
  return st.x0 + (st.x1 - st.x0) * static_cast<float>(f);
}

double step_at_x(const TimelineState& st, float x) {
  const double f = std::clamp((x - st.x0) / std::max(1.0f, st.x1 - st.x0), 0.0f, 1.0f);
  return f * static_cast<double>(st.span);
}

uint64_t snap_grid(const TimelineState& st) {
  // Labels at least 70 pixels apart; the small ticks between them are the grid.
  return minor_tick(nice_tick(st.span, st.x1 - st.x0, 70.0f));
}

void seek_to(WindowCore& core, TimelineState& st, uint64_t target) {
  if (!st.seeker.active()) st.resume_after_seek = !core.paused();
  if (!core.paused()) core.toggle_pause();
  st.seeker.seek(std::min(target, kMaxKeyframeStep));
}

void advance_timeline(WindowCore& core, TimelineState& st) {
  if (st.seeker.active()) {
    // Stepping 40 ms a frame keeps the window drawing and answering while it goes.
    if (!st.seeker.advance(core, 40.0) && st.resume_after_seek && core.paused()) core.toggle_pause();
    return;
  }
  if (!core.paused() && core.sim_ms > 0) {
    st.seeker.note_step_time(core.sim_ms / std::max(core.steps_per_frame, 1),
                             static_cast<uint64_t>(core.steps_per_frame));
  }
  if (const auto back = st.loop.wrap(core.steps_done()); back && !core.paused()) seek_to(core, st, *back);
}

namespace {

constexpr const char* kWindowName = "Timeline";

std::string seconds_text(double s) {
  char buf[32];
  if (s < 0.1) return "a moment";
  std::snprintf(buf, sizeof buf, s < 10 ? "%.1f s" : "%.0f s", s);
  return buf;
}

void seek_status(WindowCore& core, TimelineState& st) {
  if (!st.seeker.active()) return;
  const uint64_t now = core.steps_done();
  const std::string left = seconds_text(st.seeker.seconds_left(now));
  char text[96];
  std::snprintf(text, sizeof text, "going to step %llu: %s left",
                static_cast<unsigned long long>(st.seeker.target()), left.c_str());
  ImGui::ProgressBar(static_cast<float>(st.seeker.progress()), ImVec2(-90.0f, 0), text);
  ImGui::SameLine();
  if (ImGui::Button("Stop here")) {
    st.seeker.cancel();
    if (st.resume_after_seek && core.paused()) core.toggle_pause();
  }
}

void loop_controls(WindowCore& core, TimelineState& st) {
  ImGui::Checkbox("loop", &st.loop.on);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Play steps %llu to %llu over and over (right click the ruler to set them)",
                      static_cast<unsigned long long>(st.loop.in),
                      static_cast<unsigned long long>(st.loop.out));
  }
  ImGui::SameLine();
  const uint64_t now = core.steps_done();
  if (ImGui::SmallButton("in here")) st.loop.in = now;
  ImGui::SameLine();
  if (ImGui::SmallButton("out here")) st.loop.out = now;
  if (st.loop.out > st.loop.in) {
    ImGui::SameLine();
    ImGui::TextDisabled("%llu-%llu", static_cast<unsigned long long>(st.loop.in),
                        static_cast<unsigned long long>(st.loop.out));
  }
}

// The window's place: first at the bottom between the panel (left, 380 wide) and the Explore window
// (bottom right, 340 wide) when the window is wide enough, across the bottom otherwise; then where
// the person moved it. Its height follows the content (a selected keyframe's editor opens under the
// track) and grows upward from the bottom edge; its width stays as the person left it, since a scroll
// bar appearing would shift the track under a dragged keyframe.
bool moving_this_window() {
  const ImGuiWindow* moving = ImGui::GetCurrentContext()->MovingWindow;
  return moving != nullptr && std::string_view(moving->Name) == kWindowName;
}

void place_window(TimelineState& st) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  if (st.width <= 0) {
    const bool wide = vp->WorkSize.x >= 1100;
    const float left = wide ? 400.0f : 10.0f, right = wide ? 360.0f : 10.0f;
    st.left = vp->WorkPos.x + left;
    st.bottom = vp->WorkPos.y + vp->WorkSize.y - 8;
    st.width = vp->WorkSize.x - left - right;
  }
  if (!moving_this_window()) {
    ImGui::SetNextWindowPos(ImVec2(st.left, st.bottom), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  }
  ImGui::SetNextWindowSize(ImVec2(st.width, 0), ImGuiCond_Always);
}

// Inside the window: what the person changed by hand (its first frame is laid out hidden, before
// the bottom edge applies, so the place is read only while the mouse moves it).
void remember_place(TimelineState& st) {
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  if (moving_this_window()) {
    st.left = pos.x;
    st.bottom = pos.y + size.y;
  }
  st.width = size.x;
}

}  // namespace

bool draw_timeline(WindowCore& core, TimelineState& st, Toasts& toasts) {
  auto& ks = core.preset.keyframes;
  if (ks.empty() && !st.force_show) return false;
  if (st.selected >= static_cast<int>(ks.size())) st.selected = -1;
  place_window(st);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin(kWindowName, nullptr, ImGuiWindowFlags_NoScrollbar)) {
    remember_place(st);
    if (ImGui::Button(core.paused() && !st.seeker.active() ? "Play" : "Pause")) {
      if (st.seeker.active()) {
        st.seeker.cancel();  // stays where the seek got to, paused
      } else {
        core.toggle_pause();
      }
    }
    ImGui::SameLine();
    ImGui::Text("step %llu", static_cast<unsigned long long>(core.steps_done()));
    ImGui::SameLine();
    if (ImGui::Button("Add keyframe here (K)")) {
      try {
        st.selected = static_cast<int>(add_keyframe_here(core.preset, core.steps_done()));
      } catch (const std::exception& e) {
        toasts.error(std::string("cannot add a keyframe: ") + e.what());
      }
    }
    // The loop's controls go on their own line where the window is narrow.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (right - ImGui::GetItemRectMax().x > 200) ImGui::SameLine();
    loop_controls(core, st);
    seek_status(core, st);
    timeline_ruler(core, st);
    timeline_track(core, st);
    selected_keyframe_editor(core, st, toasts);
  }
  ImGui::End();
  return true;
}

}  // namespace physarum::app
