// libpng reports errors by longjmp: the calls into it happen in encode_rows(), which owns nothing
// with a destructor; the rows and the output buffer live in the caller.
#include "sim/png_writer.hpp"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <stdexcept>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"

namespace physarum {
namespace {

struct PngOut {
  std::string bytes;
  char message[256] = {};
};

void on_error(png_structp png, png_const_charp msg) {
  auto* out = static_cast<PngOut*>(png_get_error_ptr(png));
  std::snprintf(out->message, sizeof out->message, "%s", msg);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}
void on_write(png_structp png, png_bytep data, size_t n) {
  static_cast<PngOut*>(png_get_io_ptr(png))->bytes.append(reinterpret_cast<const char*>(data), n);
}
void on_flush(png_structp) {}

int colour_type(int channels) {
  switch (channels) {
    case 1: return PNG_COLOR_TYPE_GRAY;
    case 3: return PNG_COLOR_TYPE_RGB;
    case 4: return PNG_COLOR_TYPE_RGB_ALPHA;
    default: throw Error("PNG channels must be 1, 3 or 4, not " + std::to_string(channels));
  }
}

// Exports keep zlib's level 9 (their files are made once and kept); the renderers' stills take
// its default, 6: a 1920x1080 still is 1% larger and written in half the time, which a window
// waiting on its screenshot sees.
constexpr int kExportLevel = 9;
constexpr int kStillLevel = 6;

bool encode_rows(png_structp png, png_infop info, PngOut& out, int width, int height, int bit_depth, int type,
                 int level, std::vector<png_text>& text, std::vector<png_bytep>& rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, &out, on_write, on_flush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), bit_depth, type,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!text.empty()) png_set_text(png, info, text.data(), static_cast<int>(text.size()));
  png_set_compression_level(png, level);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, info);
  return true;
}

// The PNG of `pixels`, laid out as PNG stores them (16-bit samples big-endian), rows top to bottom.
std::string encode_pixels(const unsigned char* pixels, int width, int height, int channels, int bit_depth,
                          int level, const TextChunks& text) {
  const int type = colour_type(channels);
  const size_t row_bytes = static_cast<size_t>(width) * static_cast<size_t>(channels) * (bit_depth / 8);
  std::vector<png_bytep> rows(static_cast<size_t>(height));
  for (int y = 0; y < height; ++y)  // libpng reads the rows through png_bytep, writing none
    rows[static_cast<size_t>(y)] = const_cast<unsigned char*>(pixels) + static_cast<size_t>(y) * row_bytes;
  std::vector<std::string> keys, values;  // png_text points into these
  for (const auto& [k, v] : text) {
    keys.push_back(k);
    values.push_back(v);
  }
  std::vector<png_text> chunks(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    chunks[i] = png_text{};
    chunks[i].compression = PNG_TEXT_COMPRESSION_NONE;
    chunks[i].key = keys[i].data();
    chunks[i].text = values[i].data();
    chunks[i].text_length = values[i].size();
  }

  PngOut out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &out, on_error, on_warning);
  if (!png) throw Error("cannot encode PNG: out of memory");
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    throw Error("cannot encode PNG: out of memory");
  }
  const bool ok = encode_rows(png, info, out, width, height, bit_depth, type, level, chunks, rows);
  png_destroy_write_struct(&png, &info);
  if (!ok) throw Error(std::string("cannot encode PNG: ") + out.message);
  return std::move(out.bytes);
}

}  // namespace

std::string encode_png(const std::vector<uint16_t>& samples, int width, int height, int channels,
                       int bit_depth, const TextChunks& text) {
  if (bit_depth != 8 && bit_depth != 16) throw Error("PNG bit depth must be 8 or 16");
  (void)colour_type(channels);
  if (width <= 0 || height <= 0 ||
      samples.size() !=
          static_cast<size_t>(width) * static_cast<size_t>(height) * static_cast<size_t>(channels)) {
    throw Error("PNG size does not match its samples");
  }
  const size_t bpp = bit_depth / 8;
  std::vector<unsigned char> pixels(samples.size() * bpp);
  for (size_t i = 0; i < samples.size(); ++i) {
    if (bpp == 1) {
      pixels[i] = static_cast<unsigned char>(samples[i]);
    } else {  // PNG stores 16-bit samples big-endian
      pixels[2 * i] = static_cast<unsigned char>(samples[i] >> 8);
      pixels[2 * i + 1] = static_cast<unsigned char>(samples[i] & 0xff);
    }
  }
  return encode_pixels(pixels.data(), width, height, channels, bit_depth, kExportLevel, text);
}

void write_png(const std::filesystem::path& file, const std::vector<uint16_t>& samples, int width, int height,
               int channels, int bit_depth, const TextChunks& text) {
  write_file_atomically(file, encode_png(samples, width, height, channels, bit_depth, text));
}

std::string encode_grey_png(const std::vector<uint16_t>& samples, int width, int height, int bit_depth,
                            const TextChunks& text) {
  return encode_png(samples, width, height, 1, bit_depth, text);
}

void write_grey_png(const std::filesystem::path& file, const std::vector<uint16_t>& samples, int width,
                    int height, int bit_depth, const TextChunks& text) {
  write_png(file, samples, width, height, 1, bit_depth, text);
}

void write_png_rgba(const std::filesystem::path& file, const uint8_t* rgba, int width, int height) {
  if (width <= 0 || height <= 0) {
    throw Error("cannot write PNG '" + file.string() + "': its size " + std::to_string(width) + "x" +
                std::to_string(height) + " is empty");
  }
  write_file_atomically(file, encode_pixels(rgba, width, height, 4, 8, kStillLevel, {}), "write PNG");
}

}  // namespace physarum
