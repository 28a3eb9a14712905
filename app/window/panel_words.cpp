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

// One paragraph (no newline) into `lines`: as many words on a line as fit.
void wrap_paragraph(std::string_view para, float width, const std::function<float(std::string_view)>& measure,
                    std::vector<std::string>& lines) {
  size_t start = 0, end = 0;  // the line so far: para[start, end)
  for (size_t i = 0;;) {
    const size_t word = para.find_first_not_of(' ', i);
    if (word == std::string_view::npos) break;
    size_t word_end = para.find(' ', word);
    if (word_end == std::string_view::npos) word_end = para.size();
    if (end > start && measure(para.substr(start, word_end - start)) > width) {
      lines.emplace_back(para.substr(start, end - start));
      start = word;
    }
    end = i = word_end;
  }
  lines.emplace_back(para.substr(start, end - start));
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
  text_wrapped(text);
  ImGui::PopStyleColor();
}

std::vector<std::string> wrap_at_spaces(std::string_view text, float width,
                                        const std::function<float(std::string_view)>& measure) {
  std::vector<std::string> lines;
  for (size_t pos = 0;;) {
    const size_t newline = text.find('\n', pos);
    wrap_paragraph(text.substr(pos, newline == std::string_view::npos ? newline : newline - pos), width,
                   measure, lines);
    if (newline == std::string_view::npos) return lines;
    pos = newline + 1;
  }
}

void text_wrapped(std::string_view text) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
  const auto measure = [](std::string_view s) {
    return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
  };
  for (const std::string& line : wrap_at_spaces(text, width, measure)) ImGui::TextUnformatted(line.c_str());
}

const std::vector<std::string>& cut_off_choices() {
  return cut_off_log();
}

}  // namespace physarum::app
