// Several species in the picture: each channel with its own range, the species' colours blended
// additively (on black) or as inks (on white), cave maps from the sum or one channel. The GL
// renderer (llvmpipe through EGL here) against the CPU reference within 1 per channel, by both
// range paths; `physarum render` end to end; one species stays the palette picture.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

#include "gl_support.hpp"
#include "render/colormap.hpp"
#include "render/cuda_interop.hpp"
#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

namespace {

using namespace physarum;

const uint32_t kColours[4] = {0xff3010, 0x20c0ff, 0x30ff40, 0xc040ff};

SpeciesSet species_set(int n) {
  SpeciesSet s;
  for (int i = 0; i < n; ++i) {
    Species sp;
    sp.name = "s" + std::to_string(i);
    sp.colour = kColours[i];
    sp.model.decay = 0.02f + 0.03f * static_cast<float>(i);  // channels of different ranges
    sp.model.deposit = 1.0f + static_cast<float>(i);
    sp.spawn = i % 2 ? SpawnMode::Ring : SpawnMode::Random;
    s.list.push_back(sp);
  }
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) s.interaction.push_back(a == b ? 1.0f : -0.5f);
  }
  return s;
}

struct Image {
  std::vector<uint8_t> rgba;
  int worst_against(const std::vector<uint8_t>& other) const {
    int worst = 0;
    for (size_t i = 0; i < rgba.size(); ++i) worst = std::max(worst, std::abs(rgba[i] - other[i]));
    return worst;
  }
  size_t distinct_colours() const {
    std::set<uint32_t> c;
    for (size_t i = 0; i < rgba.size(); i += 4)
      c.insert(uint32_t{rgba[i]} << 16 | rgba[i + 1] << 8 | rgba[i + 2]);
    return c.size();
  }
};

// Runs S species on the CPU backend, draws with the GL renderer by both range paths and compares
// with the CPU colouring of the same planes.
void expect_gl_matches_cpu(int species, const DisplayParams& d, int steps = 40) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  SimConfig c;
  c.size = {97, 61};  // odd sides
  c.agents = 6000;
  c.seed = 3;
  c.species = species_set(species);
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(steps);
  render::FieldRenderer r;
  const render::Palette grey = render::greyscale_palette();
  r.set_palette(grey);
  test::Fbo fbo(c.size.width, c.size.height);
  r.update_field(*b, true);
  ASSERT_EQ(r.channels(), species);
  std::vector<float> planes;
  b->read_field(planes);
  ASSERT_EQ(planes.size(), static_cast<size_t>(species) * 97 * 61);
  const auto colours = render::channel_colours(b->species());
  const auto cpu = render::render_channels_to_rgba(planes, 97, 61, d, grey, colours);
  for (const bool gpu_range : {false, true}) {
    SCOPED_TRACE(gpu_range ? "range from the compute shaders" : "range from the host");
    if (gpu_range) {
      if (d.cave == CaveMode::Quantile) continue;  // quantiles come only from the host
      r.forget_host_field();
    }
    r.draw(d, render::View{}, 97, 61);
    ASSERT_NO_THROW(render::check_gl("drawing several species"));
    const Image img{render::read_framebuffer_rgba(97, 61)};
    EXPECT_LE(img.worst_against(cpu), 1);
    EXPECT_GE(img.distinct_colours(), d.cave == CaveMode::Off ? 50u : 2u);
  }
}

DisplayParams display(Blend blend, CaveMode cave = CaveMode::Off, int cave_channel = kCaveFromSum) {
  DisplayParams d;
  d.blend = blend;
  d.cave = cave;
  d.cave_channel = cave_channel;
  d.palette = "greyscale";
  return d;
}

TEST(RenderSpecies, TwoSpeciesAdditiveMatchesCpuBlend) {
  expect_gl_matches_cpu(2, display(Blend::Additive));
}
TEST(RenderSpecies, FourSpeciesAdditiveMatchesCpuBlend) {
  expect_gl_matches_cpu(4, display(Blend::Additive));
}
TEST(RenderSpecies, TwoSpeciesInkMatchesCpuBlend) {
  expect_gl_matches_cpu(2, display(Blend::Ink));
}
TEST(RenderSpecies, FourSpeciesInkLinearExposureGammaInvertMatchesCpuBlend) {
  DisplayParams d = display(Blend::Ink);
  d.mapping = Mapping::Linear;
  d.exposure = 2.5f;
  d.gamma = 2.2f;
  d.invert = true;
  expect_gl_matches_cpu(4, d);
}
TEST(RenderSpecies, ThreeSpeciesFixedRangeMatchesCpuBlend) {
  DisplayParams d = display(Blend::Additive);
  d.auto_range = false;
  d.exposure = 0.2f;
  expect_gl_matches_cpu(3, d);
}
TEST(RenderSpecies, CaveMapsFromTheSumAndFromOneChannelMatchCpu) {
  expect_gl_matches_cpu(4, display(Blend::Additive, CaveMode::Even, kCaveFromSum));
  expect_gl_matches_cpu(4, display(Blend::Additive, CaveMode::Even, 2));
  expect_gl_matches_cpu(2, display(Blend::Additive, CaveMode::Quantile, 1));
  DisplayParams d = display(Blend::Additive, CaveMode::Binary, 1);
  d.threshold = 0.3f;
  d.smoothing = 2;
  expect_gl_matches_cpu(2, d);
  d.cave_channel = kCaveFromSum;
  expect_gl_matches_cpu(4, d);
}

