// Rendering with a real GL context through EGL (no display): Mesa's llvmpipe on a machine without
// a GPU; the NVIDIA device platform with CUDA-GL interop on a GPU (those tests skip elsewhere).
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gl_support.hpp"
#include "render/colormap.hpp"
#include "render/cuda_interop.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "sim/backend.hpp"
#include "window/window_core.hpp"

namespace {

using namespace physarum;

bool cuda_device_present() {
  return cuda_built() && !cuda_device().empty();
}

// The window's per-frame work (sim steps, publish, range, draw) for `frames` frames, cycling
// through every display mode, checking for GL errors after each frame.
void run_window_frames(const std::string& backend, int frames) {
  run::Recipe o;
  o.backend = backend;
  o.size = "160x96";
  o.agents = "8K";
  app::WindowCore core(o);
  test::Fbo fbo(320, 200);
  core.steps_per_frame = 2;
  const CaveMode modes[] = {CaveMode::Off, CaveMode::Even, CaveMode::Quantile, CaveMode::Binary};
  for (int f = 0; f < frames; ++f) {
    core.preset.display.cave = modes[(f / 10) % 4];
    core.preset.display.mapping = (f / 40) % 2 ? Mapping::Linear : Mapping::Log;
    core.preset.display.auto_range = (f / 80) % 2 == 0;
    core.preset.display.smoothing = 2;
    if (f == frames / 2) core.view.zoom_at(3.0f, 100, 60, 320, 200, core.backend().size());
    core.step();
    core.render(320, 200);
    ASSERT_NO_THROW(render::check_gl("a window frame")) << "frame " << f;
  }
  EXPECT_EQ(core.backend().steps_done(), static_cast<uint64_t>(2 * frames));
  // Every display mode, drawn one pixel per cell, is the CPU colouring (render/colormap.hpp) of the
  // field the backend holds, with the same display values and palette.
  const Size s = core.backend().size();
  std::vector<float> field;
  core.backend().read_field(field);
  test::Fbo exact(s.width, s.height);
  core.view = render::View{};
  // With interop the quantile levels come from a host copy made every host_copy_interval frames;
  // compared with this field they must be this field's.
  core.host_copy_interval = 1;
  for (const CaveMode cave : modes) {
    SCOPED_TRACE("cave mode " + std::to_string(static_cast<int>(cave)));
    core.preset.display.cave = cave;
    core.render(s.width, s.height);
    const auto img = render::read_framebuffer_rgba(s.width, s.height);
    const auto cpu = render::render_field_to_rgba(field, s.width, s.height, core.preset.display,
                                                  core.palettes().palettes.at(core.palette_index()));
    ASSERT_EQ(img.size(), cpu.size());
    int worst = 0;
    for (size_t i = 0; i < img.size(); ++i) worst = std::max(worst, std::abs(img[i] - cpu[i]));
    EXPECT_LE(worst, 1);
    size_t differ = 0;  // a grown network, not one flat colour (the binary map's walls are thin)
    for (size_t i = 4; i < img.size(); i += 4) differ += std::memcmp(&img[i], &img[0], 3) != 0;
    EXPECT_GT(differ, img.size() / 4 / 100);
  }
  EXPECT_EQ(core.backend().steps_done(), static_cast<uint64_t>(2 * frames)) << "drawing stepped";
}

TEST(RenderGl, WindowFramesUnderEglWithEveryDisplayModeCpu) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run_window_frames("cpu", 60);
}

