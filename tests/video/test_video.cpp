// Video end to end, through the real program: `physarum render --out video.mp4` (checked with
// ffprobe), Ctrl-C in the middle of a render, no ffmpeg on PATH, a corrupt --image, and
// `--record` from the window under Xvfb.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "system/process.hpp"
#include "test_support.hpp"
#include "video_support.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

TEST(HeadlessVideoE2e, SixtyFramesWithSizeCodecAndSeedInTheComment) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r =
      test::run_physarum({"render", "--backend", "cpu",     "--size",   "96x64",   "--agents", "3K",
                          "--seed", "4242",      "--steps", "120",      "--every", "2",        "--quiet",
                          "--out",  "v.mp4",     "--out",   "last.png", "--out",   "last.npy"},
                         dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto p = probe(dir / "v.mp4");
  EXPECT_EQ(p["ok"], "yes");
  EXPECT_EQ(p["codec_name"], "h264");
  EXPECT_EQ(p["width"], "96");
  EXPECT_EQ(p["height"], "64");
  EXPECT_EQ(p["nb_read_frames"], "60");
  EXPECT_NE(p["comment"].find("seed 4242"), std::string::npos) << p["comment"];
  EXPECT_NE(p["comment"].find("--seed 4242"), std::string::npos) << p["comment"];
  EXPECT_NE(p["comment"].find("--every 2"), std::string::npos) << p["comment"];
  EXPECT_TRUE(fs::file_size(dir / "last.png") > 0);
  EXPECT_TRUE(fs::file_size(dir / "last.npy") > 96 * 64 * 4);
  EXPECT_EQ(r.err.find("step "), std::string::npos) << "--quiet, and stderr is not a terminal: no bar";
}

// Quantile cave levels need a host copy of the field; every video frame must have its own levels
// (with CUDA interop they once came out as zero thresholds: one flat colour). `auto` takes the
// CUDA backend and interop where there is a GPU.
TEST(HeadlessVideoE2e, QuantileCaveFramesAreNotFlat) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"render", "--backend",        "auto",  "--size",
                                     "96x64",  "--agents",         "3K",    "--seed",
                                     "7",      "--steps",          "40",    "--every",
                                     "4",      "--quiet",          "--set", "display.cave=quantile",
                                     "--set",  "display.levels=5", "--out", "q.mp4"},
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Frames 1 and 5 (steps 8 and 24) as grey bytes.
  for (const char* n : {"1", "5"}) {
    const ProcessOutput f = run_capture({"ffmpeg", "-v", "error", "-i", (dir / "q.mp4").string(), "-vf",
                                         std::string("select=eq(n\\,") + n + ")", "-frames:v", "1", "-f",
                                         "rawvideo", "-pix_fmt", "gray", "-"});
    ASSERT_TRUE(wait_status_ok(f.wait_status));
    ASSERT_EQ(f.out.size(), 96u * 64u) << "frame " << n;
    const auto [lo, hi] = std::minmax_element(f.out.begin(), f.out.end(), [](char a, char b) {
      return static_cast<unsigned char>(a) < static_cast<unsigned char>(b);
    });
    EXPECT_GT(static_cast<unsigned char>(*hi) - static_cast<unsigned char>(*lo), 60) << "frame " << n;
  }
}

