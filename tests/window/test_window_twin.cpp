// The window's twin view (window/twin_view.hpp): B follows A step for step, live parameter changes and
// brush strokes included, so a twin with no perturbation stays at distance exactly 0; a real one
// grows; the overlay's colours match the CPU reference; the window shows it under Xvfb.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "gl_support.hpp"
#include "render/difference.hpp"
#include "render/field_renderer.hpp"
#include "sensitivity/perturbation.hpp"
#include "test_support.hpp"
#include "window/twin_panel.hpp"
#include "window/window_core.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

run::Recipe small_options(const std::string& size = "96x64", const std::string& agents = "3000") {
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = size;
  o.agents = agents;
  o.seed = 5;
  return o;
}

// ||a - b|| / max(||a||, ||b||) in double, written out here rather than taken from the code.
double reference_distance(const std::vector<float>& a, const std::vector<float>& b) {
  long double d = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    d += (static_cast<long double>(a[i]) - b[i]) * (static_cast<long double>(a[i]) - b[i]);
    aa += static_cast<long double>(a[i]) * a[i];
    bb += static_cast<long double>(b[i]) * b[i];
  }
  const long double n = std::sqrt(std::max(aa, bb));
  return n > 0 ? static_cast<double>(std::sqrt(d) / n) : 0.0;
}

// Sixty frames of a twin with a zero perturbation, a live change of two parameters, another number
// of steps a frame, five brush dabs and an eraser dab on the way: every record is exactly 0.
void expect_zero_distance_throughout(const std::string& backend) {
  run::Recipe o = small_options();
  o.backend = backend;
  WindowCore core(o);
  test::Fbo fbo(96, 64);
  core.steps_per_frame = 3;
  for (int f = 0; f < 5; ++f) core.step();  // the twin starts mid-run, from A's state
  ASSERT_TRUE(core.start_twin("agent:0:theta:0")) << core.notice();
  EXPECT_EQ(core.twin.backend()->name(), core.backend().name());  // a backend of A's kind
  core.twin.every = 1;
  for (int f = 0; f < 60; ++f) {
    if (f == 15) {
      ModelParams m = core.preset.model;
      m.sensor_angle_deg = 35.0f;
      m.decay = 0.05f;
      ASSERT_TRUE(core.apply_model(m));
    }
    if (f == 20) core.steps_per_frame = 5;
    if (f >= 25 && f < 30)
      core.brush(BrushStroke{20.0f + 4.0f * static_cast<float>(f - 25), 30.0f, 6.0f, 8.0f});
    if (f == 32) core.brush(BrushStroke{50.0f, 20.0f, 10.0f, -20.0f});  // the eraser
    core.step();
    core.render(96, 64);
  }
  Backend& a = core.backend();
  ASSERT_TRUE(core.twin.active());
  const Backend& b = *core.twin.backend();
  EXPECT_EQ(a.steps_done(), 15u + 20 * 3 + 40 * 5);
  EXPECT_EQ(b.steps_done(), a.steps_done() - 15);  // B followed every step of A
  EXPECT_EQ(b.model(), a.model());                 // and the live change
  EXPECT_EQ(b.model().sensor_angle_deg, 35.0f);
  ASSERT_EQ(core.twin.records().size(), 61u);  // the start and one a frame
  for (const auto& r : core.twin.records()) {
    EXPECT_EQ(r.field_distance, 0.0) << "at step " << r.step;
    EXPECT_EQ(r.agent_fraction, 0.0) << "at step " << r.step;
  }
  // The brush strokes did change the field (else the test would prove little), in both alike.
  std::vector<float> fa, fb;
  a.read_field(fa);
  core.twin.backend()->read_field(fb);
  ASSERT_EQ(fa.size(), fb.size());
  EXPECT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(float)), 0);
  EXPECT_EQ(core.twin.max_abs_difference(), 0.0f);
  const AgentState aa = a.read_agents(), ab = core.twin.backend()->read_agents();
  EXPECT_EQ(aa.x, ab.x);
  EXPECT_EQ(aa.y, ab.y);
  EXPECT_EQ(aa.theta, ab.theta);
}