TEST(RenderGl, GpuRangeReductionMatchesHost) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  // The same field drawn with the range from the host and from the compute shaders (the host
  // copy forgotten): the images agree, negative values and odd sizes included.
  const Size s{97, 61};
  std::vector<float> field(static_cast<size_t>(s.width) * s.height);
  for (size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>((i * 7919) % 1000) * 0.37f - 20.0f;
  render::FieldRenderer r;
  test::Fbo fbo(s.width, s.height);
  for (CaveMode cave : {CaveMode::Off, CaveMode::Binary}) {
    DisplayParams d;
    d.mapping = Mapping::Linear;
    d.cave = cave;
    d.threshold = 0.37f;
    r.upload_host_field(field.data(), s);
    r.draw(d, render::View{}, s.width, s.height);
    const auto host = render::read_framebuffer_rgba(s.width, s.height);
    r.forget_host_field();
    r.draw(d, render::View{}, s.width, s.height);
    const auto gpu = render::read_framebuffer_rgba(s.width, s.height);
    int worst = 0;
    for (size_t i = 0; i < host.size(); ++i) worst = std::max(worst, std::abs(host[i] - gpu[i]));
    EXPECT_LE(worst, 1) << "cave mode " << static_cast<int>(cave);
    // And the image is not flat (so the comparison means something): this uniform noise starts at
    // its black level, the mean, so about half of it is the darkest colour and half is not.
    size_t differ = 0;
    for (size_t i = 4; i < host.size(); i += 4) differ += std::memcmp(&host[i], &host[0], 3) != 0;
    EXPECT_GT(differ, host.size() / 4 / 10) << "cave mode " << static_cast<int>(cave);
  }
}

// Display values that were typed into the panel past its sliders: levels 100 (past the 16-entry
// thresholds array), smoothing 1e9 (as many compute passes), gamma 0 (a division by zero), NaN or
// infinite exposure. The renderer draws them as the nearest values it can use, by both range
// paths (host and compute shader), and the picture is the CPU's for the clamped values.
TEST(RenderGl, HostileDisplayValuesDrawAsTheirClampedValues) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Size s{97, 61};
  std::vector<float> field;  // blobs (they survive the binary cave's smoothing) and some noise
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      const float noise = static_cast<float>((x * 7919 + y * 104729) % 97) / 97.0f;
      field.push_back(100.0f + 50.0f * std::sin(0.21f * x) * std::cos(0.17f * y) + 8.0f * noise);
    }
  }
  render::FieldRenderer r;
  test::Fbo fbo(s.width, s.height);
  const render::Palette grey = render::greyscale_palette();
  struct Case {
    const char* what;
    DisplayParams typed, meant;
  };
  std::vector<Case> cases;
  const auto add = [&](const char* what, auto&& edit_typed, auto&& edit_meant) {
    DisplayParams d;
    d.mapping = Mapping::Linear;
    d.palette = grey.name;
    Case c{what, d, d};
    edit_typed(c.typed);
    edit_meant(c.meant);
    cases.push_back(c);
  };
  add(
      "levels 100", [](DisplayParams& d) { d.cave = CaveMode::Even, d.levels = 100; },
      [](DisplayParams& d) { d.cave = CaveMode::Even, d.levels = 16; });
  add(
      "levels -3", [](DisplayParams& d) { d.cave = CaveMode::Even, d.levels = -3; },
      [](DisplayParams& d) { d.cave = CaveMode::Even, d.levels = 2; });
  add(
      "smoothing 1e9", [](DisplayParams& d) { d.cave = CaveMode::Binary, d.smoothing = 1'000'000'000; },
      [](DisplayParams& d) { d.cave = CaveMode::Binary, d.smoothing = 8; });
  add(
      "gamma 0", [](DisplayParams& d) { d.gamma = 0.0f; }, [](DisplayParams& d) { d.gamma = 0.05f; });
  add(
      "exposure NaN", [](DisplayParams& d) { d.exposure = std::nanf(""); },
      [](DisplayParams& d) { d.exposure = 1.0f; });
  add(
      "exposure inf, gamma NaN", [](DisplayParams& d) { d.exposure = HUGE_VALF, d.gamma = std::nanf(""); },
      [](DisplayParams& d) { d.exposure = 1.0f, d.gamma = 1.0f; });
  add(
      "threshold -inf", [](DisplayParams& d) { d.cave = CaveMode::Binary, d.threshold = -HUGE_VALF; },
      [](DisplayParams& d) { d.cave = CaveMode::Binary, d.threshold = 0.5f; });
  r.set_palette(grey);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const auto cpu = render::render_field_to_rgba(field, s.width, s.height, c.meant, grey);
    for (const bool gpu_range : {false, true}) {
      r.upload_host_field(field.data(), s);
      if (gpu_range) r.forget_host_field();
      r.draw(c.typed, render::View{}, s.width, s.height);
      ASSERT_NO_THROW(render::check_gl("drawing hostile display values"));
      const auto img = render::read_framebuffer_rgba(s.width, s.height);
      int worst = 0;
      for (size_t i = 0; i < img.size(); ++i) worst = std::max(worst, std::abs(img[i] - cpu[i]));
      EXPECT_LE(worst, 1) << (gpu_range ? "range from the compute shader" : "range from the host");
      // Not one flat colour (all black, all NaN). The noise starts at its black level (its mean), so
      // at gamma 0.05 most of it is black; a twentieth of the cells still differ.
      size_t differ = 0;
      for (size_t i = 4; i < img.size(); i += 4) differ += std::memcmp(&img[i], &img[0], 3) != 0;
      EXPECT_GT(differ, img.size() / 4 / 20);
    }
  }
}

