#include "window/thumbnails.hpp"

#include <cmath>
#include <cstdio>
#include <system_error>

#include "run/recipe.hpp"
#include "sim/image.hpp"
#include "sim/input_file.hpp"
#include "sim/png_writer.hpp"
#include "sim/preset.hpp"
#include "window/xdg_folders.hpp"

namespace physarum::app {
namespace {

constexpr size_t kMaxPresetBytes = size_t{1} << 20;  // as load_preset reads them

// FNV-1a: small, and the same on every machine; a collision costs only a wrong thumbnail.
void fnv(uint64_t& h, std::string_view bytes) {
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  h ^= 0xff;  // a separator, so "ab"+"c" and "a"+"bc" differ
  h *= 0x100000001b3ULL;
}

// Reads a cached PNG back as RGBA; empty when it is missing or corrupt.
PreviewImage read_cached(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return {};
  try {
    const LumaImage img = load_colour(file);
    PreviewImage out{img.width, img.height,
                     std::vector<uint8_t>(static_cast<size_t>(img.width * img.height) * 4)};
    const size_t n = static_cast<size_t>(img.width) * static_cast<size_t>(img.height);
    for (size_t i = 0; i < n; ++i) {
      for (size_t c = 0; c < 3; ++c) {
        const float v = img.rgb.empty() ? img.luma[i] : img.rgb[i * 3 + c];
        out.rgba[i * 4 + c] = static_cast<uint8_t>(std::lround(v * 255.0f));
      }
      out.rgba[i * 4 + 3] = 255;
    }
    return out;
  } catch (const Error&) {
    return {};
  }
}

// Over black, as the cached file is read back (a transparent background would otherwise differ).
void make_opaque(PreviewImage& img) {
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    const unsigned a = img.rgba[i + 3];
    for (size_t c = 0; c < 3; ++c) img.rgba[i + c] = static_cast<uint8_t>((img.rgba[i + c] * a + 127) / 255);
    img.rgba[i + 3] = 255;
  }
}

}  // namespace

std::filesystem::path thumbnail_cache_dir() {
  return xdg_folder(XdgFolder::Cache, "thumbnails");
}

std::string thumbnail_key(std::string_view preset_text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  fnv(h, "physarum thumbnail");
  fnv(h, PHYSARUM_VERSION);
  fnv(h, std::to_string(kThumbnailSize.width) + "x" + std::to_string(kThumbnailSize.height) + "@" +
             std::to_string(kThumbnailSteps));
  fnv(h, preset_text);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

Thumbnail thumbnail_of(const std::filesystem::path& preset_file, const std::filesystem::path& cache_dir,
                       const ThumbnailMaker& make) {
  const std::string text = read_input_file(preset_file, "preset", kMaxPresetBytes);
  Thumbnail t;
  if (!cache_dir.empty()) {
    t.file = cache_dir / (thumbnail_key(text) + ".png");
    t.image = read_cached(t.file);
    if (!t.image.rgba.empty()) {
      t.from_cache = true;
      return t;
    }
  }
  Preset p = parse_preset(text, preset_file.string());
  run::locate_maps_beside(p, preset_file);
  t.image = make(p);
  make_opaque(t.image);
  if (t.file.empty() || t.image.rgba.empty()) return t;
  std::error_code ec;
  std::filesystem::create_directories(cache_dir, ec);
  try {
    if (!ec) write_png_rgba(t.file, t.image.rgba.data(), t.image.width, t.image.height);
  } catch (const Error&) {
    // A read-only or full cache: the thumbnail is shown, just made again next time.
  }
  return t;
}

}  // namespace physarum::app
