// Videos that start and loop well: a render can start at a later step (--from) and can loop
// seamlessly (--loop, a cross-fade of the last frames into the first).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "png_image.hpp"
#include "sim/params.hpp"
#include "test_support.hpp"
#include "video/loop_fade.hpp"
#include "video_support.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

// ---- The loop's cross-fade ----

struct Collect final : FrameSink {
  std::vector<int> values;  // the first byte of each frame
  bool write_rgba(const uint8_t* rgba, int, int) override {
    values.push_back(rgba[0]);
    return true;
  }
};

TEST(LoopFade, PlansASecondAtMostAQuarterOfTheLoop) {
  EXPECT_EQ(plan_loop(2.0, 30).loop_frames, 60u);
  EXPECT_EQ(plan_loop(2.0, 30).fade_frames, 15u);
  EXPECT_EQ(plan_loop(10.0, 25).fade_frames, 25u);
  EXPECT_EQ(plan_loop(10.0, 25).rendered_frames(), 275u);
  EXPECT_EQ(plan_loop(0.1, 30).fade_frames, 1u);
  try {
    (void)plan_loop(0.05, 30);
    FAIL() << "a loop of 1.5 frames was planned";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--loop 0.05"), std::string::npos) << e.what();
  }
}

TEST(LoopFade, TheLastFramesFadeIntoTheFirst) {
  const LoopPlan plan{8, 2};
  Collect out;
  LoopFade fade(plan, out);
  for (int k = 0; k < 10; ++k) {
    const uint8_t px[4] = {static_cast<uint8_t>(10 * k), 0, 0, 255};
    EXPECT_TRUE(fade.write_rgba(px, 1, 1));
  }
  EXPECT_TRUE(fade.complete());
  const uint8_t extra[4] = {0, 0, 0, 0};
  EXPECT_FALSE(fade.write_rgba(extra, 1, 1));
  // Rendered 2..7 as they are; then 80 with the held 0 at weight 1/2, and 90 with the held 10 at
  // weight 1: the video ends on rendered frame 1, whose successor, frame 2, opens it.
  EXPECT_EQ(out.values, (std::vector<int>{20, 30, 40, 50, 60, 70, 40, 10}));
}

// ---- render --from and --loop, end to end ----

const std::vector<std::pair<std::string, std::string>> kEgl = {{"EGL_PLATFORM", "surfaceless"}};

std::vector<std::string> small_render(std::vector<std::string> more) {
  std::vector<std::string> a = {"render",   "--backend", "cpu",    "--size", "64x48",
                                "--agents", "3K",        "--seed", "5",      "-q"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

test::RgbaImage frame(const fs::path& dir, int number) {
  char name[32];
  std::snprintf(name, sizeof name, "%05d.png", number);
  return test::load_rgba_png(dir / name);
}

size_t frame_count(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}));
}

double mean_abs_difference(const test::RgbaImage& a, const test::RgbaImage& b) {
  EXPECT_EQ(a.rgba.size(), b.rgba.size());
  double sum = 0;
  for (size_t i = 0; i < a.rgba.size() && i < b.rgba.size(); ++i)
    sum += std::abs(static_cast<int>(a.rgba[i]) - static_cast<int>(b.rgba[i]));
  return a.rgba.empty() ? 0.0 : sum / static_cast<double>(a.rgba.size());
}

TEST(RenderStartLoopE2e, FromStartsTheVideoAtThatStep) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg not installed: frame folders are written through it";
  const auto dir = test::temp_dir();
  const auto all = test::run_physarum(
      small_render({"--steps", "110", "--every", "1", "--out", "all/%05d.png"}), dir, kEgl);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto late = test::run_physarum(
      small_render({"--steps", "110", "--every", "1", "--from", "100", "--out", "late/%05d.png"}), dir, kEgl);
  ASSERT_EQ(late.exit_code, 0) << late.err;
  EXPECT_EQ(frame_count(dir / "all"), 110u);  // steps 1..110
  EXPECT_EQ(frame_count(dir / "late"), 11u);  // steps 100..110
  for (int k = 0; k <= 10; ++k) {
    const auto a = frame(dir / "all", 100 + k), b = frame(dir / "late", 1 + k);
    ASSERT_FALSE(a.rgba.empty());
    EXPECT_EQ(a.rgba, b.rgba) << "frame of step " << 100 + k;
  }
}

TEST(RenderStartLoopE2e, BadFromOrLoopChangesNothing) {
  const auto dir = test::temp_dir();
  const auto past =
      test::run_physarum(small_render({"--steps", "50", "--from", "50", "--out", "a/%05d.png"}), dir, kEgl);
  EXPECT_NE(past.exit_code, 0);
  EXPECT_NE(past.err.find("--from 50"), std::string::npos) << past.err;
  const auto still =
      test::run_physarum(small_render({"--steps", "50", "--from", "10", "--out", "b.png"}), dir, kEgl);
  EXPECT_NE(still.exit_code, 0);
  EXPECT_NE(still.err.find("--from 10"), std::string::npos) << still.err;
  const auto short_loop =
      test::run_physarum(small_render({"--steps", "50", "--loop", "0.01", "--out", "c/%05d.png"}), dir, kEgl);
  EXPECT_NE(short_loop.exit_code, 0);
  EXPECT_NE(short_loop.err.find("--loop 0.01"), std::string::npos) << short_loop.err;
  EXPECT_FALSE(fs::exists(dir / "a"));
  EXPECT_FALSE(fs::exists(dir / "b.png"));
  EXPECT_FALSE(fs::exists(dir / "c"));
}

TEST(RenderStartLoopE2e, LoopEndsOnAFrameThatFlowsIntoTheFirst) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg not installed: frame folders are written through it";
  const auto dir = test::temp_dir();
  // 1 s at 12 fps: 12 frames, 3 of them cross-faded; 15 rendered, from step 60, every 2 steps.
  const auto r = test::run_physarum(small_render({"--steps", "400", "--from", "60", "--every", "2", "--loop",
                                                  "1", "--fps", "12", "--out", "loop/%05d.png"}),
                                    dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(frame_count(dir / "loop"), 12u);
  std::vector<test::RgbaImage> f;
  for (int k = 1; k <= 12; ++k) f.push_back(frame(dir / "loop", k));
  double largest_step = 0;
  for (size_t k = 0; k + 1 < f.size(); ++k)
    largest_step = std::max(largest_step, mean_abs_difference(f[k], f[k + 1]));
  const double wrap = mean_abs_difference(f.back(), f.front());
  EXPECT_GT(largest_step, 0.0);
  EXPECT_LE(wrap, largest_step);
  // Against the same run without the loop: the video opens on rendered frame 3 (step 66), and
  // closes on the held frame 2 (step 64) at full weight.
  const auto straight = test::run_physarum(
      small_render({"--steps", "88", "--from", "60", "--every", "2", "--out", "straight/%05d.png"}), dir,
      kEgl);
  ASSERT_EQ(straight.exit_code, 0) << straight.err;
  EXPECT_EQ(f.front().rgba, frame(dir / "straight", 4).rgba);
  EXPECT_EQ(f.back().rgba, frame(dir / "straight", 3).rgba);
}

}  // namespace
}  // namespace physarum::app
