// Seed images: the header is read first (size limits, format), then the pixels are decoded with
// stb_image, reduced to one brightness per pixel and resized with stb_image_resize.
#include "sim/image.hpp"

#include <stb_image.h>
#include <stb_image_resize.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <string>

namespace physarum {
namespace {

struct StbiFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

std::string reason() {
  const char* r = stbi_failure_reason();
  return r ? r : "unknown reason";
}

// Brightness of one pixel: Rec. 709 luma weights applied to the gamma-encoded sRGB values in [0, 1]
// (Y' = 0.2126 R' + 0.7152 G' + 0.0722 B', no linearisation: what a person sees as "bright" in the
// file). Alpha composites over black, so transparent parts seed nothing.
float luma_of(const float* c, int channels) {
  switch (channels) {
    case 1: return c[0];
    case 2: return c[0] * c[1];
    case 3: return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
    default: return (0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]) * c[3];
  }
}

template <class T>
std::vector<float> to_luma(const T* px, size_t count, int channels, float scale) {
  std::vector<float> out(count);
  float c[4];
  for (size_t i = 0; i < count; ++i) {
    for (int k = 0; k < channels; ++k) c[k] = static_cast<float>(px[i * channels + k]) * scale;
    out[i] = std::clamp(luma_of(c, channels), 0.0f, 1.0f);
  }
  return out;
}

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

LumaImage load_luma(const std::filesystem::path& file) {
  const std::string name = "image '" + file.string() + "'";
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw Error(name + " is a directory");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open " + name + ": " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) throw Error("cannot read " + name);
  if (size == 0) throw Error(name + " is empty (0 bytes)");
  if (size > std::numeric_limits<int>::max()) throw Error(name + " is larger than 2 GiB; refused");
  std::vector<unsigned char> bytes(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) throw Error("cannot read " + name);
  const int len = static_cast<int>(size);

  // stb_image refuses PNG headers over 1 GiB of pixels with a vague "unknown image type"; read the
  // dimensions from the IHDR chunk first so that the size limit is reported as such.
  const auto too_large = [&](long long w, long long h) {
    // In double: a corrupt header's sides (up to 2^32 - 1 each) overflow a 64-bit product.
    return Error(
        name + " is " + std::to_string(w) + "x" + std::to_string(h) + " = " +
        std::to_string(static_cast<long long>(static_cast<double>(w) * static_cast<double>(h) / 1e6)) +
        " megapixels; the limit is " + std::to_string(kMaxImagePixels / 1000000) + " megapixels");
  };
  static constexpr unsigned char kPng[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                             0,    0,   0,   13,  'I',  'H',  'D',  'R'};
  if (bytes.size() >= 24 && std::memcmp(bytes.data(), kPng, sizeof kPng) == 0) {
    const auto be32 = [&](size_t at) {
      return (static_cast<long long>(bytes[at]) << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) |
             bytes[at + 3];
    };
    const long long pw = be32(16), ph = be32(20);
    // Each side first: pw * ph of two 32-bit sides could overflow.
    if (pw > kMaxImagePixels || ph > kMaxImagePixels || pw * ph > kMaxImagePixels) throw too_large(pw, ph);
  }

  // The header alone: format and dimensions, before any pixel is decoded.
  int w = 0, h = 0, comp = 0;
  if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &comp)) {
    throw Error(name + " is not a readable PNG, JPEG, BMP, TGA or GIF image (" + reason() + ")");
  }
  if (w <= 0 || h <= 0) {
    throw Error(name + " has no pixels (" + std::to_string(w) + "x" + std::to_string(h) + ")");
  }
  const long long pixels = static_cast<long long>(w) * h;
  if (pixels > kMaxImagePixels) {
    throw too_large(w, h);
  }

  LumaImage img;
  img.width = w;
  img.height = h;
  int channels = 0;
  const size_t count = static_cast<size_t>(pixels);
  // Before to_luma reads `channels` values per pixel into its 4-value buffer.
  const auto check_decoded = [&](int dw, int dh, int ch) {
    if (dw != img.width || dh != img.height)
      throw Error(name + " is corrupt (its size changed while decoding)");
    if (ch < 1 || ch > 4) throw Error(name + " has " + std::to_string(ch) + " channels");
  };
  if (stbi_is_16_bit_from_memory(bytes.data(), len)) {
    std::unique_ptr<stbi_us, StbiFree> px(stbi_load_16_from_memory(bytes.data(), len, &w, &h, &channels, 0));
    if (!px) throw Error(name + " is truncated or corrupt (" + reason() + ")");
    check_decoded(w, h, channels);
    img.luma = to_luma(px.get(), count, channels, 1.0f / 65535.0f);
  } else {
    std::unique_ptr<stbi_uc, StbiFree> px(stbi_load_from_memory(bytes.data(), len, &w, &h, &channels, 0));
    if (!px) throw Error(name + " is truncated or corrupt (" + reason() + ")");
    check_decoded(w, h, channels);
    img.luma = to_luma(px.get(), count, channels, 1.0f / 255.0f);
  }
  return img;
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
