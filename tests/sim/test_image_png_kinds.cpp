// The PNG decoder on the kinds stb_image_write cannot make, written here with libpng: Adam7
// interlacing (the whole-image path), palettes with transparency, low bit depths, 16-bit RGBA.
// Each pixel's brightness is computed independently from the values written.
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "sim/image.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

struct PngSpec {
  int w, h, color, depth;
  bool interlaced;
};

// Rows of raw samples (big-endian for 16 bits, packed for < 8), as PNG stores them.
void write_png(const std::filesystem::path& file, const PngSpec& s,
               const std::vector<std::vector<png_byte>>& rows, const std::vector<png_color>& palette = {},
               const std::vector<png_byte>& palette_alpha = {}) {
  FILE* f = std::fopen(file.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) FAIL() << "libpng failed to write " << file;
  png_init_io(png, f);
  png_set_IHDR(png, info, s.w, s.h, s.depth, s.color, s.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!palette.empty()) png_set_PLTE(png, info, palette.data(), static_cast<int>(palette.size()));
  if (!palette_alpha.empty()) {
    png_set_tRNS(png, info, palette_alpha.data(), static_cast<int>(palette_alpha.size()), nullptr);
  }
  png_write_info(png, info);
  std::vector<png_bytep> ptrs;
  for (auto& r : rows) ptrs.push_back(const_cast<png_bytep>(r.data()));
  png_write_image(png, ptrs.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(f);
}

double luma709(double r, double g, double b) {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

TEST(ImagePng, InterlacedGreyMatchesItsSamples) {
  const auto dir = test::temp_dir();
  const PngSpec s{11, 9, PNG_COLOR_TYPE_GRAY, 8, true};
  std::vector<std::vector<png_byte>> rows(s.h, std::vector<png_byte>(s.w));
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x) rows[y][x] = static_cast<png_byte>(x * 23 + y * 5);
  write_png(dir / "i.png", s, rows);
  const LumaImage img = load_luma(dir / "i.png");
  ASSERT_EQ(img.width, s.w);
  ASSERT_EQ(img.height, s.h);
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x)
      EXPECT_NEAR(img.luma[y * s.w + x], rows[y][x] / 255.0, 1e-6) << x << "," << y;
}

TEST(ImagePng, TwoBitPaletteWithTransparency) {
  const auto dir = test::temp_dir();
  const PngSpec s{6, 2, PNG_COLOR_TYPE_PALETTE, 2, false};
  const std::vector<png_color> pal{{0, 0, 0}, {200, 100, 50}, {10, 250, 30}, {255, 255, 255}};
  const std::vector<png_byte> alpha{255, 128};  // entries 2 and 3 are opaque
  const int idx[2][6] = {{0, 1, 2, 3, 1, 0}, {3, 3, 2, 1, 0, 1}};
  std::vector<std::vector<png_byte>> rows(2, std::vector<png_byte>(2, 0));
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 6; ++x) rows[y][x / 4] |= static_cast<png_byte>(idx[y][x] << (6 - 2 * (x % 4)));
  write_png(dir / "p.png", s, rows, pal, alpha);
  const LumaImage img = load_luma(dir / "p.png");
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 6; ++x) {
      const png_color c = pal[idx[y][x]];
      const double a = idx[y][x] < 2 ? alpha[idx[y][x]] / 255.0 : 1.0;
      EXPECT_NEAR(img.luma[y * 6 + x], luma709(c.red, c.green, c.blue) / 255.0 * a, 1e-6) << x << "," << y;
    }
  }
}

TEST(ImagePng, SixteenBitRgbaInterlaced) {
  const auto dir = test::temp_dir();
  const PngSpec s{5, 4, PNG_COLOR_TYPE_RGB_ALPHA, 16, true};
  std::vector<std::vector<png_byte>> rows(s.h, std::vector<png_byte>(s.w * 8));
  const auto sample = [](int x, int y, int k) {
    return static_cast<unsigned>((x * 9001 + y * 4099 + k * 17001) % 65536);
  };
  for (int y = 0; y < s.h; ++y) {
    for (int x = 0; x < s.w; ++x) {
      for (int k = 0; k < 4; ++k) {
        rows[y][x * 8 + k * 2] = static_cast<png_byte>(sample(x, y, k) >> 8);
        rows[y][x * 8 + k * 2 + 1] = static_cast<png_byte>(sample(x, y, k) & 0xff);
      }
    }
  }
  write_png(dir / "r.png", s, rows);
  const LumaImage img = load_luma(dir / "r.png");
  for (int y = 0; y < s.h; ++y) {
    for (int x = 0; x < s.w; ++x) {
      const double v =
          luma709(sample(x, y, 0), sample(x, y, 1), sample(x, y, 2)) / 65535.0 * sample(x, y, 3) / 65535.0;
      EXPECT_NEAR(img.luma[y * s.w + x], std::min(v, 1.0), 1e-6) << x << "," << y;
    }
  }
}

}  // namespace
}  // namespace physarum