TEST(RenderGl, QuantileHostRangeIsTrackedAndDrawAgainReusesTheFramesRange) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Size s{97, 61};
  std::vector<float> field(static_cast<size_t>(s.width) * s.height);
  for (size_t i = 0; i < field.size(); ++i) field[i] = static_cast<float>((i * 7919) % 1000) * 0.37f;
  render::FieldRenderer r;
  test::Fbo fbo(s.width, s.height);
  DisplayParams d;
  d.cave = CaveMode::Quantile;
  d.levels = 5;
  EXPECT_FALSE(r.has_host_range_for(d)) << "no field yet";
  r.upload_host_field(field.data(), s);
  r.draw(d, render::View{}, s.width, s.height);
  const auto first = render::read_framebuffer_rgba(s.width, s.height);
  // The thresholds depend on the cave mode, the levels and auto-range; not on exposure.
  EXPECT_TRUE(r.has_host_range_for(d));
  DisplayParams other = d;
  other.exposure = 2.0f;
  EXPECT_TRUE(r.has_host_range_for(other));
  other = d;
  other.levels = 7;
  EXPECT_FALSE(r.has_host_range_for(other));
  other = d;
  other.cave = CaveMode::Even;
  EXPECT_FALSE(r.has_host_range_for(other));
  other = d;
  other.auto_range = false;
  EXPECT_FALSE(r.has_host_range_for(other));

  // Drawn again (the recorder's copy): the same image from the same range.
  glClearColor(1, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  r.draw_again(d, render::View{}, s.width, s.height);
  EXPECT_EQ(render::read_framebuffer_rgba(s.width, s.height), first);
  // Five levels: the image is not one flat colour.
  size_t differ = 0;
  for (size_t i = 4; i < first.size(); i += 4) differ += std::memcmp(&first[i], &first[0], 3) != 0;
  EXPECT_GT(differ, first.size() / 4 / 2);
}

TEST(RenderGpu, InteropRoundTripIsBitIdenticalToReadField) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context on the NVIDIA device: " << why;
  SimConfig c;
  c.size = {300, 170};
  c.agents = 20000;
  c.seed = 3;
  auto backend = create_backend(BackendKind::Cuda, c);
  backend->step(50);
  ASSERT_TRUE(backend->can_publish());

  render::Texture tex = render::make_texture_2d(c.size.width, c.size.height, GL_R32F);
  {
    render::CudaGlTexture interop(tex.get());
    interop.publish(*backend);
  }
  std::vector<float> from_gl(static_cast<size_t>(c.size.width) * c.size.height, -1.0f);
  glGetTextureImage(tex.get(), 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(from_gl.size() * sizeof(float)),
                    from_gl.data());
  render::check_gl("glGetTextureImage");
  std::vector<float> expected;
  backend->read_field(expected);
  ASSERT_EQ(expected.size(), from_gl.size());
  EXPECT_EQ(std::memcmp(expected.data(), from_gl.data(), expected.size() * sizeof(float)), 0);

  // And through the renderer, which must have chosen interop.
  render::FieldRenderer r;
  r.update_field(*backend, false);
  EXPECT_TRUE(r.interop_active()) << r.interop_status();
}

TEST(RenderGpu, WindowPathRuns300FramesUnderEglWithoutErrors) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context on the NVIDIA device: " << why;
  run_window_frames("cuda", 300);
}

}  // namespace
