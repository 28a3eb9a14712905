// A volume in the interactive window, end to end under Xvfb with Mesa's software GL: a volume
// preset opens, grows, and its picture beside the panel is the volume, not an empty background.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "png_image.hpp"
#include "test_support.hpp"
#include "xvfb.hpp"

namespace {

using physarum::test::RgbaImage;

// Pixels of the rectangle that differ from the colour at its top-left corner (the background).
size_t off_background(const RgbaImage& img, int x0, int y0, int x1, int y1) {
  const uint8_t* bg = img.at(x0, y0);
  size_t n = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = img.at(x, y);
      n += std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) > 24;
    }
  }
  return n;
}

TEST(WindowE2e, AVolumePresetGrowsInTheWindowAndItsPictureIsNotBlank) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = physarum::test::temp_dir();
  const auto r = physarum::test::run_physarum(
      {"--preset", "web-3d", "--size", "32x32x32", "--agents", "20K", "--backend", "cpu", "--threads", "1",
       "--frames", "3", "--window", "1280x720", "--no-vsync", "--screenshot", "vol.png"},
      dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}}, {"WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("physarum: cpu"), std::string::npos) << r.out;
  const RgbaImage img = physarum::test::load_rgba_png(dir / "vol.png");
  ASSERT_EQ(img.w, 1280);
  ASSERT_EQ(img.h, 720);
  // Right of the 420-wide panel the volume's picture fills the window; its middle is the volume.
  const size_t drawn = off_background(img, 430, 10, 1270, 710);
  EXPECT_GT(drawn, 840u * 700u / 20u) << "the volume's picture is (nearly) the background";
  std::set<uint32_t> colours;
  for (int y = 200; y < 520; ++y) {
    for (int xx = 700; xx < 1000; ++xx) {
      const uint8_t* p = img.at(xx, y);
      colours.insert(static_cast<uint32_t>(p[0]) << 16 | static_cast<uint32_t>(p[1]) << 8 | p[2]);
    }
  }
  EXPECT_GT(colours.size(), 50u) << "the volume is drawn as a flat patch";
}

}  // namespace
