// The program's one PNG encoder (sim/png_writer.hpp) as the renderers use it: 8-bit RGBA read back by
// another decoder (stb_image) pixel for pixel, and an empty picture refused before any file is made.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "png_image.hpp"
#include "sim/params.hpp"
#include "sim/png_writer.hpp"
#include "test_support.hpp"

using namespace physarum;

namespace {

TEST(PngWriter, RgbaComesBackPixelForPixel) {
  const auto dir = test::temp_dir();
  std::mt19937 rng(9);
  for (const auto& [w, h] : {std::pair{1, 1}, std::pair{37, 21}, std::pair{300, 4}}) {
    std::vector<uint8_t> rgba(static_cast<size_t>(w) * h * 4);
    for (auto& v : rgba) v = static_cast<uint8_t>(rng());
    write_png_rgba(dir / "rgba.png", rgba.data(), w, h);
    const test::RgbaImage back = test::load_rgba_png(dir / "rgba.png");
    EXPECT_EQ(back.w, w);
    EXPECT_EQ(back.h, h);
    EXPECT_TRUE(back.rgba == rgba) << w << "x" << h;
  }
}

TEST(PngWriter, AnEmptyPictureIsRefusedAndNoFileMade) {
  const auto dir = test::temp_dir();
  const uint8_t px[4] = {1, 2, 3, 4};
  const std::string msg = test::error_of([&] { write_png_rgba(dir / "none.png", px, 0, 5); });
  EXPECT_NE(msg.find("none.png"), std::string::npos) << msg;
  EXPECT_NE(msg.find("0x5"), std::string::npos) << msg;
  EXPECT_FALSE(std::filesystem::exists(dir / "none.png"));
}

}  // namespace