TEST(HeadlessVideoE2e, SigintMidRenderLeavesAPlayableFileAndExits130) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const fs::path video = dir / "interrupted.mp4";
  const int err_fd = ::open((dir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(err_fd, 0);
  const pid_t pid = spawn_process({PHYSARUM_EXE, "render", "--backend", "cpu", "--size", "64x48", "--agents",
                                   "2K", "--steps", "100000000", "--every", "1", "--out", video.string()},
                                  SpawnFds{-1, -1, err_fd}, false);
  ::close(err_fd);
  // Wait until ffmpeg has written something (frames are flowing), at most ~20 s; then a bit more.
  using namespace std::chrono_literals;
  for (int i = 0; i < 400; ++i) {
    std::error_code ec;
    if (fs::exists(video, ec) && fs::file_size(video, ec) > 0) break;
    std::this_thread::sleep_for(50ms);
  }
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const int status = wait_process(pid);
  const std::string err = test::read_file(dir / "stderr.txt");
  ASSERT_TRUE(WIFEXITED(status)) << describe_wait_status(status) << "\n" << err;
  EXPECT_EQ(WEXITSTATUS(status), 130) << err;
  auto p = probe(video);
  EXPECT_EQ(p["ok"], "yes") << err;
  EXPECT_EQ(p["codec_name"], "h264");
  EXPECT_GT(std::stoll(p["nb_read_frames"].empty() ? "0" : p["nb_read_frames"]), 0);
  EXPECT_NE(err.find("stopped by signal 2"), std::string::npos) << err;
}

TEST(HeadlessVideoE2e, NoFfmpegOnPathIsExit1WithAMessageBeforeAnyWork) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"render", "--backend", "cpu", "--size", "64x48", "--agents", "1K",
                                     "--steps", "50", "--out", "x.npy", "--out", "x.mp4"},
                                    dir, {{"PATH", (dir / "empty").string()}}, {});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("ffmpeg not found"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.npy"));
  EXPECT_FALSE(fs::exists(dir / "x.mp4"));
}

TEST(HeadlessVideoE2e, CorruptImageIsExit1WithAMessage) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "bad.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, '\0'));
  const auto r = test::run_physarum({"render", "--backend", "cpu", "--size", "64x48", "--agents", "1K",
                                     "--steps", "5", "--image", "bad.png", "--out", "x.png"},
                                    dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.png"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.png"));
}

TEST(WindowVideoE2e, RecordFromTheStartWritesAPlayableFieldVideo) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      {"--frames", "40", "--backend", "cpu", "--size", "120x80", "--agents", "5K", "--seed", "31",
       "--no-vsync", "--record-every-frame", "--record", "rec.mp4"},
      dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}}, {"WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto p = probe(dir / "rec.mp4");
  EXPECT_EQ(p["ok"], "yes");
  EXPECT_EQ(p["codec_name"], "h264");
  EXPECT_EQ(p["width"], "120");  // the field alone, at its resolution
  EXPECT_EQ(p["height"], "80");
  const long long frames = std::stoll(p["nb_read_frames"].empty() ? "0" : p["nb_read_frames"]);
  EXPECT_GT(frames, 0);
  EXPECT_LE(frames, 40);  // every frame: one per window frame at most; Drop mode may drop some
  EXPECT_NE(p["comment"].find("seed 31"), std::string::npos) << p["comment"];
  EXPECT_NE(r.out.find("recorded rec.mp4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(every frame: each picture once)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("faster than it ran"), std::string::npos) << "the effective speed is told: " << r.out;
}

// What the last line says a window recording holds: its frames and distinct pictures (-1: not said).
struct VideoSaid {
  long long frames = -1, distinct = -1;
};

VideoSaid video_said(const std::string& out, const std::string& file) {
  VideoSaid said;
  const size_t at = out.find("recorded " + file + " (");
  if (at == std::string::npos) return said;
  const std::string line = out.substr(at, out.find('\n', at) - at);
  const size_t colon = line.find("): ");
  if (colon == std::string::npos || std::sscanf(line.c_str() + colon + 3, "%lld frames", &said.frames) != 1)
    return said;
  if (line.find(", each a distinct picture") != std::string::npos) {
    said.distinct = said.frames;
  } else if (const size_t d = line.find(" distinct pictures"); d != std::string::npos) {
    said.distinct = std::atoll(line.c_str() + line.rfind(", ", d) + 2);
  }
  return said;
}

// A window recording, 40 frames drawn under Xvfb with software GL (far fewer than 240 a second).
test::ProcessResult record_40_frames(const test::XvfbServer& x, const fs::path& dir,
                                     std::vector<std::string> extra) {
  std::vector<std::string> args{"--frames",   "40",           "--backend", "cpu",      "--size",
                                "120x80",     "--agents",     "5K",        "--seed",   "31",
                                "--no-vsync", "--record-fps", "240",       "--record", "rec.mp4"};
  args.insert(args.end(), extra.begin(), extra.end());
  return test::run_physarum(args, dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                            {"WAYLAND_DISPLAY"});
}

// The default timing, smooth: a window slower than the video's rate is recorded one frame for each
// picture it drew, never a picture repeated (a slideshow), and the last line says what the video
// holds as ffprobe counts it.
TEST(WindowVideoE2e, SmoothIsTheDefaultAndRecordsEachPictureDrawnOnce) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const auto r = record_40_frames(x, dir, {});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("recording to rec.mp4 (smooth: each picture once, at most 240 a second)"),
            std::string::npos)
      << r.out;
  auto p = probe(dir / "rec.mp4");
  ASSERT_EQ(p["ok"], "yes");
  const long long frames = std::stoll(p["nb_read_frames"].empty() ? "0" : p["nb_read_frames"]);
  const VideoSaid said = video_said(r.out, "rec.mp4");
  EXPECT_EQ(said.frames, frames) << r.out;
  EXPECT_EQ(said.distinct, frames) << "each a distinct picture: " << r.out;
  // One video frame for each frame drawn (Drop mode may lose a few to a busy encoder).
  EXPECT_LE(frames, 40);
  EXPECT_GE(frames, 30) << r.out;
  EXPECT_NE(r.out.find("faster than it ran"), std::string::npos) << r.out;
}

