// The recorder's parts on their own: the frame ring and its copy, real-time pacing, the disk
// watch, ffmpeg's command line, the pipe to a process that stops reading, and the GIF pass.
#include <signal.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>

#include "sim/params.hpp"
#include "system/process.hpp"
#include "test_support.hpp"
#include "video/disk_watch.hpp"
#include "video/ffmpeg_args.hpp"
#include "video/ffmpeg_pipe.hpp"
#include "video/frame_ring.hpp"
#include "video/gif_pass.hpp"
#include "video/video_pacer.hpp"

namespace physarum::app {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(FrameRing, SlotsGoOutOnceAndComeBackInQueueOrder) {
  FrameRing ring(3, 8);
  const int a = ring.take(1), b = ring.take(4), c = ring.take(2);
  EXPECT_FALSE(ring.has_free());
  EXPECT_TRUE(ring.filling());
  std::vector<int> taken = {a, b, c};
  std::ranges::sort(taken);
  EXPECT_EQ(taken, (std::vector<int>{0, 1, 2}));
  ring.queue(b);
  ring.queue(a);
  ring.queue(c);
  EXPECT_FALSE(ring.filling());
  const auto first = ring.pop();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->slot, b);
  EXPECT_EQ(first->repeats, 4u);
  ring.release(first->slot);
  EXPECT_TRUE(ring.has_free());
  EXPECT_EQ(ring.drop_queued(), 2u);  // a and c, never written
  EXPECT_TRUE(ring.queue_empty());
  EXPECT_FALSE(ring.pop());
  for (int i = 0; i < 3; ++i) ring.take(1);  // all three are free again
  EXPECT_FALSE(ring.has_free());
}

TEST(FrameRing, SlotCountIsClamped) {
  FrameRing none(0, 4), many(1000, 4);
  int n = 0;
  while (many.has_free()) many.take(1), ++n;
  EXPECT_EQ(n, 64);
  EXPECT_TRUE(none.has_free());
  none.take(1);
  EXPECT_FALSE(none.has_free());
}

// A 3x2 source into a 2x3 video: column 2 cropped, row 2 black; bottom-up reverses the rows.
TEST(FrameRing, CopyCropsPadsAndFlips) {
  std::vector<uint8_t> src(3 * 2 * 4);
  std::iota(src.begin(), src.end(), uint8_t{1});
  std::vector<uint8_t> dst(2 * 3 * 4, 0xAB);
  copy_frame(dst.data(), 2, 3, src.data(), 3, 2, false);
  for (int y = 0; y < 3; ++y) {
    for (int i = 0; i < 8; ++i) {
      const uint8_t want = y < 2 ? src[static_cast<size_t>(y * 12 + i)] : 0;
      EXPECT_EQ(dst[static_cast<size_t>(y * 8 + i)], want) << y << " " << i;
    }
  }
  copy_frame(dst.data(), 2, 3, src.data(), 3, 2, true);
  EXPECT_EQ(dst[0], src[12]);  // the top row is the source's last
  EXPECT_EQ(dst[8], src[0]);
  copy_frame(dst.data(), 2, 3, nullptr, 3, 2, false);
  EXPECT_TRUE(std::ranges::all_of(dst, [](uint8_t v) { return v == 0; }));
}

TEST(VideoPacer, FramesFillTheVideoUpToTheirCaptureTime) {
  const Clock::time_point t0{};
  VideoPacer p(10, Pacing::RealTime, std::nullopt);
  p.capture(t0);
  EXPECT_EQ(p.repeats_for(t0), 1u);  // video frame 0
  p.schedule(1, t0);
  p.capture(t0 + 50ms);
  EXPECT_EQ(p.repeats_for(t0 + 50ms), 0u);  // before the next tick: skipped
  p.capture(t0 + 350ms);
  EXPECT_EQ(p.repeats_for(t0 + 350ms), 3u);  // frames 1, 2, 3
  p.schedule(3, t0 + 350ms);
  p.capture(t0 + 400ms);
  EXPECT_EQ(p.repeats_for(t0 + 400ms), 1u);  // exactly on tick 4
  EXPECT_DOUBLE_EQ(p.wall_s(), 0.4);
  EXPECT_EQ(p.hold_last_until(t0 + 1s), 0u);  // no start time: the video ends at the last frame
}

