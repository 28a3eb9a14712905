#include "window/species_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "sim/registry.hpp"
#include "window/panel_values.hpp"
#include "window/toast.hpp"

namespace physarum::app {
namespace {

ImVec4 swatch_colour(uint32_t rgb) {
  const auto channel = [&](int shift) { return static_cast<float>((rgb >> shift) & 0xffU) / 255.0f; };
  return ImVec4(channel(16), channel(8), channel(0), 1.0f);
}

// A species' colour and name, as a row or column heading; the name is cut to `width` pixels with
// the whole of it in a tooltip.
void species_heading(const Species& sp, float width, bool beside_sliders) {
  // Beside a row of sliders the swatch and the name sit on their text's line.
  if (beside_sliders) ImGui::SetCursorPosY(ImGui::GetCursorPosY() + ImGui::GetStyle().FramePadding.y);
  const float box = ImGui::GetTextLineHeight();
  ImGui::ColorButton("##swatch", swatch_colour(sp.colour), ImGuiColorEditFlags_NoTooltip, ImVec2(box, box));
  ImGui::SameLine(0.0f, 4.0f);
  const float room = std::max(0.0f, width - box - 4.0f);
  std::string shown = sp.name;
  while (shown.size() > 1 && ImGui::CalcTextSize(shown.c_str()).x > room) shown.pop_back();
  ImGui::TextUnformatted(shown.c_str());
  if (shown.size() < sp.name.size() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sp.name.c_str());
}

// One entry of W: a slider in the registry's range, its meaning as the tooltip.
bool matrix_cell(SpeciesSet& s, int r, int c, Toasts& toasts) {
  const int n = static_cast<int>(s.list.size());
  float& w = s.interaction[static_cast<size_t>(r * n + c)];
  float typed = w;
  const FloatLimit& limit = slider_limit(registry::Section::Interaction, "matrix");
  ImGui::PushID(r * kMaxSpecies + c);
  ImGui::SetNextItemWidth(-1.0f);
  bool changed = false;
  if (ImGui::SliderFloat("##w", &typed, limit.lo, limit.hi, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
    std::string refusal;
    changed = settle(typed, w, limit, &refusal);
    if (!refusal.empty()) toasts.error(refusal);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", interaction_meaning(s, r, c).c_str());
  ImGui::PopID();
  return changed;
}

}  // namespace

bool palette_shown(int species, CaveMode cave) {
  return species <= 1 || cave != CaveMode::Off;
}

std::vector<std::string_view> species_display_keys(int species, CaveMode cave) {
  std::vector<std::string_view> keys;
  if (species > 1 && cave == CaveMode::Off) keys.push_back("blend");
  keys.push_back("background");
  return keys;
}

bool cave_channel_shown(int species, CaveMode cave) {
  return species > 1 && cave != CaveMode::Off;
}

std::string interaction_meaning(const SpeciesSet& s, int row, int col) {
  const int n = static_cast<int>(s.list.size());
  const float w = s.interaction.at(static_cast<size_t>(row * n + col));
  const char* verb = w > 0.0f ? "follows" : (w < 0.0f ? "avoids" : "ignores");
  const std::string& senser = s.list.at(static_cast<size_t>(row)).name;
  const std::string trail = row == col ? "its own" : s.list.at(static_cast<size_t>(col)).name + "'s";
  char weight[32];
  std::snprintf(weight, sizeof weight, "%+.2f", static_cast<double>(w));
  return senser + " " + verb + " " + trail + " trail (" + weight + ")";
}

bool interaction_matrix(SpeciesSet& s, Toasts& toasts) {
  const int n = static_cast<int>(s.list.size());
  if (n < 1 || s.interaction.size() != static_cast<size_t>(n * n)) return false;
  ImGui::TextWrapped(
      "Interaction: each row's species senses each column's trail with this weight "
      "(+ follows, - avoids, 0 ignores).");
  const float avail = ImGui::GetContentRegionAvail().x;
  const float heading = std::min(96.0f, avail * 0.25f);
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoPadOuterX;
  if (!ImGui::BeginTable("interaction", n + 1, flags)) return false;
  const float cell = (avail - heading) / static_cast<float>(n) - ImGui::GetStyle().CellPadding.x * 2.0f;
  ImGui::TableSetupColumn("##senses", ImGuiTableColumnFlags_WidthFixed, heading);
  for (int c = 0; c < n; ++c) ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, cell);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("senses");
  for (int c = 0; c < n; ++c) {
    ImGui::TableNextColumn();
    ImGui::PushID(100 + c);
    species_heading(s.list[static_cast<size_t>(c)], cell, false);
    ImGui::PopID();
  }
  bool changed = false;
  for (int r = 0; r < n; ++r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(200 + r);
    species_heading(s.list[static_cast<size_t>(r)], heading, true);
    ImGui::PopID();
    for (int c = 0; c < n; ++c) {
      ImGui::TableNextColumn();
      changed |= matrix_cell(s, r, c, toasts);
    }
  }
  ImGui::EndTable();
  return changed;
}

bool cave_channel_choice(DisplayParams& d, const SpeciesSet& s) {
  const int n = static_cast<int>(s.list.size());
  const auto name_of = [&](int ch) {
    return ch == kCaveFromSum || ch >= n ? std::string("all species (sum)")
                                         : s.list[static_cast<size_t>(ch)].name;
  };
  bool changed = false;
  if (ImGui::BeginCombo("cave reads", name_of(d.cave_channel).c_str())) {
    for (int ch = kCaveFromSum; ch < n; ++ch) {
      ImGui::PushID(ch);
      if (ImGui::Selectable(name_of(ch).c_str(), ch == d.cave_channel) && ch != d.cave_channel) {
        d.cave_channel = ch;
        changed = true;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("which trail the cave map is made of");
  return changed;
}

}  // namespace physarum::app
