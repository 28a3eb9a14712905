// The Presets gallery's thumbnails: a small grow of each preset (explore_previews.hpp), rendered
// once and kept as PNG files in the cache folder ($XDG_CACHE_HOME/physarum/thumbnails, else
// ~/.cache/physarum/thumbnails). A thumbnail's file is named by a hash of the preset file's bytes,
// the program's version and the thumbnail's size and steps: an edited preset (or a new version of
// the program) finds no file and is rendered again; the unchanged ones are read back.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "window/explore_previews.hpp"

namespace physarum::app {

inline constexpr Size kThumbnailSize{256, 144};
inline constexpr int kThumbnailSteps = 300;

// The default cache folder; empty when there is none (then thumbnails are not kept).
std::filesystem::path thumbnail_cache_dir();

// 16 hex digits naming the thumbnail of a preset file holding `preset_text`.
std::string thumbnail_key(std::string_view preset_text);

// How a thumbnail is made from a preset (its map paths made absolute): render_preview in the
// window, something cheaper in tests.
using ThumbnailMaker = std::function<PreviewImage(const Preset&)>;

struct Thumbnail {
  PreviewImage image;
  bool from_cache = false;
  std::filesystem::path file;  // the cache file, or empty when the cache folder is empty
};

// The thumbnail of `preset_file`: read from `cache_dir` when there, else made and written there
// (creating the folder). A cache file that cannot be read is made again; one that cannot be written
// is skipped (the image is still returned). Throws Error for a preset that cannot be read or parsed.
Thumbnail thumbnail_of(const std::filesystem::path& preset_file, const std::filesystem::path& cache_dir,
                       const ThumbnailMaker& make);

}  // namespace physarum::app