TEST(WindowTwin, ZeroPerturbationStaysAtDistanceZeroThroughLiveChangesAndBrushStrokes) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  expect_zero_distance_throughout("cpu");
}

TEST(WindowTwin, ZeroPerturbationStaysAtDistanceZeroOnCuda) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  expect_zero_distance_throughout("cuda");
}

TEST(WindowTwin, ABrushStrokeOnlyOneTwinGetsIsADistance) {
  // The counter-test: a stroke given to A alone is measured, so the test above can fail.
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(small_options());
  ASSERT_TRUE(core.start_twin("agent:0:theta:0")) << core.notice();
  core.twin.every = 1;
  core.backend().brush(BrushStroke{30.0f, 30.0f, 6.0f, 8.0f});  // behind the twin's back
  core.step();
  ASSERT_EQ(core.twin.records().size(), 2u);
  EXPECT_GT(core.twin.records().back().field_distance, 0.0);
}

TEST(WindowTwin, APerturbationGrowsAndIsMeasuredAsTheReferenceSays) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(small_options());
  core.steps_per_frame = 4;
  for (int f = 0; f < 10; ++f) core.step();
  ASSERT_TRUE(core.start_twin("agent:0:x:0.7")) << core.notice();
  core.twin.every = 2;
  for (int f = 0; f < 80; ++f) core.step();
  const auto& recs = core.twin.records();
  ASSERT_EQ(recs.size(), 41u);
  EXPECT_EQ(recs.front().step, 0);
  EXPECT_EQ(recs.back().step, 320);
  double first_nonzero = 0;
  for (const auto& r : recs) {
    if (r.field_distance > 0) {
      first_nonzero = r.field_distance;
      break;
    }
  }
  ASSERT_GT(first_nonzero, 0.0) << "the twins never differed";
  // One agent in another cell is ~7e-4 of this young field; the difference spreads to over 10 times
  // that (then the young network's plateau), and from one agent in 3000 to a tenth of them.
  double peak = 0;
  for (const auto& r : recs) peak = std::max(peak, r.field_distance);
  EXPECT_GT(peak, 10 * first_nonzero) << "the difference did not grow";
  EXPECT_GT(recs.back().agent_fraction, 0.1);
  // The last record against the fields as they stand (the last frame measured them).
  std::vector<float> fa, fb;
  core.backend().read_field(fa);
  core.twin.backend()->read_field(fb);
  EXPECT_NEAR(recs.back().field_distance, reference_distance(fa, fb), 1e-12);
  const AgentState aa = core.backend().read_agents(), ab = core.twin.backend()->read_agents();
  size_t differ = 0;
  for (size_t i = 0; i < aa.size(); ++i)
    differ += static_cast<int>(aa.x[i]) != static_cast<int>(ab.x[i]) ||
              static_cast<int>(aa.y[i]) != static_cast<int>(ab.y[i]);
  EXPECT_DOUBLE_EQ(recs.back().agent_fraction, static_cast<double>(differ) / static_cast<double>(aa.size()));
  // A growing series has a positive exponent.
  ASSERT_TRUE(core.twin.fit().ok) << core.twin.fit().why;
  EXPECT_GT(core.twin.fit().lambda, 0.0);
  // The plot's values: log10 of each distance, zeros on the floor.
  const std::vector<float> logd = log10_distances(recs, -9.0f);
  ASSERT_EQ(logd.size(), recs.size());
  for (size_t i = 0; i < recs.size(); ++i) {
    if (recs[i].field_distance == 0) {
      EXPECT_EQ(logd[i], -9.0f);
    } else {
      EXPECT_NEAR(logd[i], std::log10(recs[i].field_distance), 1e-5);
    }
  }
}

