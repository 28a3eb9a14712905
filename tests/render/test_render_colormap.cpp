// Palettes, the CPU colouring and the view, without a GL context.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "render/colormap.hpp"
#include "render/palette.hpp"
#include "render/view.hpp"
#include "sim/params.hpp"

namespace {

using namespace physarum;
using namespace physarum::render;

TEST(Palette, ParsesStopsHexAndDecimalWithComments) {
  const Palette p =
      parse_palette("# two colours\nkind smooth # default\n0 #000000\n0.5 100 200 50 # green\n1 #ff0000\n",
                    "test", "test.palette");
  ASSERT_EQ(p.stops.size(), 3u);
  EXPECT_FALSE(p.discrete);
  EXPECT_EQ(p.stops[1].g, 200);
  // Ends are the end stops; entry 51 (t = 0.2) is 0.4 of the way from black to (100, 200, 50).
  EXPECT_EQ(p.lut[0], 0);
  EXPECT_EQ(p.lut[255 * 4 + 0], 255);
  EXPECT_EQ(p.lut[255 * 4 + 1], 0);
  EXPECT_EQ(p.lut[51 * 4 + 0], 40);
  EXPECT_EQ(p.lut[51 * 4 + 1], 80);
  EXPECT_EQ(p.lut[51 * 4 + 3], 255);
}

TEST(Palette, DiscreteBandsAreFlat) {
  const Palette p = parse_palette("kind discrete\n0 #0000ff\n0.5 #00ff00\n", "d", "d.palette");
  EXPECT_TRUE(p.discrete);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(p.lut[i * 4 + 2], 255) << i;  // t < 0.5: blue
  for (int i = 128; i < 256; ++i) EXPECT_EQ(p.lut[i * 4 + 1], 255) << i;
}

TEST(Palette, BadFilesSayWhichLineAndWhy) {
  auto message = [](const char* text) {
    try {
      parse_palette(text, "bad", "bad.palette");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("0 #000000\n1.5 #ffffff\n").find("bad.palette:2:"), std::string::npos);
  EXPECT_NE(message("0 #000000\n0.5 #ffffff\n0.4 #ffffff\n").find("increase"), std::string::npos);
  EXPECT_NE(message("0 #00000g\n1 #ffffff\n").find("bad.palette:1:"), std::string::npos);
  EXPECT_NE(message("0 1 2 300\n1 #ffffff\n").find("colour"), std::string::npos);
  EXPECT_NE(message("0 #000000\n").find("two colour stops"), std::string::npos);
  EXPECT_NE(message("kind wavy\n0 #000000\n1 #ffffff\n").find("kind"), std::string::npos);
  EXPECT_NE(message("0 #000000 junk\n1 #ffffff\n").find("junk"), std::string::npos);
}

TEST(Palette, ShippedPalettesAllLoad) {
  const PaletteSet set = load_palettes(palette_dir());
  EXPECT_TRUE(set.errors.empty()) << set.errors.front();
  EXPECT_GE(set.palettes.size(), 10u);
  int discrete = 0;
  for (const auto& p : set.palettes) discrete += p.discrete;
  EXPECT_GE(discrete, 3);
  for (const char* name : {"viridis", "inferno", "magma", "greyscale", "terrain", "cave"}) {
    EXPECT_EQ(set.palettes[set.index_of(name)].name, name);
  }
}

TEST(Palette, UserFileInTheFolderIsPickedUpAndBadOnesListed) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("physarum-palettes-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "mine.palette") << "0 #102030\n1 #405060\n";
    std::ofstream(dir / "broken.palette") << "0 #102030\n";
    std::ofstream(dir / "notes.txt") << "not a palette\n";
  }
  const PaletteSet set = load_palettes(dir);
  ASSERT_EQ(set.palettes.size(), 1u);
  EXPECT_EQ(set.palettes[0].name, "mine");
  ASSERT_EQ(set.errors.size(), 1u);
  EXPECT_NE(set.errors[0].find("broken.palette"), std::string::npos);
  std::filesystem::remove_all(dir);
  // An empty or missing folder still leaves a palette to draw with.
  EXPECT_EQ(load_palettes(dir).palettes.at(0).name, "greyscale");
}

TEST(Colormap, AutoRangeAndMappingEnds) {
  const std::vector<float> f{2.0f, 4.0f, 6.0f, 10.0f};
  DisplayParams d;
  d.mapping = Mapping::Linear;
  const DisplayRange r = compute_display_range(f.data(), f.size(), d);
  EXPECT_EQ(r.lo, 2.0f);
  EXPECT_EQ(r.hi, 10.0f);
  EXPECT_FLOAT_EQ(continuous_position(6.0f, d, r), 0.5f);
  EXPECT_EQ(continuous_position(2.0f, d, r), 0.0f);
  EXPECT_EQ(continuous_position(10.0f, d, r), 1.0f);
  d.invert = true;
  EXPECT_EQ(continuous_position(10.0f, d, r), 0.0f);
  d.invert = false;
  d.gamma = 2.0f;  // t^(1/2)
  EXPECT_FLOAT_EQ(continuous_position(4.0f, d, r), std::sqrt(0.25f));
  d.gamma = 1.0f;
  d.exposure = 4.0f;  // saturates above a quarter of the range
  EXPECT_EQ(continuous_position(6.0f, d, r), 1.0f);
  d.exposure = 1.0f;
  d.mapping = Mapping::Log;  // log(1 + 1000 * 0.5) / log(1001)
  EXPECT_NEAR(continuous_position(6.0f, d, r), std::log(501.0) / std::log(1001.0), 1e-6);
  // A flat field maps to the low end instead of dividing by zero.
  const std::vector<float> flat(5, 3.0f);
  const DisplayRange rf = compute_display_range(flat.data(), flat.size(), d);
  EXPECT_EQ(continuous_position(3.0f, d, rf), 0.0f);
}

TEST(Colormap, EvenAndQuantileLevels) {
  std::vector<float> f;
  for (int i = 0; i < 100; ++i) f.push_back(static_cast<float>(i));
  DisplayParams d;
  d.mapping = Mapping::Linear;
  d.cave = CaveMode::Even;
  d.levels = 4;
  DisplayRange r = compute_display_range(f.data(), f.size(), d);
  ASSERT_EQ(r.threshold_count, 3);
  EXPECT_FLOAT_EQ(r.thresholds[0], 24.75f);
  EXPECT_FLOAT_EQ(r.thresholds[2], 74.25f);
  // Quantiles on values 0..99 in shuffled order: k/4 of the way through the sorted values.
  std::vector<float> shuffled;
  for (int i = 0; i < 100; ++i) shuffled.push_back(static_cast<float>((i * 37) % 100));
  d.cave = CaveMode::Quantile;
  r = compute_display_range(shuffled.data(), shuffled.size(), d);
  EXPECT_EQ(r.thresholds[0], 25.0f);
  EXPECT_EQ(r.thresholds[1], 50.0f);
  EXPECT_EQ(r.thresholds[2], 75.0f);
  // Each quarter then gets one of 4 LUT entries 0, 85, 170, 255.
  const Palette grey = greyscale_palette();
  std::vector<uint8_t> out(400);
  map_field_to_rgba(f.data(), 100, 1, d, r, grey, out.data());
  EXPECT_EQ(out[24 * 4], 0);
  EXPECT_EQ(out[25 * 4], 85);
  EXPECT_EQ(out[60 * 4], 170);
  EXPECT_EQ(out[99 * 4], 255);
}

TEST(Colormap, BinaryCaveSmoothingRemovesSpecksAndFillsHoles) {
  // 8x8 of floor with one wall speck, and a lone floor speck in a wall region, wrapping.
  const int w = 8, h = 8;
  std::vector<float> f(w * h, 0.0f);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < 4; ++x) f[y * w + x] = 1.0f;  // left half floor
  }
  f[3 * w + 1] = 0.0f;  // a hole in the floor
  f[5 * w + 6] = 1.0f;  // a speck of floor in the wall
  auto raw = binary_cave(f.data(), w, h, 0.5f, 0);
  EXPECT_EQ(raw[3 * w + 1], 0);
  EXPECT_EQ(raw[5 * w + 6], 1);
  auto smooth = binary_cave(f.data(), w, h, 0.5f, 1);
  EXPECT_EQ(smooth[3 * w + 1], 1);
  EXPECT_EQ(smooth[5 * w + 6], 0);
  // Deep inside each half nothing changes; the half-plane edges survive a majority vote.
  EXPECT_EQ(smooth[0 * w + 1], 1);
  EXPECT_EQ(smooth[0 * w + 5], 0);
}

