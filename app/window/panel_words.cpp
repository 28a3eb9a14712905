#include "window/panel_words.hpp"

#include <imgui.h>

#include <algorithm>

namespace physarum::app {
namespace {

std::vector<std::string>& cut_off_log() {
  static std::vector<std::string> log;
  return log;
}

// The box shows its text between the frame padding and the arrow button.
void note_if_cut_off(const char* name) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2.0f * style.FramePadding.x;
  auto& log = cut_off_log();
  if (ImGui::CalcTextSize(name).x > room && std::find(log.begin(), log.end(), name) == log.end())
    log.emplace_back(name);
}

}  // namespace

bool choice_combo(const char* label, int& value, std::span<const Choice> choices) {
  const bool valid = value >= 0 && value < static_cast<int>(choices.size());
  const Choice& now = choices[valid ? static_cast<size_t>(value) : 0];
  note_if_cut_off(now.name);
  bool changed = false;
  if (ImGui::BeginCombo(label, now.name)) {
    for (size_t i = 0; i < choices.size(); ++i) {
      const bool selected = static_cast<int>(i) == value;
      if (ImGui::Selectable(choices[i].name, selected) && !selected) {
        value = static_cast<int>(i);
        changed = true;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", choices[i].note);
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  } else if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", now.note);
  }
  return changed;
}

void note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

const std::vector<std::string>& cut_off_choices() {
  return cut_off_log();
}

}  // namespace physarum::app
