// Seed images: decoded with stb_image, reduced to luminance, resized to the field.
#pragma once

#include <filesystem>
#include <vector>

#include "sim/params.hpp"

namespace physarum {

struct LumaImage {
  int width = 0;
  int height = 0;
  std::vector<float> luma;  // [0, 1], row-major, y down
};

inline constexpr long long kMaxImagePixels = 256LL * 1000 * 1000;

// PNG, JPEG, BMP, TGA, GIF (first frame). Throws Error for unreadable, truncated, corrupt, empty
// or over-256-megapixel files; the header is checked before any pixel is decoded.
LumaImage load_luma(const std::filesystem::path& file);

enum class ImageFit { Fit, Fill };  // Fit: all of the image, letterboxed; Fill: covers, cropped
// Resized with stb_image_resize (Mitchell filter), times strength; cells outside a letterboxed
// image are 0.
std::vector<float> image_to_field(const LumaImage& img, Size field, float strength,
                                  ImageFit fit = ImageFit::Fill);

}  // namespace physarum
