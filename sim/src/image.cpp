// Seed images: PNG (libpng) and JPEG (libjpeg-turbo) only, both hardened Debian libraries. The file
// must be a regular file; its claimed size is checked against the limits and against what a file of
// its length can possibly hold before any pixel memory is allocated; the pixels are reduced to one
// brightness per pixel row by row and resized with stb_image_resize.
#include "sim/image.hpp"

#include <stb_image_resize.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "image_decoders.hpp"
#include "sim/input_file.hpp"

namespace physarum {
namespace image_detail {

float luma_of(const float* c, int channels) {
  switch (channels) {
    case 1: return c[0];
    case 2: return c[0] * c[1];
    case 3: return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
    default: return (0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]) * c[3];
  }
}

// The samples of pixel x of a decoded row (8-bit, or 16-bit big-endian as PNG stores them) in [0, 1].
void pixel_samples(const unsigned char* row, int x, int channels, int bytes_per_sample, float* c) {
  const float scale = bytes_per_sample == 2 ? 1.0f / 65535.0f : 1.0f / 255.0f;
  for (int k = 0; k < channels; ++k) {
    const unsigned char* s = row + (static_cast<size_t>(x) * channels + k) * bytes_per_sample;
    const unsigned v = bytes_per_sample == 2 ? (unsigned{s[0]} << 8) | s[1] : s[0];
    c[k] = static_cast<float>(v) * scale;
  }
}

void row_to_luma(const unsigned char* row, int width, int channels, int bytes_per_sample, float* out) {
  float c[4];
  for (int x = 0; x < width; ++x) {
    pixel_samples(row, x, channels, bytes_per_sample, c);
    out[x] = std::clamp(luma_of(c, channels), 0.0f, 1.0f);
  }
}

void row_to_rgb(const unsigned char* row, int width, int channels, int bytes_per_sample, float* out) {
  float c[4];
  for (int x = 0; x < width; ++x) {
    pixel_samples(row, x, channels, bytes_per_sample, c);
    float* o = out + static_cast<size_t>(x) * 3;
    if (channels <= 2) {
      o[0] = o[1] = o[2] = channels == 2 ? c[0] * c[1] : c[0];
    } else {
      const float alpha = channels == 4 ? c[3] : 1.0f;
      for (int k = 0; k < 3; ++k) o[k] = c[k] * alpha;
    }
  }
}

void check_size(const std::string& name, long long w, long long h, double decoder_bytes) {
  // In double: a corrupt header's sides (up to 2^32 - 1 each) overflow a 64-bit product.
  const double pixels = static_cast<double>(w) * static_cast<double>(h);
  if (pixels > static_cast<double>(kMaxImagePixels)) {
    throw Error(name + " is " + std::to_string(w) + "x" + std::to_string(h) + " = " +
                std::to_string(static_cast<long long>(pixels / 1e6)) + " megapixels; the limit is " +
                std::to_string(kMaxImagePixels / 1000000) + " megapixels");
  }
  const double need = 4.0 * pixels + decoder_bytes;
  if (need > static_cast<double>(kImageMemoryBudget)) {
    throw Error(name + " (" + std::to_string(w) + "x" + std::to_string(h) + ") would need " +
                std::to_string(static_cast<long long>(need / (1 << 20))) + " MiB to decode; the limit is " +
                std::to_string(kImageMemoryBudget >> 20) + " MiB");
  }
}

}  // namespace image_detail

namespace {

void resize(const std::vector<float>& in, int iw, int ih, float* out, int ow, int oh, int out_stride_px,
            float s0, float t0, float s1, float t1) {
  const int ok = stbir_resize_region(in.data(), iw, ih, iw * static_cast<int>(sizeof(float)), out, ow, oh,
                                     out_stride_px * static_cast<int>(sizeof(float)), STBIR_TYPE_FLOAT, 1,
                                     STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP, STBIR_EDGE_CLAMP,
                                     STBIR_FILTER_MITCHELL, STBIR_FILTER_MITCHELL, STBIR_COLORSPACE_LINEAR,
                                     nullptr, s0, t0, s1, t1);
  if (!ok) throw Error("resizing the seed image failed (out of memory?)");
}

}  // namespace

namespace {
LumaImage decode_any(std::string_view bytes, const std::string& name, bool colour) {
  static constexpr std::string_view kPng("\x89PNG\r\n\x1a\n", 8);
  static constexpr std::string_view kJpeg("\xff\xd8\xff", 3);
  if (bytes.empty()) throw Error(name + " is empty (0 bytes)");
  if (bytes.substr(0, kPng.size()) == kPng) return image_detail::decode_png(bytes, name, colour);
  if (bytes.substr(0, kJpeg.size()) == kJpeg) return image_detail::decode_jpeg(bytes, name, colour);
  // Formats with a signature that were accepted once: say what the file is and what to do.
  const char* other = bytes.substr(0, 2) == "BM"                                 ? "a BMP"
                      : bytes.substr(0, 4) == "GIF8"                             ? "a GIF"
                      : bytes.substr(0, 4) == "RIFF"                             ? "a RIFF (WebP?)"
                      : bytes.substr(0, 2) == "II" || bytes.substr(0, 2) == "MM" ? "a TIFF"
                                                                                 : nullptr;
  const std::string accepted = "only PNG and JPEG images are accepted (convert it to PNG first)";
  if (other) throw Error(name + " looks like " + other + " file; " + accepted);
  throw Error(name + " is not a PNG or JPEG file (no PNG or JPEG signature at its start); " + accepted);
}

}  // namespace