// The CPU colouring with values typed into the panel past its sliders: levels 100 would write past
// the 16 thresholds, smoothing 1e9 would run 1e9 passes, gamma 0 divides by zero, NaN exposure
// would turn every cell NaN. Each draws as its nearest usable value.
TEST(Colormap, HostileDisplayValuesColourAsTheirClampedValues) {
  const int w = 40, h = 30;
  std::vector<float> f;  // blobs (they survive the binary cave's smoothing) and some noise
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const float noise = static_cast<float>((x * 7919 + y * 104729) % 97) / 97.0f;
      f.push_back(100.0f + 50.0f * std::sin(0.31f * x) * std::cos(0.27f * y) + 8.0f * noise);
    }
  }
  const Palette grey = greyscale_palette();
  DisplayParams typed;
  typed.mapping = Mapping::Linear;
  typed.levels = 100;
  typed.smoothing = 1'000'000'000;
  typed.gamma = 0.0f;
  typed.exposure = std::nanf("");
  typed.threshold = std::nanf("");
  DisplayParams meant = typed;
  meant.levels = kMaxLevels;
  meant.smoothing = kMaxSmoothing;
  meant.gamma = kMinGamma;
  meant.exposure = 1.0f;
  meant.threshold = 0.5f;
  EXPECT_EQ(drawable_display(typed), meant);
  for (const CaveMode cave : {CaveMode::Off, CaveMode::Even, CaveMode::Quantile, CaveMode::Binary}) {
    SCOPED_TRACE(static_cast<int>(cave));
    typed.cave = meant.cave = cave;
    const DisplayRange r = compute_display_range(f.data(), f.size(), typed);
    EXPECT_LE(r.threshold_count, kMaxThresholds);
    const auto img = render_field_to_rgba(f, w, h, typed, grey);
    EXPECT_EQ(img, render_field_to_rgba(f, w, h, meant, grey));
    // Not one flat colour. Continuous colouring starts at the noise's black level (its mean), so at
    // gamma 0.05 most cells are black; a twentieth still differ.
    size_t differ = 0;
    for (size_t i = 4; i < img.size(); i += 4) differ += img[i] != img[0];
    EXPECT_GT(differ, img.size() / 4 / 20);
  }
  EXPECT_EQ(binary_cave(f.data(), w, h, 100.0f, 1'000'000'000),
            binary_cave(f.data(), w, h, 100.0f, kMaxSmoothing));
  // One value at a time, as continuous_position is also used alone.
  const DisplayRange r = compute_display_range(f.data(), f.size(), meant);
  for (const float bad : {0.0f, -1.0f, std::nanf(""), HUGE_VALF}) {
    DisplayParams d = meant;
    d.cave = CaveMode::Off;
    d.gamma = bad;
    const float t = continuous_position(120.0f, d, r);
    EXPECT_TRUE(t >= 0.0f && t <= 1.0f) << "gamma " << bad << " gave " << t;
    d = meant;
    d.exposure = bad;
    const float u = continuous_position(120.0f, d, r);
    EXPECT_TRUE(u >= 0.0f && u <= 1.0f) << "exposure " << bad << " gave " << u;
  }
}

