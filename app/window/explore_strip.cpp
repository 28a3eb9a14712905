#include "window/explore_strip.hpp"

#include <glad/gl.h>
#include <imgui.h>

#include <charconv>
#include <cstdint>
#include <string_view>

#include "window/explore.hpp"

namespace physarum::app {
namespace {

std::vector<std::string> smooth_palettes(const render::PaletteSet& set) {
  std::vector<std::string> names;
  for (const auto& p : set.palettes) {
    if (!p.discrete) names.push_back(p.name);
  }
  return names;
}

}  // namespace

void ExploreStrip::explore(WindowCore& core, Toasts& toasts) {
  explore_seed(core, toasts, next_seed_);
}

void ExploreStrip::explore_seed(WindowCore& core, Toasts& toasts, uint64_t seed) {
  next_seed_ = seed + 1;
  const Preset p = explore_draw(core.preset, seed, smooth_palettes(core.palettes()));
  if (const CommandResult r = core.apply_preset(p, core.preset_file); !r) {
    toasts.error(r.error());
    return;
  }
  shown_seed_ = seed;
  shown_ = true;
  (void)core.reset();  // grow the new parameters from the start; a refusal shows as the notice
  toasts.info("explore seed " + std::to_string(seed));
  const auto& pal = core.palettes().palettes[core.palettes().index_of(p.display.palette)];
  worker_.request(seed, p, pal);
  entries_.push_back({seed, p, {}});
  if (entries_.size() > kStrip) entries_.pop_front();
}

void ExploreStrip::upload_finished() {
  for (PreviewWorker::Done& d : worker_.take_done()) {
    if (d.image.rgba.empty()) continue;
    for (Entry& e : entries_) {
      if (e.seed != d.id || e.texture) continue;
      e.texture = render::make_texture_2d(d.image.width, d.image.height, GL_RGBA8);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTextureSubImage2D(e.texture.get(), 0, 0, 0, d.image.width, d.image.height, GL_RGBA, GL_UNSIGNED_BYTE,
                          d.image.rgba.data());
    }
  }
}

void ExploreStrip::draw(WindowCore& core, Toasts& toasts) {
  upload_finished();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Anchored at the bottom right and sized to fit: the strip grows upward as draws arrive.
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + vp->WorkSize.y - 10),
                          ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Explore", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (ImGui::Button("Explore (E)")) explore(core, toasts);
    ImGui::SameLine();
    if (shown_) {
      ImGui::Text("explore seed %llu", static_cast<unsigned long long>(shown_seed_));
    } else {
      ImGui::TextDisabled("next seed %llu", static_cast<unsigned long long>(next_seed_));
    }
    ImGui::SetNextItemWidth(120);
    const bool typed =
        ImGui::InputTextWithHint("##seed", "seed", typed_, sizeof typed_,
                                 ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CharsDecimal);
    ImGui::SameLine();
    if (ImGui::Button("Draw this seed") || typed) {
      uint64_t seed = 0;
      const std::string_view text(typed_);
      const auto r = std::from_chars(text.data(), text.data() + text.size(), seed);
      if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) {
        toasts.error("explore seed: type a whole number");
      } else {
        explore_seed(core, toasts, seed);
      }
    }
    // The strip, newest first; a click returns to that draw.
    const float w = 96,
                h = w * static_cast<float>(kPreviewSize.height) / static_cast<float>(kPreviewSize.width);
    int shown = 0;
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it, ++shown) {
      if (shown % 3 != 0) ImGui::SameLine();
      ImGui::PushID(static_cast<int>(it->seed & 0x7fffffff));
      bool clicked = false;
      if (it->texture) {
        clicked = ImGui::ImageButton(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(it->texture.get())),
                                     ImVec2(w, h), ImVec2(0, 0), ImVec2(1, 1), 1);
      } else {
        clicked = ImGui::Button("growing...", ImVec2(w + 2, h + 2));
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("explore seed %llu", static_cast<unsigned long long>(it->seed));
      ImGui::PopID();
      if (clicked) {
        const Preset p = it->preset;
        const uint64_t seed = it->seed;
        if (const CommandResult r = core.apply_preset(p, core.preset_file); r) {
          (void)core.reset();  // a refusal shows as the panel's notice
          shown_seed_ = seed;
          shown_ = true;
        } else {
          toasts.error(r.error());
        }
        break;
      }
    }
  }
  ImGui::End();
}

}  // namespace physarum::app
