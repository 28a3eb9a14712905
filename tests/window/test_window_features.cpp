// The window's features that need a GL context but no window (EGL, Mesa's llvmpipe without a
// GPU): loading presets into a running WindowCore, the asynchronous readback ring, and recording
// the field offscreen.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "gl_support.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "sim/preset.hpp"
#include "system/process.hpp"
#include "test_support.hpp"
#include "video/async_readback.hpp"
#include "window/window_core.hpp"
#include "window/window_recording.hpp"
#include "window_support.hpp"

namespace physarum::app {
namespace {

TEST(WindowFeatures, UnusedPathNeverOverwritesAnEarlierFile) {
  const auto dir = test::temp_dir();
  const std::filesystem::path typed = dir / "take.mp4";
  EXPECT_EQ(unused_path(typed), typed);
  test::write_file(typed, "first");
  EXPECT_EQ(unused_path(typed), dir / "take-2.mp4");
  test::write_file(dir / "take-2.mp4", "second");
  EXPECT_EQ(unused_path(typed), dir / "take-3.mp4");
  EXPECT_EQ(unused_path("no-such-dir-here/x.png"), std::filesystem::path("no-such-dir-here/x.png"));
}

// What a finished recording says it holds, on the complaint's own numbers: a window drawing
// about 2.4 pictures a second recorded for 53 s at 60 fps.
TEST(WindowFeatures, ARecordingSaysItsFramesItsDistinctPicturesAndTheTimeItCovers) {
  RecorderStatus real;
  real.video_frames = 3183;
  real.written = 129;
  real.duration_s = 3183.0 / 60;
  real.wall_s = 53.0;
  EXPECT_EQ(
      video_summary(real, 60, Pacing::RealTime),
      "3183 frames, 53.0 s at 60 fps, of 53.0 s of running, 129 distinct pictures (each shown 24.7 times on "
      "average): plays in real time");
  EXPECT_EQ(
      slideshow_note(real, 60, Pacing::RealTime),
      "the window drew 2.43 pictures a second, under the video's 60: timing \"smooth\" records each once");
  // The same window recorded smooth: each picture once; the 129 captures span 53 s, and the last
  // one was on screen for one more interval (53 / 128 s): 53.4 s of running in 2.15 s.
  RecorderStatus smooth = real;
  smooth.video_frames = 129;
  smooth.duration_s = 129.0 / 60;
  EXPECT_EQ(video_summary(smooth, 60, Pacing::Smooth),
            "129 frames, 2.1 s at 60 fps, of 53.4 s of running, each a distinct picture: plays 24.8x faster "
            "than it ran");
  EXPECT_EQ(slideshow_note(smooth, 60, Pacing::Smooth), "");
  // A window that keeps up: real time, each picture once.
  RecorderStatus fast;
  fast.video_frames = fast.written = 600;
  fast.duration_s = 10;
  fast.wall_s = 9.99;
  EXPECT_EQ(
      video_summary(fast, 60, Pacing::Smooth),
      "600 frames, 10.0 s at 60 fps, of 10.0 s of running, each a distinct picture: plays in real time");
  EXPECT_EQ(pacing_words(Pacing::Smooth, 60), "smooth: each picture once, at most 60 a second");
}

TEST(WindowFeatures, LoadingAPresetReallocatesOnlyWhenNeededAndABadOneChangesNothing) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  const std::string file = std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/jones-2010.toml";
  Preset p = load_preset(file);
  p.run.size = {96, 64};
  p.run.agents = 3000;
  ASSERT_TRUE(core.apply_preset(p, file)) << core.notice();
  EXPECT_EQ(core.backend().size(), (Size{96, 64}));
  EXPECT_EQ(core.backend().agent_count(), 3000u);
  EXPECT_EQ(core.backend().model(), p.model);
  EXPECT_EQ(core.preset, p);
  EXPECT_EQ(core.palettes().palettes[core.palette_index()].name, p.display.palette);
  EXPECT_EQ(core.preset_file, file);

  // Same size, agents, seed and spawn: the running simulation goes on with the new model.
  core.step();
  core.step();
  const uint64_t steps = core.backend().steps_done();
  Preset q = p;
  q.model.decay = 0.05f;
  q.display.palette = "viridis";
  ASSERT_TRUE(core.apply_preset(q, "elsewhere.toml"));
  EXPECT_EQ(core.backend().steps_done(), steps);
  EXPECT_EQ(core.backend().model().decay, 0.05f);
  EXPECT_EQ(core.palettes().palettes[core.palette_index()].name, "viridis");