// Real time keeps the clock by repeating a slow window's pictures, and says so: how many distinct
// pictures the video holds, how often each shows, and the timing that records each once.
TEST(WindowVideoE2e, RealTimeRepeatsASlowWindowsPicturesAndSaysSo) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const auto r = record_40_frames(x, dir, {"--record-timing", "real-time"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto p = probe(dir / "rec.mp4");
  ASSERT_EQ(p["ok"], "yes");
  const long long frames = std::stoll(p["nb_read_frames"].empty() ? "0" : p["nb_read_frames"]);
  const VideoSaid said = video_said(r.out, "rec.mp4");
  EXPECT_EQ(said.frames, frames) << r.out;
  EXPECT_GT(said.distinct, 0) << r.out;
  EXPECT_LE(said.distinct, 40) << "no more pictures than the window drew: " << r.out;
  EXPECT_GE(frames, 2 * said.distinct) << "a slow window's pictures repeated: " << r.out;
  EXPECT_NE(r.out.find("plays in real time"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("timing \"smooth\" records each once"), std::string::npos) << r.out;
}

TEST(WindowVideoE2e, RecordThatFailsIsExit1WithOneMessageOnStderr) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"--frames", "20", "--backend", "cpu", "--size", "96x64", "--agents",
                                     "2K", "--no-vsync", "--record", "/dev/full"},
                                    dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                                    {"WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.err.find("recording /dev/full"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("recording /dev/full"), std::string::npos) << r.out;
  // Said once, not "recording stopped: recording stopped: ...".
  for (const char* twice : {"stopped: recording", "failed: recording"}) {
    EXPECT_EQ(r.err.find(twice), std::string::npos) << r.err;
  }
}

TEST(WindowVideoE2e, RecordWithoutFfmpegIsExit1BeforeTheWindowOpens) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      {"--frames", "5", "--backend", "cpu", "--size", "64x48", "--agents", "1K", "--record", "rec.mp4"}, dir,
      {{"PATH", (dir / "empty").string()}, {"DISPLAY", ":9999"}}, {});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("ffmpeg not found"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace physarum::app