// A few steps after a random spawn the channels are noise far above their minimum: each channel's
// black level has moved up from its min towards its mean (the first frames no longer wash out to
// white), and the
// compute shaders' per-workgroup sums give the same picture as the host.
TEST(RenderSpecies, EarlyNoiseGetsABlackLevelOnTheGpuAsOnTheHost) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  SimConfig c;
  c.size = {97, 61};
  c.agents = 6000;
  c.seed = 3;
  c.species = species_set(3);
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(3);
  std::vector<float> planes;
  b->read_field(planes);
  const size_t cells = size_t{97} * 61;
  const render::DisplayRange range = render::compute_channels_range(planes.data(), 3, cells, DisplayParams{});
  for (int ch : {0, 2}) {  // the randomly spawned ones (species 1 starts on a ring)
    const float* p = planes.data() + static_cast<size_t>(ch) * cells;
    const auto [mn, mx] = std::minmax_element(p, p + cells);
    double sum = 0;
    for (size_t i = 0; i < cells; ++i) sum += p[i];
    const double mean = sum / static_cast<double>(cells);
    const double r = (mean - *mn) / (*mx - *mn);
    ASSERT_GT(r, 0.1) << "not noise yet: channel " << ch;
    // The black level in double: min + w (mean - min), w = (r - 0.02) / (0.2 - 0.02) clamped to [0, 1].
    const double w = std::clamp((r - 0.02) / 0.18, 0.0, 1.0);
    const double black = *mn + w * (mean - *mn);
    EXPECT_GT(range.channel_lo[ch], *mn + 0.5 * (mean - *mn)) << ch;
    EXPECT_NEAR(range.channel_lo[ch], black, 1e-4 * black) << ch;
    EXPECT_NEAR(range.channel_inv_span[ch], 1.0 / (*mx - black), 1e-4 / (*mx - black)) << ch;
  }
  for (Blend blend : {Blend::Additive, Blend::Ink}) expect_gl_matches_cpu(3, display(blend), 3);
}

// The black level by hand, and a grown network's range exactly as without it.
TEST(RenderSpecies, BlackLevelByHandAndNoneForAGrownNetwork) {
  EXPECT_EQ(render::channel_black_level(0.0f, 100.0f, 1.0f), 0.0f);            // r = 0.01: the min
  EXPECT_EQ(render::channel_black_level(0.0f, 100.0f, 2.0f), 0.0f);            // r = 0.02: still the min
  EXPECT_EQ(render::channel_black_level(0.0f, 100.0f, 20.0f), 20.0f);          // r = 0.2: the mean
  EXPECT_EQ(render::channel_black_level(0.0f, 100.0f, 50.0f), 50.0f);          // beyond: the mean
  EXPECT_NEAR(render::channel_black_level(0.0f, 100.0f, 11.0f), 5.5f, 1e-5f);  // r = 0.11: halfway
  EXPECT_NEAR(render::channel_black_level(10.0f, 110.0f, 21.0f), 15.5f, 1e-5f);
  EXPECT_EQ(render::channel_black_level(3.0f, 3.0f, 3.0f), 3.0f);  // flat
  // Two channels: a few bright cells on a dark background (mean 1% of the span above the min).
  const size_t cells = 1000;
  std::vector<float> planes(2 * cells, 0.5f);
  for (size_t i = 0; i < 10; ++i) planes[i * 97] = planes[cells + i * 89] = 100.5f;
  const render::DisplayRange r = render::compute_channels_range(planes.data(), 2, cells, DisplayParams{});
  for (int ch = 0; ch < 2; ++ch) {
    const render::DisplayRange one = render::compute_display_range(planes.data() + ch * cells, cells, {});
    EXPECT_EQ(r.channel_lo[ch], one.lo);
    EXPECT_EQ(r.channel_lo[ch], 0.5f);
    EXPECT_EQ(r.channel_inv_span[ch], one.inv_span);
  }
}

