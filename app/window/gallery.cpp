#include "window/gallery.hpp"

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <system_error>

#include "window/thumbnails.hpp"

namespace physarum::app {
namespace {

constexpr auto kRecheck = std::chrono::seconds(2);  // how often preset files are looked at for edits
constexpr size_t kSummaryWidth = 90;                // about three lines under a thumbnail
constexpr size_t kTooltipWidth = 400;               // the whole first sentence, on hover

std::filesystem::file_time_type mtime_of(const std::filesystem::path& file) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(file, ec);
  return ec ? std::filesystem::file_time_type{} : t;
}

bool same_files(const std::vector<run::PresetEntry>& a, const std::vector<run::PresetEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const auto& x, const auto& y) { return x.file == y.file && x.user == y.user; });
}

}  // namespace

ImTextureID texture_id(const render::Texture& t) {
  return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(t.get()));
}

render::Texture upload_preview(const PreviewImage& img) {
  render::Texture t = render::make_texture_2d(img.width, img.height, GL_RGBA8);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t.get(), 0, 0, 0, img.width, img.height, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data());
  return t;
}

size_t Gallery::pending() const {
  return static_cast<size_t>(
      std::count_if(items_.begin(), items_.end(), [](const Item& i) { return i.asked; }));
}

void Gallery::ask(Item& item) {
  if (!worker_) worker_ = std::make_unique<PreviewWorker>();
  item.asked = next_id_++;
  item.mtime = mtime_of(item.entry.file);
  worker_->request(item.asked, [file = item.entry.file, dir = thumbnail_cache_dir(), pals = palettes_] {
    return thumbnail_of(file, dir,
                        [&](const Preset& p) {
                          return render_preview(p, pals->palettes[pals->index_of(p.display.palette)],
                                                kThumbnailSize, kThumbnailSteps);
                        })
        .image;
  });
}

void Gallery::sync(const std::vector<run::PresetEntry>& presets, const render::PaletteSet& palettes) {
  if (!palettes_) palettes_ = std::make_shared<const render::PaletteSet>(palettes);
  std::vector<run::PresetEntry> shown;
  for (const Item& i : items_) shown.push_back(i.entry);
  if (!same_files(shown, presets)) {
    items_.clear();
    for (const run::PresetEntry& e : presets) {
      items_.push_back({e,
                        run::preset_summary(e.file, kSummaryWidth),
                        run::preset_summary(e.file, kTooltipWidth),
                        {},
                        0,
                        false,
                        {}});
      ask(items_.back());
    }
    checked_ = std::chrono::steady_clock::now();
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - checked_ < kRecheck) return;
  checked_ = now;
  for (Item& i : items_) {
    if (!i.asked && mtime_of(i.entry.file) != i.mtime) {
      i.summary = run::preset_summary(i.entry.file, kSummaryWidth);
      i.description = run::preset_summary(i.entry.file, kTooltipWidth);
      ask(i);  // the old picture stays until the new one arrives
    }
  }
}

void Gallery::upload_finished() {
  if (!worker_) return;
  for (PreviewWorker::Done& d : worker_->take_done()) {
    for (Item& i : items_) {
      if (i.asked != d.id) continue;
      i.asked = 0;
      i.failed = d.image.rgba.empty();
      if (!i.failed) i.texture = upload_preview(d.image);
    }
  }
}

bool Gallery::draw_item(Item& item, float width, bool current) {
  const ImVec2 size(
      width, width * static_cast<float>(kThumbnailSize.height) / static_cast<float>(kThumbnailSize.width));
  bool clicked = false;
  if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  if (item.texture) {
    clicked = ImGui::ImageButton(texture_id(item.texture), size, ImVec2(0, 0), ImVec2(1, 1), current ? 2 : 0);
  } else {
    clicked = ImGui::Button(item.failed ? "no picture" : "growing...", size);
  }
  if (current) ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(item.description.empty() ? "(no description)" : item.description.c_str());
    ImGui::TextDisabled("%s", item.entry.file.c_str());
    ImGui::TextDisabled("click to load");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::TextUnformatted(
      (item.entry.name + (item.entry.user ? " (yours)" : "") + (current ? "  *" : "")).c_str());
  if (!item.summary.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", item.summary.c_str());
    ImGui::PopStyleColor();
  }
  return clicked;
}

int Gallery::draw(const std::vector<run::PresetEntry>& presets, const render::PaletteSet& palettes,
                  const std::string& current) {
  sync(presets, palettes);
  upload_finished();
  int clicked = -1;
  if (items_.empty()) return clicked;
  if (const size_t n = pending(); n > 0) ImGui::TextDisabled("making %zu thumbnails...", n);
  if (!ImGui::BeginTable("##gallery", 2, ImGuiTableFlags_SizingStretchSame)) return clicked;
  for (size_t i = 0; i < items_.size(); ++i) {
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    const bool is_current = !current.empty() && items_[i].entry.file == std::filesystem::path(current);
    if (draw_item(items_[i], ImGui::GetContentRegionAvail().x, is_current)) clicked = static_cast<int>(i);
    ImGui::PopID();
  }
  ImGui::EndTable();
  return clicked;
}

}  // namespace physarum::app
