// A PNG the program wrote, read back as 8-bit RGBA for the tests that look at pixels.
#pragma once

#include <stb_image.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace physarum::test {

struct RgbaImage {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;  // empty when the file could not be read
  const uint8_t* at(int x, int y) const { return rgba.data() + (static_cast<size_t>(y) * w + x) * 4; }
};

inline RgbaImage load_rgba_png(const std::filesystem::path& file) {
  RgbaImage img;
  int n = 0;
  if (uint8_t* data = stbi_load(file.c_str(), &img.w, &img.h, &n, 4)) {
    img.rgba.assign(data, data + static_cast<size_t>(img.w) * img.h * 4);
    stbi_image_free(data);
  }
  return img;
}

}  // namespace physarum::test