// The reference itself, by hand: channel 0 (red) at its maximum and channel 1 (blue) at half its
// range, linear mapping.
TEST(RenderSpecies, CpuBlendByHand) {
  render::ChannelColours colours;
  colours.count = 2;
  colours.rgb[0] = {1.0f, 0.0f, 0.0f};
  colours.rgb[1] = {0.0f, 0.0f, 1.0f};
  render::DisplayRange r;
  r.channel_lo = {0.0f, 10.0f, 0.0f, 0.0f};
  r.channel_inv_span = {0.5f, 0.1f, 0.0f, 0.0f};  // channel 0: [0, 2]; channel 1: [10, 20]
  DisplayParams d;
  d.mapping = Mapping::Linear;
  const float v[2] = {2.0f, 15.0f};
  uint8_t px[4];
  render::blend_channels(v, d, r, colours, px);
  EXPECT_EQ(px[0], 255);
  EXPECT_EQ(px[1], 0);
  EXPECT_EQ(px[2], 128);  // 0.5 * 255 rounded
  EXPECT_EQ(px[3], 255);
  d.blend = Blend::Ink;  // paper * red ink (1, 0, 0) * half-strength blue ink (0.5, 0.5, 1)
  render::blend_channels(v, d, r, colours, px);
  EXPECT_EQ(px[0], 128);
  EXPECT_EQ(px[1], 0);
  EXPECT_EQ(px[2], 0);
  // The cave value: the sum in channel order, or the chosen channel; a channel past the count is the sum.
  const std::vector<float> planes = {1.0f, 2.0f, 10.0f, 20.0f};  // 2 channels of 2 cells
  EXPECT_EQ(render::cave_values(planes.data(), 2, 2, kCaveFromSum), (std::vector<float>{11.0f, 22.0f}));
  EXPECT_EQ(render::cave_values(planes.data(), 2, 2, 1), (std::vector<float>{10.0f, 20.0f}));
  EXPECT_EQ(render::cave_values(planes.data(), 2, 2, 3), (std::vector<float>{11.0f, 22.0f}));
}