TEST(VideoPacer, WithAStartTheVideoCoversStartToStop) {
  const Clock::time_point start{};
  VideoPacer p(10, Pacing::RealTime, start);
  p.capture(start + 250ms);
  EXPECT_EQ(p.repeats_for(start + 250ms), 3u);  // shown from the start: frames 0, 1, 2
  p.schedule(3, start + 250ms);
  EXPECT_EQ(p.hold_last_until(start + 1s), 7u);  // frames 3..9 hold it until the stop
  EXPECT_DOUBLE_EQ(p.wall_s(), 1.0);
  EXPECT_EQ(p.hold_last_until(start + 1s), 0u);
}

// Smooth: frames faster than the rate are skipped as in real time, a late one is shown once and
// the clock moves on from it. Worked by hand at 10 fps: 20 frames a second, then 2, then 20 again.
TEST(VideoPacer, SmoothShowsEachFrameAtMostOnceAndKeepsTheClockWhenFramesComeFastEnough) {
  const Clock::time_point t0{};
  const auto at = [&](int ms) { return t0 + std::chrono::milliseconds(ms); };
  const int times[] = {0, 50, 100, 150, 500, 1000, 1500, 1550, 1600, 1650, 1700};
  const auto run = [&](Pacing pacing) {
    VideoPacer p(10, pacing, t0);  // a start time changes neither the first frame nor the end here
    std::vector<uint64_t> repeats;
    for (const int ms : times) {
      p.capture(at(ms));
      repeats.push_back(p.repeats_for(at(ms)));
      if (repeats.back() > 0) p.schedule(repeats.back(), at(ms));
    }
    return std::pair{repeats, p.hold_last_until(at(1700))};
  };
  // Ticks 0, 1; 0.5 s is due at tick 5 but shown once, as video frame 2, and so on; at 1.55 s the
  // clock (moved on to 1.5 s = video frame 4) is not due yet.
  const auto [smooth, smooth_tail] = run(Pacing::Smooth);
  EXPECT_EQ(smooth, (std::vector<uint64_t>{1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1}));
  EXPECT_EQ(smooth_tail, 0u) << "the last frame is not held: it is shown once too";
  // Real time repeats the late ones to keep the clock: 18 video frames in all for 1.7 s.
  const auto [real, real_tail] = run(Pacing::RealTime);
  EXPECT_EQ(real, (std::vector<uint64_t>{1, 0, 1, 0, 4, 5, 5, 0, 1, 0, 1}));
  EXPECT_EQ(real_tail, 0u);
}

TEST(VideoPacer, TheTimingsHaveOneNameEachSmoothFirst) {
  EXPECT_EQ(kWindowPacings[0], Pacing::Smooth);
  for (const Pacing p : kWindowPacings) EXPECT_EQ(pacing_named(pacing_name(p)), p);
  EXPECT_EQ(pacing_name(Pacing::RealTime), "real-time");
  EXPECT_EQ(pacing_named("realtime"), std::nullopt);
}

TEST(DiskWatch, RefusesAtTheStartAndReportsLowSpaceWhileRecording) {
  uint64_t free = 300ull << 20;
  const DiskWatch w("out.mp4", ".", 256ull << 20, [&] { return free; });
  EXPECT_NO_THROW(w.check_at_start());
  EXPECT_EQ(w.low_space_problem(), "");
  free = 100ull << 20;
  EXPECT_EQ(
      w.low_space_problem(),
      "stopped before the disk is full: 100 MB left on the disk of out.mp4 (a recording stops at 256 MB)");
  try {
    w.check_at_start();
    FAIL() << "no error for 100 MB free";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot record to out.mp4: only 100 MB free on its disk (a recording stops at 256 MB)");
  }
}

