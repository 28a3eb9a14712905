// `physarum render` draws with the GPU shader (here Mesa's llvmpipe through EGL surfaceless);
// its PNG must equal the CPU colouring of the field it wrote (.npy, same run) within 1 per channel.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdlib>
#include <set>

#include "render/colormap.hpp"
#include "render/palette.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"

namespace {

using namespace physarum;

struct Case {
  const char* name;
  std::vector<std::string> sets;
  DisplayParams display;
};

DisplayParams display(const std::string& palette, Mapping m, CaveMode cave = CaveMode::Off, int levels = 5) {
  DisplayParams d;
  d.palette = palette;
  d.mapping = m;
  d.cave = cave;
  d.levels = levels;
  return d;
}

void expect_png_matches_cpu(const Case& c) {
  const auto dir = test::temp_dir();
  std::vector<std::string> args{"render", "--steps", "150",      "--backend", "cpu",
                                "--size", "192x128", "--agents", "15K",       "--seed",
                                "7",      "--out",   "img.png",  "--out",     "field.npy"};
  for (const auto& s : c.sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  const auto r = test::run_physarum(args, dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;

  const NpyArray field = read_npy(dir / "field.npy");
  ASSERT_EQ(field.width, 192);
  ASSERT_EQ(field.height, 128);
  int w = 0, h = 0, n = 0;
  uint8_t* png = stbi_load((dir / "img.png").c_str(), &w, &h, &n, 4);
  ASSERT_NE(png, nullptr);
  ASSERT_EQ(w, 192);
  ASSERT_EQ(h, 128);

  const render::PaletteSet pals = render::load_palettes(render::palette_dir());
  const render::Palette& pal = pals.palettes[pals.index_of(c.display.palette)];
  ASSERT_EQ(pal.name, c.display.palette);
  const auto cpu = render::render_field_to_rgba(field.data, w, h, c.display, pal);

  int worst = 0, differing = 0;
  std::set<uint32_t> colours;
  for (size_t i = 0; i < cpu.size(); ++i) {
    const int d = std::abs(static_cast<int>(cpu[i]) - static_cast<int>(png[i]));
    worst = std::max(worst, d);
    differing += d > 0;
    if (i % 4 == 0) colours.insert(static_cast<uint32_t>(png[i]) << 16 | png[i + 1] << 8 | png[i + 2]);
  }
  stbi_image_free(png);
  EXPECT_LE(worst, 1) << c.name << ": " << differing << " channels differ";
  // A real image, not a flat one that would match trivially.
  EXPECT_GE(colours.size(), c.display.cave == CaveMode::Off ? 50u : 2u) << c.name;
}

TEST(HeadlessRenderE2e, ContinuousPaletteMatchesCpuColouring) {
  expect_png_matches_cpu(
      {"inferno log", {"display.palette=inferno", "display.mapping=log"}, display("inferno", Mapping::Log)});
}

TEST(HeadlessRenderE2e, LinearExposureGammaInvertMatchesCpuColouring) {
  DisplayParams d = display("viridis", Mapping::Linear);
  d.exposure = 2.5f;
  d.gamma = 2.2f;
  d.invert = true;
  expect_png_matches_cpu({"viridis linear",
                          {"display.palette=viridis", "display.mapping=linear", "display.exposure=2.5",
                           "display.gamma=2.2", "display.invert=true"},
                          d});
}

TEST(HeadlessRenderE2e, EvenCaveLevelsMatchCpuColouring) {
  expect_png_matches_cpu(
      {"cave even 6",
       {"display.palette=cave", "display.cave=even", "display.levels=6", "display.mapping=log"},
       display("cave", Mapping::Log, CaveMode::Even, 6)});
}

TEST(HeadlessRenderE2e, QuantileCaveLevelsMatchCpuColouring) {
  expect_png_matches_cpu({"terrain quantile 7",
                          {"display.palette=terrain", "display.cave=quantile", "display.levels=7"},
                          display("terrain", Mapping::Log, CaveMode::Quantile, 7)});
}

TEST(HeadlessRenderE2e, BinaryCaveWithSmoothingMatchesCpuColouring) {
  DisplayParams d = display("dungeon", Mapping::Linear, CaveMode::Binary);
  d.threshold = 0.3f;
  d.smoothing = 3;
  expect_png_matches_cpu({"binary cave",
                          {"display.palette=dungeon", "display.mapping=linear", "display.cave=binary",
                           "display.threshold=0.3", "display.smoothing=3"},
                          d});
}

TEST(HeadlessRenderE2e, RefusesUnknownOutputAndUnknownPalette) {
  const auto dir = test::temp_dir();
  auto r = test::run_physarum({"render", "--steps", "1", "--backend", "cpu", "--size", "32x32", "--agents",
                               "100", "--out", "img.avi"},
                              dir, {}, {});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(".png, .exr, .npy, .mp4, .webm or .gif"), std::string::npos) << r.err;
  r = test::run_physarum({"render", "--steps", "1", "--backend", "cpu", "--size", "32x32", "--agents", "100",
                          "--set", "display.palette=no-such-palette", "--out", "img.png"},
                         dir, {}, {});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("no-such-palette"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "img.png"));
}

}  // namespace