TEST(WindowTwin, AParameterPerturbationFollowsLiveChangesOfA) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(small_options());
  ASSERT_TRUE(core.start_twin("model.sensor_angle_deg:1e-3")) << core.notice();
  EXPECT_FLOAT_EQ(core.twin.backend()->model().sensor_angle_deg, core.preset.model.sensor_angle_deg * 1.001f);
  ModelParams m = core.preset.model;
  m.sensor_angle_deg = 40.0f;
  ASSERT_TRUE(core.apply_model(m));
  core.step();
  EXPECT_EQ(core.backend().model().sensor_angle_deg, 40.0f);
  EXPECT_FLOAT_EQ(core.twin.backend()->model().sensor_angle_deg, 40.04f);
  EXPECT_EQ(core.twin.backend()->model().decay, core.backend().model().decay);
}

TEST(WindowTwin, BadSpecsAreRefusedAndARebuildStopsTheTwin) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(small_options());
  const CommandResult spin = core.start_twin("agent:0:spin:1e-4");
  EXPECT_FALSE(spin);
  EXPECT_NE(spin.error().find("'spin' is not theta, x or y"), std::string::npos) << spin.error();
  EXPECT_EQ(core.notice(), spin.error());  // the panel shows it too
  EXPECT_FALSE(core.twin.active());
  const CommandResult id = core.start_twin("agent:3000:theta:1e-4");  // ids 0..2999
  EXPECT_FALSE(id);
  EXPECT_NE(id.error().find("does not exist"), std::string::npos) << id.error();
  EXPECT_FALSE(core.start_twin("field:96,0:1"));
  EXPECT_FALSE(core.twin.active());
  ASSERT_TRUE(core.start_twin("field:3,4:0.5"));
  // A bad restart leaves the running twin alone.
  EXPECT_FALSE(core.start_twin("nonsense"));
  ASSERT_TRUE(core.twin.active());
  EXPECT_EQ(core.twin.perturbation().text, "field:3,4:0.5");
  ASSERT_TRUE(core.reset());
  EXPECT_FALSE(core.twin.active());
  EXPECT_NE(core.twin.stopped_why().find("rebuilt"), std::string::npos);
  core.step();  // and the window goes on
}

TEST(DifferenceColours, HandComputedEndsAndMiddle) {
  using render::difference_rgba;
  const auto eq = [](std::array<uint8_t, 4> c, int r, int g, int b) {
    EXPECT_EQ(c[0], r);
    EXPECT_EQ(c[1], g);
    EXPECT_EQ(c[2], b);
    EXPECT_EQ(c[3], 255);
  };
  eq(difference_rgba(0.0f, 2.0f, false), 255, 255, 255);
  eq(difference_rgba(0.5f, 2.0f, false), 178, 24, 43);    // t = 1: RdBu's red
  eq(difference_rgba(-0.5f, 2.0f, false), 33, 102, 172);  // t = -1: its blue
  eq(difference_rgba(-9.0f, 2.0f, false), 33, 102, 172);  // clamped
  eq(difference_rgba(-0.5f, 2.0f, true), 178, 24, 43);    // |A - B|
  // t = 0.5: halfway from white: 255 * (0.5 + 0.5 * (0.698, 0.094, 0.169)) = 216.495, 139.485, 149.05.
  eq(difference_rgba(0.25f, 2.0f, false), 216, 139, 149);
  eq(difference_rgba(1.0f, 0.0f, false), 255, 255, 255);  // nothing to show: white
  float max_abs = 0;
  const std::vector<float> a{1, 2, 3, 4, 10, 20, 30, 40}, b{1, 1, 1, 1, 10, 20, 35, 40};  // two channels
  const std::vector<float> d = render::difference_plane(a, b, 4, max_abs);
  EXPECT_EQ(d, (std::vector<float>{0, 1, -3, 3}));
  EXPECT_EQ(max_abs, 3.0f);
}

