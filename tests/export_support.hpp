// Helpers for the export tests: a flood fill independent of the exporter's own labelling, and a
// PNG reader through libpng's low-level API (bit depth, samples and text chunks as stored).
#pragma once

#include <png.h>

#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace physarum::test {

// The cave is walked in 4 directions, so regions are 4-connected here too.
inline std::vector<int> region_sizes(const std::vector<uint8_t>& cells, int w, int h, uint8_t value) {
  std::vector<uint8_t> seen(cells.size(), 0);
  std::vector<int> sizes;
  for (int start = 0; start < w * h; ++start) {
    if (cells[start] != value || seen[start]) continue;
    int n = 0;
    std::vector<int> stack{start};
    seen[start] = 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      ++n;
      const int x = i % w, y = i / w;
      const int nb[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
      for (const auto& p : nb) {
        if (p[0] < 0 || p[1] < 0 || p[0] >= w || p[1] >= h) continue;
        const int j = p[1] * w + p[0];
        if (cells[j] == value && !seen[j]) {
          seen[j] = 1;
          stack.push_back(j);
        }
      }
    }
    sizes.push_back(n);
  }
  return sizes;
}

struct GreyPng {
  int width = 0, height = 0, bit_depth = 0, color_type = -1;
  std::vector<uint16_t> samples;
  std::vector<std::pair<std::string, std::string>> text;
  bool ok = false;
};

namespace png_detail {
inline bool read_into(png_structp png, png_infop info, FILE* f, GreyPng& out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, f);
  png_read_info(png, info);
  out.width = static_cast<int>(png_get_image_width(png, info));
  out.height = static_cast<int>(png_get_image_height(png, info));
  out.bit_depth = png_get_bit_depth(png, info);
  out.color_type = png_get_color_type(png, info);
  const size_t rowbytes = png_get_rowbytes(png, info);
  std::vector<unsigned char> data(rowbytes * static_cast<size_t>(out.height));
  std::vector<png_bytep> rows(static_cast<size_t>(out.height));
  for (int y = 0; y < out.height; ++y)
    rows[static_cast<size_t>(y)] = &data[rowbytes * static_cast<size_t>(y)];
  png_read_image(png, rows.data());
  png_read_end(png, info);
  png_textp text = nullptr;
  const int n = png_get_text(png, info, &text, nullptr);
  for (int i = 0; i < n; ++i)
    out.text.emplace_back(text[i].key, std::string(text[i].text, text[i].text_length));
  if (out.color_type == PNG_COLOR_TYPE_GRAY) {
    for (int y = 0; y < out.height; ++y) {
      for (int x = 0; x < out.width; ++x) {
        const unsigned char* p = rows[static_cast<size_t>(y)];
        out.samples.push_back(out.bit_depth == 16 ? static_cast<uint16_t>(p[2 * x] << 8 | p[2 * x + 1])
                                                  : p[x]);
      }
    }
  }
  return true;
}
}  // namespace png_detail

inline GreyPng read_grey_png(const std::filesystem::path& file) {
  GreyPng out;
  FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return out;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  out.ok = png_detail::read_into(png, info, f, out);
  png_destroy_read_struct(&png, &info, nullptr);
  std::fclose(f);
  return out;
}

inline std::string find_program(const std::string& name) {
  for (const char* dir : {"/usr/bin", "/usr/local/bin", "/bin"}) {
    const std::filesystem::path p = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p.string();
  }
  return {};
}

}  // namespace physarum::test
