// The window's artist tools: undo/redo (history), explore draws, the keyframe timeline's edits, and
// a running window following keyframes. The logic without GL; WindowCore through EGL (llvmpipe);
// the timeline on screen under Xvfb.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "gl_support.hpp"
#include "png_image.hpp"
#include "sim/backend.hpp"
#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/explore.hpp"
#include "window/explore_previews.hpp"
#include "window/history.hpp"
#include "window/timeline.hpp"
#include "window/window_core.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

const char* kKeyed = R"([model]
decay = 0.01
[run]
size = "64x48"
agents = 2000
seed = 3
[[keyframe]]
step = 5
ease = "smoothstep"
model.decay = 0.02
model.sensor_distance = 3
[[keyframe]]
step = 25
model.decay = 0.06
model.sensor_distance = 12
display.exposure = 3
)";

TEST(WindowHistory, UndoRestoresTheExactPreviousParameters) {
  ParamHistory h;
  Preset p0;
  h.reset(p0);
  Preset p1 = p0;
  p1.model.decay = 0.0371f;
  p1.display.palette = "magma";
  // A drag in progress is not a step; once released it is one.
  EXPECT_FALSE(h.observe(p1, true));
  EXPECT_TRUE(h.observe(p1, false));
  EXPECT_FALSE(h.observe(p1, false));  // no change, no step
  Preset p2 = p1;
  p2.run.size = {300, 200};
  p2.keyframes.push_back(capture_keyframe(p1, 10, Ease::Hold));
  EXPECT_TRUE(h.observe(p2, false));

  auto back = h.undo(p2);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, p1);
  EXPECT_FALSE(h.observe(*back, false));  // applying the undo is not a new edit
  back = h.undo(*back);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, p0);
  EXPECT_FALSE(h.undo(p0));
  auto fwd = h.redo(p0);
  ASSERT_TRUE(fwd);
  EXPECT_EQ(*fwd, p1);
  fwd = h.redo(*fwd);
  ASSERT_TRUE(fwd);
  EXPECT_EQ(*fwd, p2);
  EXPECT_FALSE(h.redo(p2));
  // A new edit after an undo drops the redo steps.
  back = h.undo(p2);
  Preset p3 = *back;
  p3.model.jitter = 0.25f;
  EXPECT_TRUE(h.observe(p3, false));
  EXPECT_FALSE(h.can_redo());
  EXPECT_EQ(*h.undo(p3), p1);
}

TEST(WindowHistory, KeyframesPlayingAreNotEdits) {
  const Preset p = parse_preset(kKeyed, "k.toml");
  ParamHistory h;
  h.reset(p);
  // The values the keyframes give at steps 0..40 change the preset, not the history.
  for (uint64_t s = 0; s < 40; s += 3) EXPECT_FALSE(h.observe(preset_at(p, s), false)) << s;
  Preset edited = preset_at(p, 10);
  edited.model.step_size = 1.5f;  // not keyframed: an edit
  EXPECT_TRUE(h.observe(edited, false));
  EXPECT_EQ(*h.undo(edited), p);
}

TEST(Explore, SameSeedSameParametersWithinTheRanges) {
  Preset base;
  const std::vector<std::string> palettes = {"inferno", "magma", "viridis"};
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const Preset a = explore_draw(base, seed, palettes);
    EXPECT_EQ(a, explore_draw(base, seed, palettes)) << seed;
    const ModelParams& m = a.model;
    EXPECT_TRUE(m.sensor_angle_deg >= 10 && m.sensor_angle_deg <= 70) << seed;
    EXPECT_TRUE(m.rotation_angle_deg >= 5 && m.rotation_angle_deg <= 100) << seed;
    EXPECT_TRUE(m.sensor_distance >= 4 - 1e-4f && m.sensor_distance <= 30 + 1e-3f) << seed;
    EXPECT_TRUE(m.step_size >= 0.5f - 1e-6f && m.step_size <= 2.5f);
    EXPECT_TRUE(m.deposit >= 0.5f - 1e-6f && m.deposit <= 4 + 1e-5f) << seed;
    EXPECT_TRUE(m.decay >= 0.003f - 1e-7f && m.decay <= 0.1f + 1e-6f) << seed;
    EXPECT_TRUE(m.diffuse >= 0.05f && m.diffuse <= 0.6f) << seed;
    EXPECT_TRUE(m.jitter >= 0 && m.jitter <= 0.4f) << seed;
    EXPECT_EQ(a.run, base.run);  // size, agents and seed kept
    EXPECT_NE(std::find(palettes.begin(), palettes.end(), a.display.palette), palettes.end());
  }
  // Different seeds give different parameters.
  EXPECT_NE(explore_draw(base, 1, palettes).model, explore_draw(base, 2, palettes).model);
  // Several species: each draws its own model, W keeps its diagonal.
  Preset two = parse_preset("[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\n", "two.toml");
  const Preset d = explore_draw(two, 9, palettes);
  EXPECT_EQ(d, explore_draw(two, 9, palettes));
  EXPECT_NE(d.species.list[0].model, d.species.list[1].model);
  EXPECT_EQ(d.species.interaction[0], 1.0f);
  EXPECT_EQ(d.species.interaction[3], 1.0f);
  EXPECT_EQ(d.species.list[1].name, "b");
}