TEST(View, LetterboxZoomAboutCursorAndPan) {
  const Size field{200, 100};
  View v;
  EXPECT_FLOAT_EQ(v.scale(800, 800, field), 4.0f);  // width limits: 800 / 200
  float fx, fy;
  v.to_field(400, 400, 800, 800, field, fx, fy);
  EXPECT_FLOAT_EQ(fx, 100.0f);
  EXPECT_FLOAT_EQ(fy, 50.0f);
  v.to_field(0, 200, 800, 800, field, fx, fy);  // top-left corner of the letterboxed image
  EXPECT_FLOAT_EQ(fx, 0.0f);
  EXPECT_FLOAT_EQ(fy, 0.0f);
  // Zooming keeps the point under the cursor still.
  float bx, by;
  v.to_field(600, 300, 800, 800, field, bx, by);
  v.zoom_at(2.0f, 600, 300, 800, 800, field);
  v.to_field(600, 300, 800, 800, field, fx, fy);
  EXPECT_NEAR(fx, bx, 1e-4);
  EXPECT_NEAR(fy, by, 1e-4);
  EXPECT_FLOAT_EQ(v.zoom, 2.0f);
  // Dragging right by 80 px at 8 px per cell moves the view 10 cells left.
  const float cx = v.center_cell_x(field);
  v.pan(80, 0, 800, 800, field);
  EXPECT_NEAR(v.center_cell_x(field), cx - 10.0f, 1e-4);
  v.reset();
  EXPECT_EQ(v.zoom, 1.0f);
}

}  // namespace
