// Keyframed palettes blend: the weight and the two names come from the keyframes (sim's blend_at),
// the colour tables mix entry by entry, and `physarum render` draws the mix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <variant>

#include "png_image.hpp"
#include "render/colormap.hpp"
#include "render/palette.hpp"
#include "render/palette_blend.hpp"
#include "run/run.hpp"
#include "sim/keyframes.hpp"
#include "sim/npy.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "test_support.hpp"

namespace {

using namespace physarum;
namespace fs = std::filesystem;

const char* kStory = R"([[keyframe]]
step = 20
display.palette = "inferno"
[[keyframe]]
step = 100
ease = "smoothstep"
display.palette = "viridis"
display.exposure = 2
[[keyframe]]
step = 200
display.palette = "magma"
)";

TEST(PaletteBlend, BlendAtGivesTheHeldValueTheNextAndTheEaseWeight) {
  const Preset p = parse_preset(kStory, "story.toml");
  const auto name = [](const Value& v) { return std::get<std::string>(v); };
  EXPECT_FALSE(blend_at(p, "display.gamma", 50).has_value());
  const auto before = blend_at(p, "display.palette", 3);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(name(before->from), "inferno");
  EXPECT_EQ(name(before->to), "inferno");
  EXPECT_EQ(before->weight, 0.0);
  const auto linear = blend_at(p, "display.palette", 40);  // a quarter of 20..100
  EXPECT_EQ(name(linear->from), "inferno");
  EXPECT_EQ(name(linear->to), "viridis");
  EXPECT_DOUBLE_EQ(linear->weight, 0.25);
  const auto smooth = blend_at(p, "display.palette", 125);  // a quarter of 100..200, smoothstep
  EXPECT_EQ(name(smooth->from), "viridis");
  EXPECT_EQ(name(smooth->to), "magma");
  EXPECT_DOUBLE_EQ(smooth->weight, 0.25 * 0.25 * (3 - 0.5));
  const auto after = blend_at(p, "display.palette", 900);
  EXPECT_EQ(name(after->from), "magma");
  EXPECT_EQ(after->weight, 0.0);
}

TEST(PaletteBlend, TablesMixPerChannelAndTheFollowerUploadsOnlyChanges) {
  const render::PaletteSet set = render::load_palettes(render::palette_dir());
  const render::Palette& inferno = set.palettes[set.index_of("inferno")];
  const render::Palette& viridis = set.palettes[set.index_of("viridis")];
  ASSERT_EQ(inferno.name, "inferno");
  ASSERT_EQ(viridis.name, "viridis");
  const Preset p = parse_preset(kStory, "story.toml");
  const render::Palette at40 = render::palette_at(set, p, 40);
  for (size_t i = 0; i < at40.lut.size(); ++i) {
    const double want = inferno.lut[i] * 0.75 + viridis.lut[i] * 0.25;
    EXPECT_LE(std::abs(at40.lut[i] - want), 0.5) << "entry " << i / 4 << " channel " << i % 4;
  }
  EXPECT_EQ(render::palette_at(set, p, 10).lut, inferno.lut);
  EXPECT_EQ(render::palette_at(set, p, 100).lut, viridis.lut);
  Preset plain;
  plain.display.palette = "viridis";
  EXPECT_EQ(render::palette_at(set, plain, 50).lut, viridis.lut);

  render::PaletteFollower f;
  EXPECT_TRUE(f.update(set, p, 10));
  EXPECT_FALSE(f.update(set, p, 15));  // still inferno
  EXPECT_TRUE(f.update(set, p, 21));
  EXPECT_FALSE(f.update(set, p, 21));
  f.forget();
  EXPECT_TRUE(f.update(set, p, 21));
}

