// The timeline that edits: the ruler's ticks and snapping, a keyframe selected and dragged with the
// left button on headless ImGui frames (one undo step per drag), seeking by re-running, and the loop.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>  // the timeline window's place
#include <stb_image_write.h>

#include <cstring>
#include <vector>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "run/seeding.hpp"
#include "sim/backend.hpp"
#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/drop.hpp"
#include "window/history.hpp"
#include "window/timeline.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

const char* kKeyed = R"([run]
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

TEST(TimelineRuler, TicksAreOneTwoOrFiveTimesAPowerOfTenAndSnapRoundsToTheGrid) {
  EXPECT_EQ(nice_tick(1000, 500, 70), 200u);  // 2 steps a pixel, 140 at least
  EXPECT_EQ(nice_tick(100, 488, 70), 20u);    // 14.3 at least
  EXPECT_EQ(nice_tick(100, 7000, 70), 1u);    // a step is wider than the gap
  EXPECT_EQ(nice_tick(50'000, 600, 70), 10'000u);
  EXPECT_EQ(nice_tick(3'000'000, 600, 70), 500'000u);
  EXPECT_EQ(minor_tick(200), 100u);
  EXPECT_EQ(minor_tick(100), 20u);
  EXPECT_EQ(minor_tick(500'000), 100'000u);
  EXPECT_EQ(minor_tick(2), 1u);
  EXPECT_EQ(minor_tick(1), 1u);
  EXPECT_EQ(snap_step(247.4, 20), 240u);
  EXPECT_EQ(snap_step(251.0, 20), 260u);
  EXPECT_EQ(snap_step(251.4, 1), 251u);
  EXPECT_EQ(snap_step(-3.0, 10), 0u);
}

TEST(TimelineLoop, TheRangeWrapsAtItsEndOnlyWhenOn) {
  LoopRange loop{true, 10, 20};
  EXPECT_FALSE(loop.wrap(0).has_value());
  EXPECT_FALSE(loop.wrap(19).has_value());
  EXPECT_EQ(loop.wrap(20), 10u);
  EXPECT_EQ(loop.wrap(23), 10u);
  loop.on = false;
  EXPECT_FALSE(loop.wrap(23).has_value());
  EXPECT_FALSE((LoopRange{true, 20, 20}.wrap(30).has_value()));  // an empty range plays on
}

run::Recipe keyed_recipe(const std::filesystem::path& dir) {
  test::write_file(dir / "keyed.toml", kKeyed);
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.preset = (dir / "keyed.toml").string();
  return o;
}

std::vector<float> field_after(uint64_t steps) {
  const Preset p = parse_preset(kKeyed, "k");
  auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
  Preset live = p;
  step_with_keyframes(*b, live, steps);
  std::vector<float> f;
  b->read_field(f);
  return f;
}

bool same_field(WindowCore& core, uint64_t steps) {
  std::vector<float> got;
  core.backend().read_field(got);
  const std::vector<float> want = field_after(steps);
  return got.size() == want.size() && std::memcmp(got.data(), want.data(), want.size() * sizeof(float)) == 0;
}

// A left press on the second diamond selects it; dragged to 63.7 steps it lands on 60 (the ruler's
// small ticks are 10 steps at this width); the history records the whole drag as one step, and
// that one undo gives back the keyframe at 25.
TEST(TimelineEdit, ALeftPressSelectsADiamondADragMovesItSnappedAndOneUndoRestoresIt) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(keyed_recipe(test::temp_dir()));
  core.toggle_pause();  // the keyframes stay where they are; no step moves the playhead
  test::HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  TimelineState st;
  Toasts toasts;
  ParamHistory history;
  history.reset(core.preset);
  int steps_recorded = 0;
  const auto frame = [&](ImVec2 mouse, bool down) {
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    EXPECT_TRUE(draw_timeline(core, st, toasts));
    ImGui::Render();
    steps_recorded += history.observe(core.preset, ImGui::IsAnyItemActive());
  };
  for (int i = 0; i < 3; ++i) frame(ImVec2(5, 5), false);  // the window settles where it goes
  ASSERT_EQ(st.span, 100u);
  ASSERT_NEAR(st.x1 - st.x0, 488.0f, 24.0f) << "the timeline's width changed; the grid below assumes it";
  ASSERT_EQ(snap_grid(st), 10u);
  const Preset before = core.preset;
  const ImGuiWindow* win = ImGui::FindWindowByName("Timeline");
  ASSERT_NE(win, nullptr);
  const float bottom = win->Pos.y + win->Size.y, height = win->Size.y;
  EXPECT_LE(bottom, 720.0f);
  const ImVec2 diamond(x_of_step(st, 25), st.track_mid);
  frame(diamond, true);
  EXPECT_EQ(st.selected, 1);
  const float target = st.x0 + (st.x1 - st.x0) * 0.637f;  // 63.7 steps
  for (int i = 1; i <= 4; ++i)
    frame(ImVec2(diamond.x + (target - diamond.x) * static_cast<float>(i) / 4, diamond.y), true);
  EXPECT_EQ(steps_recorded, 0) << "a drag in progress is not an undo step";
  frame(ImVec2(target, diamond.y), false);
  frame(ImVec2(target, diamond.y), false);
  ASSERT_EQ(core.preset.keyframes.size(), 2u);
  EXPECT_EQ(core.preset.keyframes[1].step, 60u);
  EXPECT_EQ(core.preset.keyframes[0].step, 5u);
  EXPECT_EQ(st.selected, 1);
  EXPECT_FALSE(st.seeker.active()) << "a keyframe's drag is not a scrub";
  EXPECT_EQ(steps_recorded, 1);
  // The selected keyframe's editor opened under the track: the window grew upward, its bottom held.
  EXPECT_GT(win->Size.y, height + 10.0f);
  EXPECT_NEAR(win->Pos.y + win->Size.y, bottom, 0.5f);
  EXPECT_GE(win->Pos.y, 0.0f) << "height " << height << " now " << win->Size.y << " content "
                              << win->ContentSize.y;
  const auto undone = history.undo(core.preset);
  ASSERT_TRUE(undone.has_value());
  EXPECT_EQ(undone->keyframes, before.keyframes);
  EXPECT_FALSE(history.can_undo());
}

// Runs frames as the window does (the timeline's work, then the frame's steps) until the seek ends.
int seek_frames(WindowCore& core, TimelineState& st) {
  int frames = 0;
  while (frames < 10'000) {
    advance_timeline(core, st);
    if (!st.seeker.active()) break;
    core.step();
    ++frames;
  }
  return frames;
}

TEST(TimelineSeek, ScrubbingToAStepGivesTheFieldOfRunningThatManySteps) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(keyed_recipe(test::temp_dir()));
  TimelineState st;
  core.steps_per_frame = 4;
  for (int f = 0; f < 10; ++f) core.step();
  ASSERT_EQ(core.backend().steps_done(), 40u);
  seek_to(core, st, 17);  // back: grows again from step 0
  EXPECT_TRUE(core.paused()) << "the run holds still while the seek goes";
  seek_frames(core, st);
  EXPECT_EQ(core.backend().steps_done(), 17u);
  EXPECT_TRUE(same_field(core, 17));
  EXPECT_EQ(core.preset.model, preset_at(parse_preset(kKeyed, "k"), 17).model);
  EXPECT_FALSE(core.paused()) << "it played before the seek, so it plays on";
  core.toggle_pause();
  seek_to(core, st, 33);  // forward: on from here
  seek_frames(core, st);
  EXPECT_EQ(core.backend().steps_done(), 33u);
  EXPECT_TRUE(same_field(core, 33));
  EXPECT_TRUE(core.paused());
  EXPECT_GT(st.seeker.ms_per_step(), 0.0);
  EXPECT_GT(st.seeker.estimate_s(0, 1000), 0.0);
}

// A seek goes in chunks of a frame's budget by the step time it knows: 10 ms at 1 ms a step is 10
// steps, and the frames between them draw.
TEST(TimelineSeek, EachFrameStepsAboutItsBudget) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(keyed_recipe(test::temp_dir()));
  Seeker s;
  s.note_step_time(1.0, 1);
  s.seek(200);
  EXPECT_TRUE(s.advance(core, 10.0));
  EXPECT_EQ(core.backend().steps_done(), 10u);
  EXPECT_GT(s.progress(), 0.04);
  EXPECT_LT(s.progress(), 0.06);
  while (s.advance(core, 10.0)) {
  }
  EXPECT_EQ(core.backend().steps_done(), 200u);
  EXPECT_TRUE(same_field(core, 200));
}

