// PNG files, the program's one encoder (libpng, as image_png.cpp's decoder): greyscale, RGB and
// RGBA, 8 or 16 bits a sample, with text chunks for the recipe. Written through AtomicFileWriter: a
// failure leaves any existing file untouched.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace physarum {

using TextChunks = std::vector<std::pair<std::string, std::string>>;  // keyword, Latin-1 text

// `samples` holds width * height * channels values, interleaved (channels 1 grey, 3 RGB, 4 RGBA,
// straight alpha), rows top to bottom, each 0..255 (bit_depth 8) or 0..65535 (bit_depth 16). The
// bytes depend only on the arguments (no time chunk), so equal inputs give equal files.
std::string encode_png(const std::vector<uint16_t>& samples, int width, int height, int channels,
                       int bit_depth, const TextChunks& text);
void write_png(const std::filesystem::path& file, const std::vector<uint16_t>& samples, int width, int height,
               int channels, int bit_depth, const TextChunks& text);
// One channel.
std::string encode_grey_png(const std::vector<uint16_t>& samples, int width, int height, int bit_depth,
                            const TextChunks& text);
void write_grey_png(const std::filesystem::path& file, const std::vector<uint16_t>& samples, int width,
                    int height, int bit_depth, const TextChunks& text);
// 8-bit RGBA as the renderers read it back: width * height * 4 bytes, rows top to bottom; no text.
// Throws Error "cannot write PNG '<file>': <why>" when the file cannot be written whole.
void write_png_rgba(const std::filesystem::path& file, const uint8_t* rgba, int width, int height);

}  // namespace physarum
