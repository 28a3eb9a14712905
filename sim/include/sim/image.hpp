// Seed images: PNG or JPEG, decoded with libpng / libjpeg-turbo, reduced to luminance, resized to
// the field.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/params.hpp"

namespace physarum {

struct LumaImage {
  int width = 0;
  int height = 0;
  std::vector<float> luma;  // [0, 1], row-major, y down
  std::vector<float> rgb;   // only from load_colour/decode_colour: R, G, B per pixel, [0, 1]
};

inline constexpr long long kMaxImagePixels = 256LL * 1000 * 1000;
// Memory for decoding one image: the result (4 bytes a pixel) plus the decoder's own buffers.
inline constexpr long long kImageMemoryBudget = 2LL << 30;
inline constexpr size_t kMaxImageFileBytes = size_t{1} << 30;

// PNG and JPEG only (BMP, GIF, TGA and the rest are refused with a message saying so: their stb
// decoders were not safe on hostile files, and PNG and JPEG have hardened Debian libraries). A
// regular file only. Throws Error for unreadable, truncated, corrupt, empty or over-256-megapixel
// files, and for files claiming more pixels than their length can hold; sizes are checked before
// any pixel memory is allocated.
LumaImage load_luma(const std::filesystem::path& file);
// The same from bytes in memory; `name` appears in messages ("image 'x.png'").
LumaImage decode_luma(std::string_view bytes, const std::string& name);
// The same with the colour kept too (`rgb`; alpha composites over black as for luma).
LumaImage load_colour(const std::filesystem::path& file);
LumaImage decode_colour(std::string_view bytes, const std::string& name);
// True when every pixel has R = G = B (or the image has no colour: `rgb` empty).
bool is_grey(const LumaImage& img);

// Resized with stb_image_resize (Mitchell filter), times strength; cells outside a letterboxed
// image are 0.
std::vector<float> image_to_field(const LumaImage& img, Size field, float strength,
                                  ImageFit fit = ImageFit::Fill);
// The seed for a field of `channels` species' channels (docs/MODEL.md, "Several species"): one plane (what
// image_to_field gives, which set_field copies into every channel) for one channel or a grey image;
// else `channels` planes (S, H, W): channels 0, 1, 2 from the red, green and blue, each resized as
// the luma is, a fourth channel 0.
std::vector<float> image_to_channels(const LumaImage& img, Size field, float strength, ImageFit fit,
                                     int channels);

}  // namespace physarum
