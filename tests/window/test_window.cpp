// The interactive window, end to end under Xvfb with Mesa's software GL: it runs a fixed number
// of frames, exits 0 and saves a screenshot that shows the field and, unless hidden, the panel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "png_image.hpp"
#include "test_support.hpp"
#include "xvfb.hpp"

namespace {

using physarum::test::run_physarum;
using physarum::test::temp_dir;

using Image = physarum::test::RgbaImage;
using physarum::test::load_rgba_png;

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

// Runs the window for 30 frames and returns its screenshot. One thread, a fixed seed and a fixed
// number of steps a frame: the field is the same in every run. Each frame is a full software-GL
// draw of a 1280x800 window; 30 frames (30 steps) grow a field the checks below can see, and more
// frames would only repeat the same frame loop.
Image window_screenshot(const physarum::test::XvfbServer& x, const std::filesystem::path& dir,
                        const std::string& name, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--frames",  "30",  "--screenshot", name, "--backend", "cpu",
                                "--threads", "1",   "--seed",       "7",  "--size",    "256x256",
                                "--agents",  "20K", "--no-vsync"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_physarum(args, dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                              {"WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  Image img = load_rgba_png(dir / name);
  EXPECT_GT(img.w, 0) << "no screenshot written: " << r.err;
  return img;
}

TEST(WindowE2e, RunsFramesUnderXvfbAndScreenshotShowsFieldAndPanel) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = temp_dir();
  const Image img = window_screenshot(x, dir, "shot.png");
  ASSERT_GT(img.w, 0);
  // The window opens at 1280x800 for a small field: the panel runs down the left edge and the
  // field is fitted, letterboxed, into the rest.
  EXPECT_EQ(img.w, 1280);
  EXPECT_EQ(img.h, 800);

  // Not uniform, not black.
  size_t bright = 0;
  for (size_t i = 0; i < img.rgba.size(); i += 4)
    bright += (img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2]) > 60;
  EXPECT_GT(bright, img.rgba.size() / 4 / 10) << "the screenshot is (nearly) black";
  EXPECT_GT(distinct_colours(img, 0, 0, img.w, img.h), 100u) << "the screenshot is (nearly) uniform";
  // The 256x256 field fills the height beside the 420-wide panel: x 450 to 1250 (800 pixels).
  const int panel_w = 420, field_x0 = panel_w + (img.w - panel_w - 800) / 2;
  EXPECT_GT(distinct_colours(img, field_x0, 100, field_x0 + 800, 700), 200u) << "no field drawn";

  // The panel: the same run with --hide-panel differs from this one where the panel is (the
  // left); there the field is centred in the whole window, the same field at the same scale, so
  // it shows here shifted right, uncovered by any window.
  const Image bare = window_screenshot(x, dir, "bare.png", {"--hide-panel"});
  ASSERT_EQ(bare.w, img.w);
  ASSERT_EQ(bare.h, img.h);
  const auto differs = [&](int xx, int yy) {
    return !std::equal(img.at(xx, yy), img.at(xx, yy) + 3, bare.at(xx, yy));
  };
  const int shift = field_x0 - (img.w - 800) / 2;
  int panel_changed = 0, field_changed = 0;
  for (int yy = 0; yy < img.h; ++yy) {
    for (int xx = 0; xx < 400; ++xx) panel_changed += differs(xx, yy);
    for (int xx = field_x0; xx < field_x0 + 800; ++xx)
      field_changed += !std::equal(img.at(xx, yy), img.at(xx, yy) + 3, bare.at(xx - shift, yy));
  }
  EXPECT_GT(panel_changed, 380 * 150) << "the panel is not drawn at the left";
  // A pixel centre exactly on a cell's edge may round either way; a window over the field would
  // change whole blocks.
  EXPECT_LT(field_changed, 800 * 800 / 100) << "the field differs from the one with the panel hidden";
}

// --atlas opens the Atlas window beside the panel, over the left of the field (at most 40% of its
// width, window/layout.hpp), and starts its grid (the tiles themselves are checked in
// test_atlas_window.cpp, without a display).
TEST(WindowE2e, AtlasOpensFromTheCommandLineBesideThePanel) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = temp_dir();
  const Image plain = window_screenshot(x, dir, "plain.png");
  const Image img = window_screenshot(x, dir, "atlas.png", {"--atlas"});
  ASSERT_GT(img.w, 0);
  ASSERT_EQ(plain.w, img.w);
  ASSERT_EQ(plain.h, img.h);
  // The Atlas window: 344x534 at (430, 10), right of the 420-wide panel in the 860-wide field area.
  int changed = 0, panel_changed = 0, right_changed = 0;
  for (int yy = 40; yy < 530; ++yy) {
    for (int xx = 440; xx < 764; ++xx)
      changed += !std::equal(img.at(xx, yy), img.at(xx, yy) + 3, plain.at(xx, yy));
    for (int xx = 0; xx < 400; ++xx)
      panel_changed += !std::equal(img.at(xx, yy), img.at(xx, yy) + 3, plain.at(xx, yy));
    for (int xx = 1050; xx < 1250; ++xx)  // right of a tooltip: Xvfb's pointer rests on the mosaic
      right_changed += !std::equal(img.at(xx, yy), img.at(xx, yy) + 3, plain.at(xx, yy));
  }
  EXPECT_GT(changed, 324 * 490 / 2) << "no Atlas window over the field";
  EXPECT_GT(distinct_colours(img, 440, 40, 764, 530), 100u);
  EXPECT_LT(panel_changed, 400 * 490 / 10) << "the panel stays as it was";
  EXPECT_LT(right_changed, 200 * 490 / 100) << "the field's right part stays in view";
}