TEST(Explore, PreviewIsTheSmallRunColoured) {
  Preset p = explore_draw(Preset{}, 5, {});
  render::Palette grey = render::greyscale_palette();
  const PreviewImage img = render_preview(p, grey);
  ASSERT_EQ(img.width, kPreviewSize.width);
  ASSERT_EQ(img.height, kPreviewSize.height);
  ASSERT_EQ(img.rgba.size(), static_cast<size_t>(img.width * img.height * 4));
  // Something grew: many grey levels, not one flat colour.
  std::set<uint8_t> levels;
  for (size_t i = 0; i < img.rgba.size(); i += 4) levels.insert(img.rgba[i]);
  EXPECT_GT(levels.size(), 30u);
  // The worker delivers the image it grows alone, on the backend it picks (the CPU one here).
  PreviewWorker worker;
  worker.request(42, p, grey);
  std::vector<PreviewWorker::Done> done;
  for (int i = 0; i < 600 && done.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    done = worker.take_done();
  }
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].id, 42u);
  EXPECT_EQ(done[0].image.rgba, render_previews({{p, grey}}, kPreviewSize, kPreviewSteps, 1).front().rgba);
  if (cuda_device().empty()) {
    EXPECT_EQ(done[0].image.rgba, img.rgba);
  }
}

TEST(Timeline, AddMoveDeleteKeepStepsInOrder) {
  Preset p = parse_preset(kKeyed, "k.toml");
  Preset here = preset_at(p, 15);  // what the panel shows at step 15
  const size_t i = add_keyframe_here(here, 15);
  EXPECT_EQ(i, 1u);
  ASSERT_EQ(here.keyframes.size(), 3u);
  EXPECT_EQ(here.keyframes[1].step, 15u);
  EXPECT_EQ(here.keyframes[1].ease, Ease::Smoothstep);  // the ease of the keyframe before it
  // The new keyframe holds the values of step 15: playing it back gives them at 15 exactly.
  EXPECT_EQ(preset_at(here, 15).model, preset_at(p, 15).model);
  EXPECT_NO_THROW(validate(here));
  // Moving past a neighbour re-sorts; onto a neighbour's step is refused.
  EXPECT_EQ(move_keyframe(here, 1, 5), 1u);
  EXPECT_EQ(here.keyframes[1].step, 15u);
  EXPECT_EQ(move_keyframe(here, 1, 30), 2u);
  EXPECT_EQ(here.keyframes[2].step, 30u);
  EXPECT_EQ(here.keyframes[1].step, 25u);
  EXPECT_NO_THROW(validate(here));
  // Saved and read back the same.
  EXPECT_EQ(parse_preset(preset_to_toml(here), "saved.toml"), here);
  delete_keyframe(here, 0);
  EXPECT_EQ(here.keyframes.size(), 2u);
  EXPECT_EQ(here.keyframes[0].step, 25u);
  EXPECT_EQ(timeline_span(here, 0), 100u);
  EXPECT_GT(timeline_span(here, 1000), 1000u);
}

TEST(Timeline, RunningWindowFollowsTheKeyframes) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const auto dir = test::temp_dir();
  test::write_file(dir / "keyed.toml", kKeyed);
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.preset = (dir / "keyed.toml").string();
  WindowCore core(o);
  test::Fbo fbo(64, 48);
  core.steps_per_frame = 3;
  for (int f = 0; f < 12; ++f) {
    core.step();
    core.render(64, 48);
  }
  EXPECT_EQ(core.backend().steps_done(), 36u);
  EXPECT_EQ(core.preset.model, preset_at(parse_preset(kKeyed, "k"), 36).model);
  EXPECT_EQ(core.preset.display.exposure, 3.0f);
  std::vector<float> window_field, want;
  core.backend().read_field(window_field);
  const Preset p = parse_preset(kKeyed, "k");
  auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
  Preset live = p;
  step_with_keyframes(*b, live, 36);
  b->read_field(want);
  ASSERT_EQ(window_field.size(), want.size());
  EXPECT_EQ(std::memcmp(window_field.data(), want.data(), want.size() * sizeof(float)), 0);
}

using Image = test::RgbaImage;

Image screenshot(const test::XvfbServer& x, const std::filesystem::path& dir, const std::string& name,
                 std::vector<std::string> extra) {
  std::vector<std::string> args{"--frames",  "40",  "--screenshot", name,         "--backend", "cpu",
                                "--threads", "1",   "--preset",     "keyed.toml", "--size",    "256x256",
                                "--agents",  "20K", "--no-vsync",   "--window",   "1280x800"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = test::run_physarum(args, dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                                    {"WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  return test::load_rgba_png(dir / name);
}

TEST(WindowTimelineE2e, ShowsUnderTheFieldWhenThePresetHasKeyframes) {
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  test::write_file(dir / "keyed.toml", kKeyed);
  const Image shown = screenshot(x, dir, "shown.png", {});
  const Image bare = screenshot(x, dir, "bare.png", {"--hide-panel"});
  ASSERT_GT(shown.w, 0);
  ASSERT_EQ(shown.w, bare.w);
  ASSERT_EQ(shown.h, bare.h);
  // The timeline runs along the bottom beside the panel (the field, fitted above it, is checked
  // headless in test_window_layout.cpp), and the field still shows above it.
  int bottom = 0;
  for (int yy = shown.h - 60; yy < shown.h; ++yy) {
    for (int xx = 430; xx < 1270; ++xx)
      bottom += !std::equal(shown.at(xx, yy), shown.at(xx, yy) + 3, bare.at(xx, yy));
  }
  EXPECT_GT(bottom, 840 * 40) << "no timeline at the bottom";
  std::set<uint32_t> colours;
  for (int yy = 50; yy < 500; ++yy) {
    for (int xx = 600; xx < 1100; ++xx) {
      const uint8_t* p = shown.at(xx, yy);
      colours.insert(static_cast<uint32_t>(p[0]) << 16 | static_cast<uint32_t>(p[1]) << 8 | p[2]);
    }
  }
  EXPECT_GT(colours.size(), 200u) << "no field above the timeline";
}

}  // namespace
}  // namespace physarum::app