  // Invalid values: refused, nothing changes.
  Preset bad = q;
  bad.model.decay = 5.0f;
  bad.run.size = {32, 32};
  const CommandResult refused = core.apply_preset(bad, "bad.toml");
  EXPECT_FALSE(refused);
  EXPECT_NE(refused.error().find("could not load the preset"), std::string::npos) << refused.error();
  EXPECT_EQ(core.notice(), refused.error());
  EXPECT_EQ(core.backend().size(), (Size{96, 64}));
  EXPECT_EQ(core.preset, q);
  EXPECT_EQ(core.preset_file, "elsewhere.toml");
}

struct Collect : FrameSink {
  std::vector<std::vector<uint8_t>> frames;
  int w = 0, h = 0;
  bool write_rgba(const uint8_t* rgba, int width, int height) override {
    frames.emplace_back(rgba, rgba + static_cast<size_t>(width) * height * 4);
    w = width, h = height;
    return true;
  }
};

TEST(WindowFeatures, AsyncReadbackDeliversWhatWasDrawnAndDropsWhenTheRingIsFull) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  test::Fbo fbo(100, 70);
  core.step();
  core.render(100, 70);
  const auto top_down = render::read_framebuffer_rgba(100, 70);
  AsyncReadback rb(2);
  Collect sink;
  EXPECT_TRUE(rb.start(100, 70));
  EXPECT_TRUE(rb.start(100, 70));
  EXPECT_FALSE(rb.start(100, 70));  // both buffers in flight: a drop, never a wait
  EXPECT_EQ(rb.dropped(), 1u);
  rb.deliver(sink, true);
  ASSERT_EQ(sink.frames.size(), 2u);
  EXPECT_EQ(sink.w, 100);
  EXPECT_EQ(sink.h, 70);
  // Rows arrive bottom to top: row y of the delivery is row 69 - y of the image.
  for (int y = 0; y < 70; ++y) {
    ASSERT_EQ(std::memcmp(sink.frames[0].data() + static_cast<size_t>(y) * 400,
                          top_down.data() + static_cast<size_t>(69 - y) * 400, 400),
              0)
        << "row " << y;
  }
  EXPECT_EQ(sink.frames[0], sink.frames[1]);
  EXPECT_TRUE(rb.start(100, 70));  // free again
  rb.deliver(sink, true);
  EXPECT_EQ(sink.frames.size(), 3u);
}

// A read whose fence never passes (a timeout while stopping) is lost: it must be counted, so that
// delivered + dropped == submitted. The fence wait is the seam; before, such a read vanished.
TEST(WindowFeatures, AReadbackWhoseFenceTimesOutIsCountedAsDropped) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  test::Fbo fbo(64, 48);
  glClearColor(0.2f, 0.4f, 0.6f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  AsyncReadback rb(3);
  rb.set_fence_wait([](void*, uint64_t) { return false; });
  Collect sink;
  EXPECT_TRUE(rb.start(64, 48));
  EXPECT_TRUE(rb.start(64, 48));
  rb.deliver(sink, false);  // not done yet: still in flight, nothing lost
  EXPECT_EQ(rb.dropped(), 0u);
  rb.deliver(sink, true);  // stopping: they never finish
  EXPECT_TRUE(sink.frames.empty());
  EXPECT_EQ(rb.submitted(), 2u);
  EXPECT_EQ(rb.dropped(), 2u);
  EXPECT_EQ(rb.delivered() + rb.dropped(), rb.submitted());
  // Real fences again: a read is delivered and counted as such.
  rb.set_fence_wait([](void* fence, uint64_t timeout) {
    const GLenum r = glClientWaitSync(static_cast<GLsync>(fence), GL_SYNC_FLUSH_COMMANDS_BIT, timeout);
    return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
  });
  EXPECT_TRUE(rb.start(64, 48));
  rb.deliver(sink, true);
  EXPECT_EQ(sink.frames.size(), 1u);
  EXPECT_EQ(rb.delivered(), 1u);
  EXPECT_EQ(rb.delivered() + rb.dropped(), rb.submitted());
}

TEST(WindowFeaturesE2e, RecordingTheFieldOffscreenWritesAPlayableVideo) {
  if (!find_on_path("ffmpeg") || !find_on_path("ffprobe")) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const auto dir = test::temp_dir();
  WindowCore core(test::small_window_recipe());
  test::Fbo window(200, 150);  // stands in for the window's framebuffer
  WindowRecording rec;
  rec.start(dir / "field.mp4", RecordSource::Field, 30, Pacing::EveryFrame, core, 200, 150);
  EXPECT_TRUE(rec.active());
  for (int f = 0; f < 12; ++f) {
    core.step();
    glBindFramebuffer(GL_FRAMEBUFFER, window.fbo.get());
    core.render(200, 150);
    rec.capture_field(core);
    EXPECT_TRUE(rec.poll().empty());
  }
  const std::string msg = rec.stop();
  EXPECT_FALSE(rec.active());
  const RecordingStatus s = rec.status();
  EXPECT_TRUE(s.rec.error.empty()) << s.rec.error;
  EXPECT_EQ(s.rec.written + s.dropped, 12u) << msg;
  EXPECT_GT(s.rec.written, 0u);
  EXPECT_EQ(s.rec.video_width, 64);  // the field's resolution, not the window's
  EXPECT_EQ(s.rec.video_height, 48);
  const ProcessOutput p =
      run_capture({"ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                   "stream=nb_read_frames", "-of", "csv=p=0", (dir / "field.mp4").string()});
  ASSERT_TRUE(wait_status_ok(p.wait_status)) << p.out;
  EXPECT_EQ(std::stoull(p.out), s.rec.written);
}

}  // namespace
}  // namespace physarum::app