// The panel's right edge: where its menu bar's flat background ends, on the row above the menu's
// words (lower down its scroll bar runs along the edge).
int panel_edge(const Image& img) {
  const int y = 1;
  const uint8_t* bg = img.at(2, y);
  int x = 2;
  while (x < img.w && std::equal(img.at(x, y), img.at(x, y) + 3, bg)) ++x;
  return x;
}

// An earlier version kept Atlas, Explore and Performance open between sessions and showed them at
// a plain start over the field (the Atlas over two thirds of it). Now a plain start with that
// layout file shows the panel and the field as a first start does.
TEST(WindowE2e, APlainStartAfterASessionWithWindowsOpenShowsTheField) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto first = temp_dir();
  const Image fresh = window_screenshot(x, first, "fresh.png");
  const auto dir = temp_dir();
  std::filesystem::create_directories(dir / "config" / "physarum");  // run_physarum's XDG_CONFIG_HOME
  physarum::test::write_file(dir / "config" / "physarum" / "imgui.ini",
                             "[Window][Atlas]\nPos=430,10\nSize=640,700\nCollapsed=0\n\n"
                             "[Window][Performance]\nPos=920,10\nSize=350,480\nCollapsed=0\n\n"
                             "[Window][Explore]\nPos=800,300\nSize=470,490\nCollapsed=0\n\n"
                             "[Physarum][Layout]\nPerformance=1\nExplore=1\nAtlas=1\n\n");
  const Image again = window_screenshot(x, dir, "again.png");
  ASSERT_GT(again.w, 0);
  ASSERT_EQ(again.w, fresh.w);
  ASSERT_EQ(again.h, fresh.h);
  int differ = 0;
  for (int yy = 0; yy < again.h; ++yy)
    for (int xx = 430; xx < again.w; ++xx)
      differ += !std::equal(again.at(xx, yy), again.at(xx, yy) + 3, fresh.at(xx, yy));
  // A pixel centre exactly on a cell's edge may round either way; a window would change whole blocks.
  EXPECT_LT(differ, 850 * 800 / 100) << "a window covers the field at a plain start";
  const std::string ini = physarum::test::read_file(dir / "config" / "physarum" / "imgui.ini");
  EXPECT_EQ(ini.find("Atlas=1"), std::string::npos) << "written again without the open windows: " << ini;
}

// --ui-scale makes the text and the panel larger; the field is fitted beside the wider panel.
TEST(WindowE2e, UiScaleWidensThePanelAndTheFieldMakesRoom) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = temp_dir();
  const Image one = window_screenshot(x, dir, "one.png");
  const Image big = window_screenshot(x, dir, "big.png", {"--ui-scale", "1.5"});
  ASSERT_GT(big.w, 0);
  ASSERT_EQ(big.w, one.w) << "--window unset, a scale asked for grows the window only up to the screen";
  EXPECT_NEAR(panel_edge(one), 420, 2);
  EXPECT_NEAR(panel_edge(big), 630, 2);
  // The field, 800x800 beside a 420-wide panel, is 650 wide beside a 630-wide one.
  EXPECT_GT(distinct_colours(big, 640, 100, 1270, 700), 200u) << "no field beside the wider panel";
}

TEST(WindowE2e, BadWindowOptionsExitTwoNamingTheValue) {
  const auto dir = temp_dir();
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--ui-scale", "0"}, "0"},
      {{"--ui-scale", "5"}, "5"},
      {{"--ui-scale", "big"}, "big"},
      {{"--ui-scale", "nan"}, "nan"},
      {{"--record-timing", "fast"}, "fast"},
      {{"--record-timing", "smooth", "--record-every-frame"}, "--record-every-frame"},
  };
  for (const auto& [args, named] : cases) {
    std::vector<std::string> all{"--frames", "1", "--backend", "cpu", "--size", "64x64", "--agents", "1K"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_physarum(all, dir, {}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << testing::PrintToString(args) << ": " << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << testing::PrintToString(args) << ": " << r.err;
    EXPECT_NE(r.err.find(args[0]), std::string::npos) << r.err;
  }
}

TEST(WindowE2e, WithoutDisplaySaysSoAndPointsToRender) {
  const auto dir = temp_dir();
  const auto r = run_physarum({"--frames", "1", "--backend", "cpu", "--size", "64x64", "--agents", "1K"}, dir,
                              {}, {"DISPLAY", "WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("physarum render"), std::string::npos) << r.err;
}

}  // namespace