// `physarum render` of dir/story.toml (keyframes at steps 0 and 100) to step 50 at 128x96: its PNG;
// its field is beside it as field.npy.
test::RgbaImage render_story_middle(const fs::path& dir) {
  const std::vector<std::string> args{"render", "--preset", "story.toml", "--steps",  "50",       "--backend",
                                      "cpu",    "--size",   "128x96",     "--agents", "10K",      "--seed",
                                      "5",      "--out",    "img.png",    "--out",    "field.npy"};
  const auto r = test::run_physarum(args, dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  return test::load_rgba_png(dir / "img.png");
}

// How far the drawn `png` is at worst from `want`, and how many of its samples lie more than 8 from
// `other` (a keyframe's end drawn alone).
struct Against {
  int worst = 0;
  int far_from_other = 0;
};
Against compare(const std::vector<uint8_t>& want, const std::vector<uint8_t>& other,
                const std::vector<uint8_t>& png) {
  Against a;
  for (size_t i = 0; i < want.size(); ++i) {
    a.worst = std::max(a.worst, std::abs(want[i] - png[i]));
    a.far_from_other += std::abs(other[i] - png[i]) > 8;
  }
  return a;
}

// The story's middle: the PNG `render` writes equals the CPU colouring of its field with the
// channel mean of the two palettes' tables, and is far from either palette alone.
TEST(PaletteBlendRenderE2e, TheMiddleStepIsDrawnWithTheMeanOfTheTwoPalettes) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "story.toml", R"([[keyframe]]
step = 0
display.palette = "inferno"
[[keyframe]]
step = 100
display.palette = "viridis"
)");
  const test::RgbaImage png = render_story_middle(dir);
  ASSERT_EQ(png.w, 128);
  ASSERT_EQ(png.h, 96);
  const NpyArray field = read_npy(dir / "field.npy");
  const int w = png.w, h = png.h;

  const render::PaletteSet set = render::load_palettes(render::palette_dir());
  const render::Palette& inferno = set.palettes[set.index_of("inferno")];
  const render::Palette& viridis = set.palettes[set.index_of("viridis")];
  render::Palette mean = inferno;
  for (size_t i = 0; i < mean.lut.size(); ++i) {
    mean.lut[i] = static_cast<uint8_t>((inferno.lut[i] + viridis.lut[i] + 1) / 2);  // half up
  }
  const DisplayParams d;  // the defaults: the story keys only the palette
  const auto want = render::render_field_to_rgba(field.data, w, h, d, mean);
  const auto alone = render::render_field_to_rgba(field.data, w, h, d, inferno);
  const Against got = compare(want, alone, png.rgba);
  EXPECT_LE(got.worst, 1);
  EXPECT_GT(got.far_from_other, static_cast<int>(want.size() / 4)) << "switched, not blended";
}

// Colour keys: a species' colour and the walls' colour blend per channel with the leaving keyframe's
// ease; the model of the species does not change with them.
const char* kColours = R"([[species]]
name = "a"
colour = "#123456"
[[species]]
name = "b"
[[keyframe]]
step = 0
species.1.colour = "#ff2000"
display.walls_colour = "#000000"
[[keyframe]]
step = 100
ease = "smoothstep"
species.1.colour = "#0040ff"
display.walls_colour = "#ffffff"
[[keyframe]]
step = 200
ease = "hold"
species.1.colour = "#20e010"
[[keyframe]]
step = 300
species.1.colour = "#ffffff"
)";

// Written apart from the program's rule: each channel's nearest integer to a + (b - a) * w.
uint32_t mix(uint32_t a, uint32_t b, double w) {
  uint32_t out = 0;
  for (int shift = 0; shift <= 16; shift += 8) {
    const double ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;
    out += static_cast<uint32_t>(std::floor(ca * (1 - w) + cb * w + 0.5)) << shift;
  }
  return out;
}