TEST(DifferenceColours, TheOverlayDrawsTheCpuReferenceOfAMinusB) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(small_options("40x24", "600"));
  ASSERT_TRUE(core.start_twin("agent:0:x:0.7"));
  core.twin.every = 1;
  core.steps_per_frame = 5;
  for (int f = 0; f < 30; ++f) core.step();
  std::vector<float> fa, fb;
  core.backend().read_field(fa);
  core.twin.backend()->read_field(fb);
  ASSERT_EQ(fa.size(), 40u * 24u);
  float max_abs = 0;
  for (size_t i = 0; i < fa.size(); ++i) max_abs = std::max(max_abs, std::fabs(fa[i] - fb[i]));
  ASSERT_GT(max_abs, 0.0f);
  EXPECT_EQ(core.twin.max_abs_difference(), max_abs);
  test::Fbo fbo(40, 24);
  for (const auto display : {TwinDisplay::Difference, TwinDisplay::AbsoluteDifference}) {
    core.twin.display = display;
    core.twin.gain = display == TwinDisplay::Difference ? 1.0f : 4.0f;
    core.render(40, 24);
    const std::vector<uint8_t> px = render::read_framebuffer_rgba(40, 24);
    int off = 0, red = 0, blue = 0;
    for (int y = 0; y < 24; ++y) {
      for (int x = 0; x < 40; ++x) {
        const size_t i = static_cast<size_t>(y) * 40 + static_cast<size_t>(x);
        const float d = fa[i] - fb[i];
        const auto want =
            render::difference_rgba(d, core.twin.gain / max_abs, display == TwinDisplay::AbsoluteDifference);
        const uint8_t* got = &px[i * 4];
        for (int c = 0; c < 3; ++c) off += std::abs(got[c] - want[static_cast<size_t>(c)]) > 1;
        red += got[0] > got[2] + 20;
        blue += got[2] > got[0] + 20;
      }
    }
    EXPECT_EQ(off, 0) << "display " << static_cast<int>(display);
    EXPECT_GT(red, 0);
    if (display == TwinDisplay::Difference) {
      EXPECT_GT(blue, 0);
    } else {
      EXPECT_EQ(blue, 0);
    }
  }
}

struct Image {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
};

TEST(WindowTwinE2e, TheWindowShowsTheDifferenceUnderXvfb) {
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const std::vector<std::string> args{
      "--frames", "60",      "--screenshot", "twin.png",     "--backend", "cpu", "--threads",  "1",
      "--seed",   "7",       "--size",       "256x256",      "--agents",  "20K", "--no-vsync", "--hide-panel",
      "--window", "512x512", "--twin",       "agent:0:x:0.7"};
  const auto r = test::run_physarum(args, dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                                    {"WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  Image img;
  int n = 0;
  uint8_t* data = stbi_load((dir / "twin.png").c_str(), &img.w, &img.h, &n, 4);
  ASSERT_NE(data, nullptr);
  img.rgba.assign(data, data + static_cast<size_t>(img.w) * img.h * 4);
  stbi_image_free(data);
  // Mostly white (the twins agree), with red and blue where they part.
  size_t white = 0, red = 0, blue = 0;
  for (size_t i = 0; i < img.rgba.size(); i += 4) {
    const int rr = img.rgba[i], g = img.rgba[i + 1], b = img.rgba[i + 2];
    white += rr > 245 && g > 245 && b > 245;
    red += rr > b + 40 && rr > g + 40;
    blue += b > rr + 40;
  }
  const size_t pixels = img.rgba.size() / 4;
  EXPECT_GT(white, pixels / 4);
  EXPECT_GT(red, 20u);
  EXPECT_GT(blue, 20u);
  // A bad spec is told before a window opens.
  const auto bad =
      test::run_physarum({"--twin", "agent:x", "--frames", "1"}, dir,
                         {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}}, {"WAYLAND_DISPLAY"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE((bad.err + bad.out).find("expected agent:ID"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace physarum::app