TEST(TimelineLoop, PlayingTheRangeGoesBackToItsStartWithItsField) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(keyed_recipe(test::temp_dir()));
  TimelineState st;
  st.loop = LoopRange{true, 10, 22};
  core.steps_per_frame = 4;
  std::vector<uint64_t> seen;
  for (int f = 0; f < 40 && seen.size() < 20; ++f) {
    advance_timeline(core, st);
    core.step();
    if (!st.seeker.active()) seen.push_back(core.backend().steps_done());
  }
  // 4, 8, ..., 24, then back at 10 (the frame after the seek steps on: 14), 18, 22 -> 10 ...
  int wraps = 0;
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_LE(seen[i], 24u);
    if (seen[i] < seen[i - 1]) {
      ++wraps;
      EXPECT_GE(seen[i - 1], 22u);
      EXPECT_EQ(seen[i], 14u);
    }
  }
  EXPECT_GE(wraps, 2);
  st.loop.on = false;
  seek_to(core, st, 10);
  seek_frames(core, st);
  EXPECT_TRUE(same_field(core, 10));
}

// A seed image dropped at step 12: a seek back grows the run again with the image at step 12, so the
// field at 30 is that of 12 steps, the image, and 18 more steps; a seek to 8 is before the drop.
TEST(TimelineSeek, ASeekBackAppliesADroppedSeedImageAgainAtItsStep) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const auto dir = test::temp_dir();
  std::vector<unsigned char> px(40 * 30);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<unsigned char>((i * 37) % 251);
  const auto image = dir / "seed.png";
  ASSERT_TRUE(stbi_write_png(image.c_str(), 40, 30, 1, px.data(), 0));

  const Preset p = parse_preset(kKeyed, "k");
  auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
  Preset live = p;
  step_with_keyframes(*b, live, 12);
  ASSERT_TRUE(run::seed_from_image(*b, live, image, ImageFit::Fill, nullptr));
  step_with_keyframes(*b, live, 18);
  std::vector<float> want;
  b->read_field(want);

  WindowCore core(keyed_recipe(dir));
  TimelineState st;
  core.steps_per_frame = 4;
  for (int f = 0; f < 3; ++f) core.step();
  ASSERT_EQ(core.backend().steps_done(), 12u);
  std::string message;
  ASSERT_TRUE(load_dropped_image(core, image.string(), DropKind::Seed, ImageFit::Fill, &message)) << message;
  for (int f = 0; f < 7; ++f) core.step();
  ASSERT_EQ(core.backend().steps_done(), 40u);

  const auto field_is = [&](const std::vector<float>& expected) {
    std::vector<float> got;
    core.backend().read_field(got);
    return got.size() == expected.size() &&
           std::memcmp(got.data(), expected.data(), expected.size() * sizeof(float)) == 0;
  };
  seek_to(core, st, 30);
  seek_frames(core, st);
  ASSERT_EQ(core.backend().steps_done(), 30u);
  EXPECT_TRUE(field_is(want)) << "the dropped image was not applied again at its step";
  seek_to(core, st, 8);
  seek_frames(core, st);
  EXPECT_TRUE(same_field(core, 8));
  seek_to(core, st, 30);  // forward through the drop's step
  seek_frames(core, st);
  EXPECT_TRUE(field_is(want));
  EXPECT_FALSE(same_field(core, 30)) << "the image changes the run";
}

}  // namespace
}  // namespace physarum::app