// One channel: the multi-channel reference is the palette picture, pixel for pixel.
TEST(RenderSpecies, OneChannelIsThePalettePicture) {
  std::vector<float> field(97 * 61);
  for (size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>((i * 7919) % 1000) * 0.37f;
  const render::Palette grey = render::greyscale_palette();
  for (CaveMode cave : {CaveMode::Off, CaveMode::Even, CaveMode::Binary}) {
    DisplayParams d;
    d.cave = cave;
    d.blend = Blend::Ink;
    d.cave_channel = 2;
    EXPECT_EQ(render::render_channels_to_rgba(field, 97, 61, d, grey, render::ChannelColours{}),
              render::render_field_to_rgba(field, 97, 61, d, grey));
  }
}

TEST(RenderSpecies, DisplayKeysReadWriteAndValidate) {
  const char* text = R"([[species]]
colour = "#ff0000"
[[species]]
colour = "#0000ff"
[display]
blend = "ink"
cave_channel = 1
)";
  const Preset p = parse_preset(text, "two.toml");
  EXPECT_EQ(p.display.blend, Blend::Ink);
  EXPECT_EQ(p.display.cave_channel, 1);
  EXPECT_EQ(parse_preset(preset_to_toml(p), "again.toml"), p);
  const auto error_of = [](const std::string& t) -> std::string {
    try {
      (void)parse_preset(t, "p.toml");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of("[display]\nblend = \"glow\"\n").find("additive, ink"), std::string::npos);
  EXPECT_NE(error_of("[display]\ncave_channel = 4\n").find("cave_channel"), std::string::npos);
  // One species has only channel 0; two species have no channel 2.
  EXPECT_NE(error_of("[display]\ncave_channel = 1\n").find("cave_channel"), std::string::npos);
  std::string two = text;
  two.replace(two.find("cave_channel = 1"), 16, "cave_channel = 2");
  EXPECT_NE(error_of(two).find("cave_channel"), std::string::npos);
  EXPECT_EQ(error_of("[display]\ncave_channel = -1\n"), "");
}

// Reads an .npy of shape (S, H, W) or (H, W), float32 little-endian (what `--out x.npy` writes).
std::vector<float> read_planes(const std::filesystem::path& f, int& planes) {
  std::ifstream in(f, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t header_len = static_cast<uint8_t>(all[8]) | static_cast<size_t>(static_cast<uint8_t>(all[9]))
                                                               << 8;
  const std::string header = all.substr(10, header_len);
  const size_t open = header.find("'shape': (");
  planes = std::count(header.begin() + static_cast<ptrdiff_t>(open), header.begin() + header.find(')', open),
                      ',') == 2
               ? std::stoi(header.substr(open + 10))
               : 1;
  std::vector<float> v((all.size() - 10 - header_len) / 4);
  std::memcpy(v.data(), all.data() + 10 + header_len, v.size() * 4);
  return v;
}

TEST(RenderSpeciesE2e, HeadlessRenderOfFourSpeciesMatchesCpuBlend) {
  const auto dir = test::temp_dir();
  Preset p;
  p.species = species_set(4);
  p.run.size = {160, 96};
  p.run.agents = 12000;
  { std::ofstream(dir / "four.toml") << preset_to_toml(p); }
  for (const char* blend : {"additive", "ink"}) {
    SCOPED_TRACE(blend);
    const auto r = test::run_physarum(
        {"render", "--preset", (dir / "four.toml").string(), "--steps", "80", "--backend", "cpu", "--set",
         std::string("display.blend=") + blend, "--out", "img.png", "--out", "field.npy"},
        dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    int planes = 0;
    const auto field = read_planes(dir / "field.npy", planes);
    ASSERT_EQ(planes, 4);
    ASSERT_EQ(field.size(), 4u * 160 * 96);
    int w = 0, h = 0, n = 0;
    uint8_t* png = stbi_load((dir / "img.png").c_str(), &w, &h, &n, 4);
    ASSERT_NE(png, nullptr);
    const Image img{std::vector<uint8_t>(png, png + static_cast<size_t>(w) * h * 4)};
    stbi_image_free(png);
    ASSERT_EQ(w, 160);
    DisplayParams d = p.display;
    d.blend = parse_blend(blend);
    const auto cpu = render::render_channels_to_rgba(
        field, 160, 96, d, render::greyscale_palette(),
        render::channel_colours(resolve_species(p.species, p.model, p.spawn.mode)));
    EXPECT_LE(img.worst_against(cpu), 1);
    EXPECT_GE(img.distinct_colours(), 50u);
  }
}

// The CUDA backend publishes every channel into the RGBA32F texture (channel c in component c,
// unused ones 0), bit for bit what read_field returns; the renderer then draws through interop the
// same picture as from a host copy.
TEST(RenderSpeciesGpu, InteropPublishesEveryChannelBitForBit) {
  if (!(cuda_built() && !cuda_device().empty())) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context on the NVIDIA device: " << why;
  for (int species : {2, 3, 4}) {
    SCOPED_TRACE(species);
    SimConfig c;
    c.size = {301, 171};
    c.agents = 20000;
    c.seed = 5;
    c.species = species_set(species);
    auto b = create_backend(BackendKind::Cuda, c);
    b->step(50);
    render::Texture tex = render::make_texture_2d(c.size.width, c.size.height, GL_RGBA32F);
    {
      render::CudaGlTexture interop(tex.get());
      interop.publish(*b);
    }
    const size_t cells = static_cast<size_t>(c.size.width) * c.size.height;
    std::vector<float> texels(cells * 4, -1.0f);
    glGetTextureImage(tex.get(), 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(texels.size() * sizeof(float)),
                      texels.data());
    ASSERT_NO_THROW(render::check_gl("glGetTextureImage"));
    std::vector<float> planes;
    b->read_field(planes);
    ASSERT_EQ(planes.size(), cells * static_cast<size_t>(species));
    size_t differ = 0;
    for (size_t i = 0; i < cells; ++i) {
      for (int k = 0; k < 4; ++k) {
        const float want = k < species ? planes[static_cast<size_t>(k) * cells + i] : 0.0f;
        differ += std::memcmp(&want, &texels[i * 4 + static_cast<size_t>(k)], sizeof(float)) != 0;
      }
    }
    EXPECT_EQ(differ, 0u);

    render::FieldRenderer r;
    test::Fbo fbo(c.size.width, c.size.height);
    const DisplayParams d = display(Blend::Additive);
    r.update_field(*b, false);
    EXPECT_TRUE(r.interop_active()) << r.interop_status();
    r.draw(d, render::View{}, c.size.width, c.size.height);  // range from the compute shaders
    const Image img{render::read_framebuffer_rgba(c.size.width, c.size.height)};
    const auto cpu =
        render::render_channels_to_rgba(planes, c.size.width, c.size.height, d, render::greyscale_palette(),
                                        render::channel_colours(b->species()));
    EXPECT_LE(img.worst_against(cpu), 1);
  }
}

}  // namespace
