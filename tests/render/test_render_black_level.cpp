// One species' colouring starts at a black level (render::compute_channels_range): the flat noise
// of the first steps maps dark, so videos do not open on a flash; a grown network and the cave
// levels map as they did.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "render/colormap.hpp"
#include "render/palette.hpp"
#include "sim/params.hpp"

namespace physarum {
namespace {

// A field straight after a random spawn: noise around a mean far above its min.
std::vector<float> noise_field(size_t cells) {
  std::vector<float> f(cells);
  uint32_t x = 12345;
  for (auto& v : f) {
    x = x * 1664525u + 1013904223u;
    v = 1.0f + static_cast<float>(x >> 8) / static_cast<float>(1u << 24);  // [1, 2)
  }
  return f;
}

TEST(BlackLevel, OneSpeciesEarlyNoiseMapsDark) {
  const int w = 64, h = 32;
  const std::vector<float> f = noise_field(static_cast<size_t>(w) * h);
  double sum = 0;
  for (float v : f) sum += v;
  const float mean = static_cast<float>(sum / static_cast<double>(f.size()));
  const DisplayParams d;  // auto range, log mapping, continuous
  const render::DisplayRange r = render::compute_channels_range(f.data(), 1, f.size(), d);
  // The mean is half the span above the min (r = 0.5 >= kBlackLevelFull): the black level is the mean.
  EXPECT_FLOAT_EQ(r.lo, mean);
  const render::Palette grey = render::greyscale_palette();
  const auto img = render::render_field_to_rgba(f, w, h, d, grey);
  // Every cell up to the mean is the palette's darkest, every cell clearly above it is not.
  size_t black = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    const bool dark = img[i * 4] == grey.lut[0];
    black += dark ? 1 : 0;
    if (f[i] <= mean) {
      EXPECT_TRUE(dark) << "cell " << i << ": " << f[i];
    } else if (f[i] > mean + 0.01f) {
      EXPECT_FALSE(dark) << "cell " << i << ": " << f[i];
    }
  }
  EXPECT_GT(black, f.size() / 3);
}

TEST(BlackLevel, OneSpeciesGrownNetworkMapsAsBefore) {
  const int w = 64, h = 32;
  // Dark background with thin bright lines: the mean is close to the min (r < kBlackLevelFrom).
  std::vector<float> f(static_cast<size_t>(w) * h, 0.01f);
  for (int x = 0; x < 24; ++x) f[static_cast<size_t>(7) * w + x] = 10.0f + static_cast<float>(x);
  for (int y = 9; y < 17; ++y) f[static_cast<size_t>(y) * w + 40] = 5.0f + static_cast<float>(y);
  const DisplayParams d;
  const render::Palette grey = render::greyscale_palette();
  const render::DisplayRange plain = render::compute_display_range(f.data(), f.size(), d);
  std::vector<uint8_t> expected(f.size() * 4);
  render::map_field_to_rgba(f.data(), w, h, d, plain, grey, expected.data());
  EXPECT_EQ(render::render_field_to_rgba(f, w, h, d, grey), expected);
  EXPECT_EQ(render::compute_channels_range(f.data(), 1, f.size(), d).lo, 0.01f);
}

TEST(BlackLevel, OneSpeciesCaveLevelsKeepTheMin) {
  const std::vector<float> f = noise_field(64 * 32);
  DisplayParams d;
  d.cave = CaveMode::Even;
  const render::DisplayRange plain = render::compute_display_range(f.data(), f.size(), d);
  const render::DisplayRange r = render::compute_channels_range(f.data(), 1, f.size(), d);
  EXPECT_EQ(r.lo, plain.lo);
  EXPECT_EQ(r.inv_span, plain.inv_span);
}

}  // namespace
}  // namespace physarum
