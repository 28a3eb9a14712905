// The Presets gallery: each preset as a thumbnail (window/thumbnails.hpp) with its name and the
// first sentence of its comment, two to a row in the side panel. Thumbnails are made in a
// background thread and uploaded as they arrive (a placeholder until then), so the window never
// waits; a preset file that changes on disk is drawn again. Needs a current OpenGL context to draw.
#pragma once

#include <imgui.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "render/gl_objects.hpp"
#include "render/palette.hpp"
#include "run/preset_library.hpp"
#include "window/explore_previews.hpp"

namespace physarum::app {

// A texture holding `img` (rows top to bottom), for ImGui::Image.
render::Texture upload_preview(const PreviewImage& img);
// How ImGui names the texture.
ImTextureID texture_id(const render::Texture& t);

class Gallery {
 public:
  // The grid of `presets`; `current` (a file) is outlined. Returns the index of the thumbnail
  // clicked this frame, or -1.
  int draw(const std::vector<run::PresetEntry>& presets, const render::PaletteSet& palettes,
           const std::string& current);
  // Thumbnails still being made.
  size_t pending() const;

 private:
  struct Item {
    run::PresetEntry entry;
    std::string summary;      // cut to fit under the thumbnail
    std::string description;  // the whole first sentence
    std::filesystem::file_time_type mtime{};
    uint64_t asked = 0;  // the id of the request in flight; 0: none
    bool failed = false;
    render::Texture texture;
  };
  void sync(const std::vector<run::PresetEntry>& presets, const render::PaletteSet& palettes);
  void ask(Item& item);
  void upload_finished();
  bool draw_item(Item& item, float width, bool current);

  std::vector<Item> items_;
  std::shared_ptr<const render::PaletteSet> palettes_;
  std::unique_ptr<PreviewWorker> worker_;  // started when the gallery first shows
  uint64_t next_id_ = 1;
  std::chrono::steady_clock::time_point checked_{};
};

}  // namespace physarum::app
