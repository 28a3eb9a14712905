// Several species and the user's inputs: a colour seed image fills channels 0, 1, 2 from its red,
// green and blue (a grey one seeds every channel), PNG and JPEG alike; the brush paints into the
// chosen species' channel or into all.
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <vector>

#include "run/seeding.hpp"
#include "sim/backend.hpp"
#include "sim/image.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/brush.hpp"

namespace physarum::app {
namespace {

Preset species_preset(int n, int w, int h) {
  Preset p;
  p.run.size = {w, h};
  p.run.agents = 50;
  for (int i = 0; i < n; ++i) p.species.list.push_back(Species{});
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) p.species.interaction.push_back(a == b ? 1.0f : 0.0f);
  }
  return p;
}

// Three vertical bands, pure red, green and blue, `w` pixels each, over the whole height.
std::vector<uint8_t> rgb_bands(int w, int h) {
  std::vector<uint8_t> px(static_cast<size_t>(3 * w) * h * 3, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < 3 * w; ++x) px[(static_cast<size_t>(y) * 3 * w + x) * 3 + x / w] = 255;
  }
  return px;
}

// The mean of plane `c` of an (S, H, W) field over columns [x0, x1).
double band_mean(const std::vector<float>& f, int c, Size s, int x0, int x1) {
  double sum = 0;
  for (int y = 0; y < s.height; ++y) {
    for (int x = x0; x < x1; ++x) sum += f[(static_cast<size_t>(c) * s.height + y) * s.width + x];
  }
  return sum / ((x1 - x0) * s.height);
}

TEST(SeedSpecies, ColourImageFillsChannelsFromRedGreenBlue) {
  const auto dir = test::temp_dir();
  const int band = 20, h = 10;
  const auto px = rgb_bands(band, h);
  ASSERT_TRUE(stbi_write_png((dir / "bands.png").c_str(), 3 * band, h, 3, px.data(), 0));
  ASSERT_TRUE(stbi_write_jpg((dir / "bands.jpg").c_str(), 3 * band, h, 3, px.data(), 98));
  for (const char* name : {"bands.png", "bands.jpg"}) {
    SCOPED_TRACE(name);
    for (int species : {3, 4}) {
      Preset p = species_preset(species, 3 * band, h);
      p.spawn.field_strength = 2.0f;
      auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
      std::string msg;
      ASSERT_TRUE(run::seed_from_image(*b, p, dir / name, ImageFit::Fill, &msg)) << msg;
      std::vector<float> f;
      b->read_field(f);
      ASSERT_EQ(f.size(), static_cast<size_t>(species) * 3 * band * h);
      const Size s = p.run.size;
      const double tol = name[6] == 'j' ? 0.15 : 0.02;  // JPEG blurs the colour edges
      for (int c = 0; c < 3; ++c) {
        for (int k = 0; k < 3; ++k) {
          // The inner part of band k (away from the resize filter's reach across the edges).
          const double m = band_mean(f, c, s, k * band + 5, (k + 1) * band - 5);
          EXPECT_NEAR(m, c == k ? 2.0 : 0.0, tol) << "channel " << c << " band " << k;
        }
      }
      if (species == 4) {
        EXPECT_EQ(band_mean(f, 3, s, 0, 3 * band), 0.0) << "no fourth colour";
      }
    }
  }
}

TEST(SeedSpecies, GreyImageSeedsEveryChannelAndOneSpeciesIsUnchanged) {
  const auto dir = test::temp_dir();
  const int w = 24, h = 12;
  std::vector<uint8_t> px(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < px.size(); i += 3) px[i] = px[i + 1] = px[i + 2] = static_cast<uint8_t>(i * 7 % 256);
  ASSERT_TRUE(stbi_write_png((dir / "grey.png").c_str(), w, h, 3, px.data(), 0));
  const LumaImage img = load_colour(dir / "grey.png");
  EXPECT_TRUE(is_grey(img));
  const auto one = image_to_field(load_luma(dir / "grey.png"), {w, h}, 1.5f, ImageFit::Fill);
  EXPECT_EQ(image_to_channels(img, {w, h}, 1.5f, ImageFit::Fill, 3), one) << "one plane for every channel";
  Preset p = species_preset(2, w, h);
  p.spawn.field_strength = 1.5f;
  auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
  ASSERT_TRUE(run::seed_from_image(*b, p, dir / "grey.png", ImageFit::Fill, nullptr));
  std::vector<float> f;
  b->read_field(f);
  ASSERT_EQ(f.size(), 2 * one.size());
  EXPECT_EQ(std::vector<float>(f.begin(), f.begin() + static_cast<ptrdiff_t>(one.size())), one);
  EXPECT_EQ(std::vector<float>(f.begin() + static_cast<ptrdiff_t>(one.size()), f.end()), one);
  // A colour image for one species: its luma, exactly as ever.
  const auto bands = rgb_bands(8, 8);
  ASSERT_TRUE(stbi_write_png((dir / "bands.png").c_str(), 24, 8, 3, bands.data(), 0));
  Preset single;
  single.run.size = {24, 8};
  single.run.agents = 10;
  const run::ImageSeed seed = run::prepare_image_seed(dir / "bands.png", single, {24, 8}, 10, ImageFit::Fill);
  EXPECT_EQ(seed.field, image_to_field(load_luma(dir / "bands.png"), {24, 8}, 3.0f, ImageFit::Fill));
}

TEST(SeedSpecies, BrushPaintsIntoTheChosenChannelOrAll) {
  const Size field{40, 30};
  render::View view;
  BrushSettings brush;
  brush.channel = 1;
  const auto stroke = brush_stroke_at(view, 20, 15, 40, 30, field, brush, false);
  ASSERT_TRUE(stroke);
  EXPECT_EQ(stroke->channel, 1);
  BrushStroke from = *stroke;
  from.x = 2;
  for (const BrushStroke& dab : brush_segment(from, *stroke)) EXPECT_EQ(dab.channel, 1);
  brush.channel = 9;  // nothing such: every channel
  EXPECT_EQ(brush_stroke_at(view, 20, 15, 40, 30, field, brush, false)->channel, kAllChannels);

  Preset p = species_preset(3, field.width, field.height);
  p.run.agents = 1;
  auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
  b->brush(*stroke);
  std::vector<float> f;
  b->read_field(f);
  const size_t cells = static_cast<size_t>(field.width) * field.height;
  const size_t centre = 15 * static_cast<size_t>(field.width) + 20;
  EXPECT_EQ(f[centre], 0.0f);
  EXPECT_GT(f[cells + centre], 0.0f);
  EXPECT_EQ(f[2 * cells + centre], 0.0f);
  brush.channel = kAllChannels;
  b->brush(*brush_stroke_at(view, 20, 15, 40, 30, field, brush, false));
  b->read_field(f);
  EXPECT_GT(f[centre], 0.0f);
  EXPECT_GT(f[2 * cells + centre], 0.0f);
}

}  // namespace
}  // namespace physarum::app