LumaImage decode_luma(std::string_view bytes, const std::string& name) {
  return decode_any(bytes, name, false);
}
LumaImage decode_colour(std::string_view bytes, const std::string& name) {
  return decode_any(bytes, name, true);
}

LumaImage load_luma(const std::filesystem::path& file) {
  const std::string bytes = read_input_file(file, "image", kMaxImageFileBytes);
  return decode_luma(bytes, "image '" + file.string() + "'");
}
LumaImage load_colour(const std::filesystem::path& file) {
  const std::string bytes = read_input_file(file, "image", kMaxImageFileBytes);
  return decode_colour(bytes, "image '" + file.string() + "'");
}

bool is_grey(const LumaImage& img) {
  for (size_t i = 0; i + 2 < img.rgb.size(); i += 3) {
    if (img.rgb[i] != img.rgb[i + 1] || img.rgb[i] != img.rgb[i + 2]) return false;
  }
  return true;
}

std::vector<float> image_to_channels(const LumaImage& img, Size field, float strength, ImageFit fit,
                                     int channels) {
  if (channels <= 1 || img.rgb.empty() || is_grey(img)) return image_to_field(img, field, strength, fit);
  const size_t pixels = static_cast<size_t>(img.width) * static_cast<size_t>(img.height);
  if (img.rgb.size() != pixels * 3) throw Error("seed image is empty or inconsistent");
  const size_t cells = static_cast<size_t>(field.width) * static_cast<size_t>(field.height);
  std::vector<float> planes(cells * static_cast<size_t>(channels), 0.0f);
  LumaImage one;  // one colour component as a plane, resized exactly as the luma is
  one.width = img.width;
  one.height = img.height;
  one.luma.resize(pixels);
  for (int c = 0; c < std::min(channels, 3); ++c) {
    for (size_t i = 0; i < pixels; ++i) one.luma[i] = img.rgb[i * 3 + static_cast<size_t>(c)];
    const std::vector<float> plane = image_to_field(one, field, strength, fit);
    std::copy(plane.begin(), plane.end(),
              planes.begin() + static_cast<ptrdiff_t>(cells * static_cast<size_t>(c)));
  }
  return planes;
}

std::vector<float> image_to_field(const LumaImage& img, Size field, float strength, ImageFit fit) {
  if (img.width <= 0 || img.height <= 0 ||
      img.luma.size() != static_cast<size_t>(img.width) * static_cast<size_t>(img.height)) {
    throw Error("seed image is empty or inconsistent");
  }
  if (field.width <= 0 || field.height <= 0) throw Error("field size must be positive");
  if (!std::isfinite(strength)) throw Error("image strength must be a finite number");

  const int fw = field.width, fh = field.height;
  std::vector<float> out(static_cast<size_t>(fw) * static_cast<size_t>(fh), 0.0f);
  const double sx = static_cast<double>(fw) / img.width;
  const double sy = static_cast<double>(fh) / img.height;

  if (fit == ImageFit::Fill) {
    // Scale to cover the field, then use only the centred part of the image that lands on it.
    const double scale = std::max(sx, sy);
    const double u = std::min(1.0, fw / (img.width * scale));
    const double v = std::min(1.0, fh / (img.height * scale));
    const auto s0 = static_cast<float>((1.0 - u) / 2), t0 = static_cast<float>((1.0 - v) / 2);
    resize(img.luma, img.width, img.height, out.data(), fw, fh, fw, s0, t0, static_cast<float>(s0 + u),
           static_cast<float>(t0 + v));
  } else {
    // All of the image, centred; the bands beside or above it stay 0.
    const double scale = std::min(sx, sy);
    const int dw = std::clamp(static_cast<int>(std::lround(img.width * scale)), 1, fw);
    const int dh = std::clamp(static_cast<int>(std::lround(img.height * scale)), 1, fh);
    const int ox = (fw - dw) / 2, oy = (fh - dh) / 2;
    float* dst = out.data() + static_cast<size_t>(oy) * fw + ox;
    resize(img.luma, img.width, img.height, dst, dw, dh, fw, 0, 0, 1, 1);
  }
  // The Mitchell filter rings slightly past sharp edges; brightness stays within [0, 1].
  for (float& x : out) x = std::clamp(x, 0.0f, 1.0f) * strength;
  return out;
}

}  // namespace physarum