TEST(FfmpegArgs, EachFormatWritesItsContainerToItsFile) {
  EncodeSettings s;
  s.encoder = "libx264";
  s.width = 64;
  s.height = 48;
  s.fps = 25;
  s.output = "/videos/v.mp4";
  s.frames_file = "/videos/v.gif.frames.mkv";
  s.comment = "made so";
  const auto has = [](const std::vector<std::string>& a, std::initializer_list<const char*> run) {
    const std::vector<std::string> want(run.begin(), run.end());
    return std::search(a.begin(), a.end(), want.begin(), want.end()) != a.end();
  };
  std::vector<std::string> a = ffmpeg_recording_argv("ff", s);
  EXPECT_EQ(a.front(), "ff");
  EXPECT_TRUE(has(a, {"-f", "rawvideo", "-pix_fmt", "rgba", "-s", "64x48", "-r", "25", "-i", "pipe:0"}));
  EXPECT_TRUE(has(a, {"-preset", "veryfast"}));  // Drop: the window's encoder must keep up
  EXPECT_TRUE(has(a, {"-metadata", "comment=made so"}));
  EXPECT_TRUE(has(a, {"-f", "mp4", "file:/videos/v.mp4"}));
  EXPECT_EQ(a.back(), "file:/videos/v.mp4");
  s.format = VideoFormat::Gif;
  a = ffmpeg_recording_argv("ff", s);
  EXPECT_TRUE(has(a, {"-c:v", "ffv1"}));
  EXPECT_EQ(a.back(), "file:/videos/v.gif.frames.mkv");
  s.format = VideoFormat::Webm;
  s.alpha = true;
  s.policy = RingPolicy::Wait;
  a = ffmpeg_recording_argv("ff", s);
  EXPECT_TRUE(has(a, {"-pix_fmt", "yuva420p"}));
  EXPECT_TRUE(has(a, {"-deadline", "good"}));
  EXPECT_TRUE(has(a, {"-f", "webm", "file:/videos/v.mp4"}));
}

// A child that never reads its input: the pipe fills, the write stalls, and end() has to kill it.
TEST(FfmpegPipe, AReaderThatNeverReadsStallsAndIsEnded) {
  const std::filesystem::path log = test::temp_dir() / "log.txt";
  FfmpegPipe p({"sh", "-c", "echo listening >&2; exec sleep 60"}, log);
  std::vector<uint8_t> big(1 << 22);  // far more than a pipe holds
  int err = 0;
  const auto t0 = Clock::now();
  EXPECT_EQ(p.write(
                big.data(), big.size(), 300ms, [] { return false; }, &err),
            FfmpegPipe::WriteResult::Stalled);
  EXPECT_GE(Clock::now() - t0, 300ms);
  EXPECT_EQ(p.write(
                big.data(), big.size(), 10s, [] { return true; }, &err),
            FfmpegPipe::WriteResult::Abandoned);
  p.close_input();
  bool killed = false;
  const int status = p.end(Clock::now() + 100ms, &killed);
  EXPECT_TRUE(killed);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(p.log_tail(), "listening");
}

TEST(FfmpegPipe, AReaderThatLeavesGivesEpipe) {
  FfmpegPipe p({"sh", "-c", "echo a >&2; echo b >&2; echo c >&2; echo gone >&2; exit 4"}, {});
  bool killed = false;
  const int status = p.end(Clock::now() + 10s, &killed);
  EXPECT_FALSE(killed);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 4);
  std::vector<uint8_t> frame(1024);
  int err = 0;
  // As the recorder's writer thread blocks it: a write to a reader gone is EPIPE, not a death.
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old);
  const FfmpegPipe::WriteResult result = p.write(
      frame.data(), frame.size(), 1s, [] { return false; }, &err);
  ::sigaction(SIGPIPE, &old, nullptr);
  EXPECT_EQ(result, FfmpegPipe::WriteResult::Failed);
  EXPECT_EQ(err, EPIPE);
  EXPECT_EQ(p.log_tail(), "b | c | gone");  // the last three lines
  p.remove_log();
}

TEST(GifPass, MissingFramesFailTheFirstPassWithFfmpegsWords) {
  if (!find_on_path("ffmpeg")) GTEST_SKIP() << "ffmpeg is not installed";
  const std::filesystem::path dir = test::temp_dir();
  const std::string problem = make_gif("ffmpeg", dir / "none.mkv", dir / "out.gif", 20s, {}, 64);
  EXPECT_EQ(problem.rfind("the palette pass: ffmpeg exit status", 0), 0u) << problem;
  EXPECT_NE(problem.find("none.mkv"), std::string::npos) << problem;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.gif"));
}

}  // namespace
}  // namespace physarum::app
