#include "window/toast.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace physarum::app {

void Toasts::push(std::string text, bool error) {
  std::fprintf(error ? stderr : stdout, "physarum: %s\n", text.c_str());  // also in the terminal
  entries_.push_back({std::move(text), error, Clock::now()});
  while (entries_.size() > 5) entries_.pop_front();
}

float Toasts::alpha(const Entry& e, Clock::time_point now) {
  const double age = std::chrono::duration<double>(now - e.born).count();
  if (age <= kShowSeconds) return 1.0f;
  return static_cast<float>(std::clamp(1.0 - (age - kShowSeconds) / kFadeSeconds, 0.0, 1.0));
}

const std::deque<Toasts::Entry>& Toasts::live(Clock::time_point now) {
  while (!entries_.empty() && alpha(entries_.front(), now) <= 0.0f) entries_.pop_front();
  return entries_;
}

void draw_toasts(Toasts& toasts) {
  const auto now = Toasts::Clock::now();
  const auto& list = toasts.live(now);
  if (list.empty()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  float y = vp->WorkPos.y + vp->WorkSize.y - 20.0f;
  int i = 0;
  for (auto it = list.rbegin(); it != list.rend(); ++it, ++i) {  // newest at the bottom
    const float a = Toasts::alpha(*it, now);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, y), ImGuiCond_Always,
                            ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.85f * a);
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, a);
    char id[32];
    std::snprintf(id, sizeof id, "##toast%d", i);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
    if (ImGui::Begin(id, nullptr, flags)) {
      const ImVec4 colour = it->error ? ImVec4(1.0f, 0.55f, 0.45f, 1.0f) : ImVec4(0.85f, 0.95f, 0.85f, 1.0f);
      ImGui::PushTextWrapPos(vp->WorkSize.x * 0.6f);
      ImGui::TextColored(colour, "%s", it->text.c_str());
      ImGui::PopTextWrapPos();
      y -= ImGui::GetWindowHeight() + 6.0f;
    }
    ImGui::End();
    ImGui::PopStyleVar();
  }
}

}  // namespace physarum::app