TEST(ColourBlend, ColourKeysBlendPerChannelWithTheEase) {
  const Preset p = parse_preset(kColours, "colours.toml");
  const auto smooth = [](double t) { return t * t * (3 - 2 * t); };
  struct Case {
    uint64_t step;
    uint32_t species, walls;
  };
  const Case cases[] = {
      {0, 0xff2000, 0x000000},
      {25, mix(0xff2000, 0x0040ff, 0.25), mix(0, 0xffffff, 0.25)},
      {50, mix(0xff2000, 0x0040ff, 0.5), 0x808080},
      {99, mix(0xff2000, 0x0040ff, 0.99), mix(0, 0xffffff, 0.99)},
      {100, 0x0040ff, 0xffffff},
      {150, mix(0x0040ff, 0x20e010, 0.5), 0xffffff},
      {175, mix(0x0040ff, 0x20e010, smooth(0.75)), 0xffffff},
      {250, 0x20e010, 0xffffff},  // hold: no blend until the next keyframe
      {299, 0x20e010, 0xffffff},
      {300, 0xffffff, 0xffffff},
      {5000, 0xffffff, 0xffffff},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.step);
    const Preset at = preset_at(p, c.step);
    EXPECT_EQ(at.species.list[1].colour, c.species);
    EXPECT_EQ(at.display.walls_colour, c.walls);
    EXPECT_EQ(at.species.list[0].colour, 0x123456u);
    EXPECT_EQ(at.species.list[1].model, p.species.list[1].model);
  }
  EXPECT_NE(mix(0xff2000, 0x0040ff, 0.25), 0xff2000u);          // the cases above are blends, not holds
  EXPECT_EQ(blend_colour(0x00ff00, 0xff0000, 0.5), 0x808000u);  // .5 rounds up in each channel
  EXPECT_EQ(blend_colour(0x00ff00, 0xff0000, -1), 0x00ff00u);
  EXPECT_EQ(blend_colour(0x00ff00, 0xff0000, 2), 0xff0000u);

  // A run steps with the blend: the backend holds the colours of the step it reached, for the renderer.
  run::Recipe r;
  r.base = p;
  r.size = "64x48";
  r.agents = "2000";
  r.backend = "cpu";
  run::Run run(r);
  run.step(30);
  EXPECT_EQ(run.backend().species().list[1].colour, mix(0xff2000, 0x0040ff, 0.3));
  EXPECT_EQ(run.preset().display.walls_colour, mix(0, 0xffffff, 0.3));
  run.step(20);
  EXPECT_EQ(run.backend().species().list[1].colour, mix(0xff2000, 0x0040ff, 0.5));
}

// The picture at the middle of a species colour's two keyframes: `render` draws the field's
// channels with the halfway colour, not with either end's.
TEST(ColourBlendRenderE2e, TheMiddleStepIsDrawnWithTheHalfwayColour) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "story.toml", R"([[species]]
name = "a"
colour = "#30c0ff"
[[species]]
name = "b"
[[keyframe]]
step = 0
species.1.colour = "#ff2000"
[[keyframe]]
step = 100
species.1.colour = "#0040ff"
)");
  const test::RgbaImage png = render_story_middle(dir);
  ASSERT_EQ(png.w, 128);
  ASSERT_EQ(png.h, 96);
  const NpyArray field = read_npy_planes(dir / "field.npy");
  ASSERT_EQ(field.planes, 2);
  const int w = png.w, h = png.h;

  const auto drawn_with = [&](uint32_t colour) {
    Preset p = parse_preset(test::read_file(dir / "story.toml"), "story.toml");
    p.species.list[1].colour = colour;
    return render::render_channels_to_rgba(
        field.data, w, h, p.display, render::greyscale_palette(),
        render::channel_colours(resolve_species(p.species, p.model, p.spawn.mode)));
  };
  const auto want = drawn_with(mix(0xff2000, 0x0040ff, 0.5));
  const auto start = drawn_with(0xff2000);
  const Against got = compare(want, start, png.rgba);
  EXPECT_LE(got.worst, 1);
  EXPECT_GT(got.far_from_other, static_cast<int>(want.size() / 8)) << "switched, not blended";
}

}  // namespace
