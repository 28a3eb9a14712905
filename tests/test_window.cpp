// The interactive window, end to end under Xvfb with Mesa's software GL: it runs a fixed number
// of frames, exits 0 and saves a screenshot that shows the field and the panel.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "test_support.hpp"
#include "xvfb.hpp"

namespace {

using physarum::test::run_physarum;
using physarum::test::temp_dir;

struct Image {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
  const uint8_t* at(int x, int y) const { return rgba.data() + (static_cast<size_t>(y) * w + x) * 4; }
};

Image load_png(const std::filesystem::path& p) {
  Image img;
  int n = 0;
  uint8_t* data = stbi_load(p.c_str(), &img.w, &img.h, &n, 4);
  if (data) {
    img.rgba.assign(data, data + static_cast<size_t>(img.w) * img.h * 4);
    stbi_image_free(data);
  }
  return img;
}

// Distinct colours in a rectangle (a coarse measure of "something is drawn here").
size_t distinct_colours(const Image& img, int x0, int y0, int x1, int y1) {
  std::set<uint32_t> colours;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = img.at(x, y);
      colours.insert(static_cast<uint32_t>(p[0]) << 16 | static_cast<uint32_t>(p[1]) << 8 | p[2]);
    }
  }
  return colours.size();
}

TEST(Window, RunsFramesUnderXvfbAndScreenshotShowsFieldAndPanel) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = temp_dir();
  const auto r =
      run_physarum({"--frames", "120", "--screenshot", "shot.png", "--backend", "cpu", "--size", "256x256",
                    "--agents", "20K", "--no-vsync"},
                   dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}}, {"WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const Image img = load_png(dir / "shot.png");
  ASSERT_GT(img.w, 0) << "no screenshot written: " << r.err;
  // The window opens at 1280x800 for a small field: the field is letterboxed in the middle, the
  // panel sits at the top left.
  EXPECT_EQ(img.w, 1280);
  EXPECT_EQ(img.h, 800);

  // Not uniform, not black.
  size_t bright = 0;
  for (size_t i = 0; i < img.rgba.size(); i += 4)
    bright += (img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2]) > 60;
  EXPECT_GT(bright, img.rgba.size() / 4 / 10) << "the screenshot is (nearly) black";
  EXPECT_GT(distinct_colours(img, 0, 0, img.w, img.h), 100u) << "the screenshot is (nearly) uniform";

  // The field region (right of the panel, inside the letterboxed square) is a palette image with
  // many colours; the panel region has the panel's title bar: a row of one dark-blue colour that
  // the inferno palette (the default) does not produce at the field's edge.
  const int field_x0 = (img.w - img.h) / 2 + img.h / 2, field_x1 = (img.w + img.h) / 2;
  EXPECT_GT(distinct_colours(img, field_x0, 100, field_x1, 700), 200u);
  const Image& s = img;
  // Panel: its header row is uniform over a long run and different from the field next to it.
  const uint8_t* title = s.at(100, 19);
  int same = 0;
  for (int xx = 20; xx < 300; ++xx) {
    const uint8_t* p = s.at(xx, 19);
    same += p[0] == title[0] && p[1] == title[1] && p[2] == title[2];
  }
  EXPECT_GT(same, 200) << "no panel title bar at the top left";
  const uint8_t* field_px = s.at(field_x0 + 10, 19);
  EXPECT_FALSE(title[0] == field_px[0] && title[1] == field_px[1] && title[2] == field_px[2]);
}

TEST(Window, WithoutDisplaySaysSoAndPointsToRender) {
  const auto dir = temp_dir();
  const auto r = run_physarum({"--frames", "1", "--backend", "cpu", "--size", "64x64", "--agents", "1K"}, dir,
                              {}, {"DISPLAY", "WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("physarum render"), std::string::npos) << r.err;
}

}  // namespace
