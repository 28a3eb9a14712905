// The recorder against the real ffmpeg: what ffprobe reads back from the files it leaves, drop
// accounting, a missing ffmpeg, ffmpeg dying, a full disk and Ctrl-C in the middle of a recording;
// and against a stand-in ffmpeg that stalls. Tests that need ffmpeg skip, with a message, without it.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "sim/params.hpp"
#include "system/process.hpp"
#include "system/signals.hpp"
#include "video/recorder.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

bool have_ffmpeg() {
  return find_on_path("ffmpeg") && find_on_path("ffprobe");
}
#define REQUIRE_FFMPEG() \
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed (apt-get install ffmpeg)"

fs::path test_dir() {
  const char* env = std::getenv("PHYSARUM_TEST_TMP");
  fs::path dir = env ? fs::path(env) : fs::temp_directory_path() / "physarum-tests";
  dir /= "recorder-" + std::to_string(::getpid());
  fs::create_directories(dir);
  return dir;
}

// A gradient that moves with the frame number, so every frame differs.
std::vector<uint8_t> gradient_frame(int w, int h, int frame) {
  std::vector<uint8_t> px(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &px[(static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)) * 4];
      p[0] = static_cast<uint8_t>((x + frame * 4) & 255);
      p[1] = static_cast<uint8_t>((y * 2) & 255);
      p[2] = static_cast<uint8_t>((frame * 8) & 255);
      p[3] = 255;
    }
  }
  return px;
}

// key=value lines of `ffprobe -of default=nw=1`.
std::map<std::string, std::string> probe(const fs::path& file) {
  const ProcessOutput r =
      run_capture({"ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                   "stream=nb_read_frames,width,height,codec_name:format_tags=comment", "-of", "default=nw=1",
                   file.string()});
  std::map<std::string, std::string> kv;
  if (!wait_status_ok(r.wait_status)) return kv;
  size_t pos = 0;
  while (pos < r.out.size()) {
    size_t end = r.out.find('\n', pos);
    if (end == std::string::npos) end = r.out.size();
    const std::string line = r.out.substr(pos, end - pos);
    if (const size_t eq = line.find('='); eq != std::string::npos)
      kv[line.substr(0, eq)] = line.substr(eq + 1);
    pos = end + 1;
  }
  return kv;
}

// The first decoded frame as RGB24.
std::vector<uint8_t> first_frame_rgb(const fs::path& file) {
  const ProcessOutput r = run_capture({"ffmpeg", "-v", "error", "-i", file.string(), "-frames:v", "1", "-f",
                                       "rawvideo", "-pix_fmt", "rgb24", "-"});
  EXPECT_TRUE(wait_status_ok(r.wait_status));
  return {r.out.begin(), r.out.end()};
}

RecorderOptions options_for(const fs::path& out, int w, int h, RingPolicy policy) {
  RecorderOptions o;
  o.output = out;
  o.width = w;
  o.height = h;
  o.fps = 30;
  o.policy = policy;
  o.encoder = "libx264";  // the same codec on every machine (auto is tested separately)
  return o;
}

class PathGuard {
 public:
  explicit PathGuard(const char* value) {
    const char* old = std::getenv("PATH");
    had_ = old != nullptr;
    if (had_) old_ = old;
    ::setenv("PATH", value, 1);
  }
  ~PathGuard() {
    if (had_) {
      ::setenv("PATH", old_.c_str(), 1);
    } else {
      ::unsetenv("PATH");
    }
  }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(RecorderE2e, WaitModeWritesEveryFrameWithSizeCodecAndComment) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "wait 60 frames.mp4";  // a space: no shell in between
  RecorderOptions o = options_for(out, 320, 180, RingPolicy::Wait);
  o.fps = 60;
  o.ring_slots = 2;
  o.comment = "physarum render --preset 'jones' --seed 7 --size 320x180";
  Recorder rec(o);
  for (int i = 0; i < 60; ++i) {
    const auto frame = gradient_frame(320, 180, i);
    ASSERT_TRUE(rec.write_rgba(frame.data(), 320, 180)) << rec.error();
  }
  ASSERT_TRUE(rec.stop()) << rec.error();
  const RecorderStatus s = rec.status();
  EXPECT_EQ(s.submitted, 60u);
  EXPECT_EQ(s.written, 60u);
  EXPECT_EQ(s.dropped, 0u);
  EXPECT_DOUBLE_EQ(s.duration_s, 1.0);
  EXPECT_EQ(s.file_bytes, fs::file_size(out));
  EXPECT_GT(s.file_bytes, 0u);
  EXPECT_TRUE(s.error.empty());
  EXPECT_FALSE(s.recording);

  auto p = probe(out);
  EXPECT_EQ(p["nb_read_frames"], "60");
  EXPECT_EQ(p["width"], "320");
  EXPECT_EQ(p["height"], "180");
  EXPECT_EQ(p["codec_name"], "h264");
  EXPECT_EQ(p["TAG:comment"], o.comment);
  // Once stopped it takes no more frames.
  const auto frame = gradient_frame(320, 180, 0);
  EXPECT_FALSE(rec.write_rgba(frame.data(), 320, 180));
  EXPECT_TRUE(rec.stop());
}

TEST(RecorderE2e, OddSizeIsCroppedToEven) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "odd.mp4";
  Recorder rec(options_for(out, 321, 181, RingPolicy::Wait));
  EXPECT_EQ(rec.status().video_width, 320);
  EXPECT_EQ(rec.status().video_height, 180);
  for (int i = 0; i < 12; ++i) {
    const auto frame = gradient_frame(321, 181, i);
    ASSERT_TRUE(rec.write_rgba(frame.data(), 321, 181));
  }
  ASSERT_TRUE(rec.stop()) << rec.error();
  auto p = probe(out);
  EXPECT_EQ(p["nb_read_frames"], "12");
  EXPECT_EQ(p["width"], "320");
  EXPECT_EQ(p["height"], "180");
}

// Top half white, bottom half black, stored bottom-up (as glReadPixels gives it): the video must
// show black on top. A frame narrower than the recording is padded with black on the right.
TEST(RecorderE2e, BottomUpRowsAreFlippedAndSmallFramesPadded) {
  REQUIRE_FFMPEG();
  const int w = 64, h = 64;
  std::vector<uint8_t> px(static_cast<size_t>(w * h * 4), 0);
  for (int y = 0; y < h / 2; ++y) {  // buffer rows 0..31 = the bottom of the picture
    for (int x = 0; x < w; ++x) {
      for (int c = 0; c < 4; ++c) px[static_cast<size_t>((y * w + x) * 4 + c)] = 255;
    }
  }
  const fs::path out = test_dir() / "flip.mp4";
  RecorderOptions o = options_for(out, 96, 64, RingPolicy::Wait);
  o.bottom_up = true;
  Recorder rec(o);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(rec.write_rgba(px.data(), w, h));
  ASSERT_TRUE(rec.stop()) << rec.error();
  const auto rgb = first_frame_rgb(out);
  ASSERT_EQ(rgb.size(), size_t{96} * 64 * 3);
  auto at = [&](int x, int y) { return static_cast<int>(rgb[static_cast<size_t>((y * 96 + x) * 3)]); };
  EXPECT_LT(at(20, 10), 40);   // top: black
  EXPECT_GT(at(20, 50), 215);  // bottom: white
  EXPECT_LT(at(90, 50), 40);   // padding right of the 64-pixel frame: black
}

// ffmpeg stopped (SIGSTOP) takes nothing: with a one-slot ring every later frame is dropped and
// counted, and the caller never blocks. After SIGCONT the accepted frames reach the file.
TEST(RecorderE2e, DropModeCountsDropsWhenTheEncoderFallsBehind) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "drop.mp4";
  RecorderOptions o = options_for(out, 320, 180, RingPolicy::Drop);
  o.ring_slots = 1;
  Recorder rec(o);
  ASSERT_EQ(::kill(rec.ffmpeg_pid(), SIGSTOP), 0);
  const int submitted = 50;
  for (int i = 0; i < submitted; ++i) {
    const auto frame = gradient_frame(320, 180, i);
    ASSERT_TRUE(rec.write_rgba(frame.data(), 320, 180));  // 230 KB frames fill the 64 KB pipe at once
  }
  RecorderStatus s = rec.status();
  EXPECT_EQ(s.submitted, static_cast<uint64_t>(submitted));
  // One frame may be in the writer's hands and one in the slot; everything else was dropped.
  EXPECT_GE(s.dropped, static_cast<uint64_t>(submitted - 2));
  ASSERT_EQ(::kill(rec.ffmpeg_pid(), SIGCONT), 0);
  ASSERT_TRUE(rec.stop()) << rec.error();
  s = rec.status();
  EXPECT_EQ(s.written + s.dropped, static_cast<uint64_t>(submitted));
  EXPECT_GE(s.written, 1u);
  EXPECT_EQ(probe(out)["nb_read_frames"], std::to_string(s.written));
}

TEST(RecorderE2e, MissingFfmpegIsAClearError) {
  const fs::path out = test_dir() / "missing.mp4";
  PathGuard guard("/nonexistent-physarum-dir");
  try {
    Recorder rec(options_for(out, 320, 180, RingPolicy::Wait));
    FAIL() << "a recorder started without ffmpeg";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "ffmpeg not found on PATH; install it with apt-get install ffmpeg");
  }
  EXPECT_THROW(pick_h264_encoder(), Error);
  EXPECT_FALSE(fs::exists(out));
}

TEST(RecorderE2e, BadArgumentsAreRefused) {
  REQUIRE_FFMPEG();
  const fs::path dir = test_dir();
  EXPECT_THROW(Recorder(options_for(dir / "a.mp4", 1, 180, RingPolicy::Wait)), Error);
  EXPECT_THROW(Recorder(options_for(dir / "no-such-dir" / "a.mp4", 320, 180, RingPolicy::Wait)), Error);
  RecorderOptions o = options_for(dir / "a.mp4", 320, 180, RingPolicy::Wait);
  o.encoder = "mpeg2";
  EXPECT_THROW(Recorder{o}, Error);
  EXPECT_FALSE(fs::exists(dir / "a.mp4"));
}

// A FIFO (or a directory) as the output is refused before ffmpeg starts: ffmpeg would block opening
// a FIFO no one reads, and the window's F9 with it. Needs no ffmpeg: nothing is spawned.
TEST(RecorderE2e, RefusesAFifoOrDirectoryOutputBeforeStartingFfmpeg) {
  const fs::path dir = test_dir() / "special-outputs";
  fs::remove_all(dir);
  fs::create_directories(dir / "folder.mp4");
  ASSERT_EQ(::mkfifo((dir / "fifo.mp4").c_str(), 0600), 0);
  for (const auto& [name, kind] : {std::pair{"fifo.mp4", "a FIFO"}, std::pair{"folder.mp4", "a directory"}}) {
    std::string msg;
    try {
      Recorder rec(options_for(dir / name, 320, 180, RingPolicy::Wait));
    } catch (const Error& e) {
      msg = e.what();
    }
    EXPECT_NE(msg.find(std::string("it exists and is ") + kind), std::string::npos) << name << ": " << msg;
  }
  EXPECT_TRUE(fs::is_fifo(dir / "fifo.mp4"));
}

// Killed mid-recording, ffmpeg leaves no reason of its own: the message gives its end (signal 9).
// The MP4 is fragmented, so the frames ffmpeg had written before still play.
TEST(RecorderE2e, FfmpegDyingMidRecordingStopsTheRecordingWithAMessageAndThePartialFilePlays) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "killed.mp4";
  Recorder rec(options_for(out, 320, 180, RingPolicy::Wait));
  // Frames until ffmpeg has written a fragment (a second of video, 30 frames, plus the encoder's
  // lookahead); the empty header alone is about a kilobyte.
  int i = 0;
  for (; i < 3000; ++i) {
    const auto frame = gradient_frame(320, 180, i);
    ASSERT_TRUE(rec.write_rgba(frame.data(), 320, 180)) << rec.error();
    std::error_code ec;
    if (i >= 60 && fs::file_size(out, ec) > 8192) break;
  }
  ASSERT_LT(i, 3000) << "ffmpeg wrote no fragment";
  ASSERT_EQ(::kill(rec.ffmpeg_pid(), SIGKILL), 0);
  // Each frame is larger than the pipe, so a write to the dead ffmpeg fails within a frame or two.
  bool refused = false;
  for (int j = 0; j < 1000 && !refused; ++j) {
    const auto frame = gradient_frame(320, 180, j);
    refused = !rec.write_rgba(frame.data(), 320, 180);
  }
  EXPECT_TRUE(refused);
  EXPECT_TRUE(rec.failed());
  EXPECT_FALSE(rec.stop());
  EXPECT_NE(rec.error().find("ffmpeg"), std::string::npos) << rec.error();
  EXPECT_NE(rec.error().rfind("recording", 0), 0u) << "the callers say which recording: " << rec.error();
  EXPECT_NE(rec.error().find("killed by signal 9"), std::string::npos) << rec.error();
  EXPECT_EQ(rec.error().find("broken pipe"), std::string::npos) << rec.error();
  EXPECT_FALSE(rec.status().recording);
  const RecorderStatus s = rec.status();
  EXPECT_EQ(s.written + s.dropped + s.skipped, s.submitted);
  const int played = std::atoi(probe(out)["nb_read_frames"].c_str());
  EXPECT_GE(played, 30) << "the partial file does not play";
  EXPECT_LE(static_cast<uint64_t>(played), s.written);
}

// ffmpeg exiting with an error of its own: its words are in the message, not just "broken pipe".
TEST(RecorderE2e, FfmpegsOwnReasonIsInTheMessage) {
  REQUIRE_FFMPEG();
  // /proc takes no new file: ffmpeg exits at once with "No such file or directory".
  RecorderOptions bad = options_for("/proc/version.mp4", 320, 180, RingPolicy::Wait);
  bad.min_free_bytes = 0;  // /proc has no free space to speak of
  Recorder rec2(bad);
  for (int i = 0; i < 200; ++i) {
    const auto frame = gradient_frame(320, 180, i);
    if (!rec2.write_rgba(frame.data(), 320, 180)) break;
  }
  EXPECT_FALSE(rec2.stop());
  EXPECT_NE(rec2.error().find("exit status"), std::string::npos) << rec2.error();
  EXPECT_NE(rec2.error().find("ffmpeg said: "), std::string::npos) << rec2.error();
  EXPECT_NE(rec2.error().find("No such file or directory"), std::string::npos) << rec2.error();
  EXPECT_NE(rec2.error().find("/proc/version.mp4"), std::string::npos) << rec2.error();
}

TEST(RecorderE2e, FullDiskIsReported) {
  REQUIRE_FFMPEG();
  RecorderOptions o = options_for("/dev/full", 320, 180, RingPolicy::Wait);
  Recorder rec(o);
  for (int i = 0; i < 10; ++i) {
    const auto frame = gradient_frame(320, 180, i);
    if (!rec.write_rgba(frame.data(), 320, 180)) break;
  }
  EXPECT_FALSE(rec.stop());
  EXPECT_NE(rec.error().find("No space left on device"), std::string::npos) << rec.error();
}

TEST(RecorderE2e, AutoPicksAnH264EncoderThatWorksHere) {
  REQUIRE_FFMPEG();
  const std::string enc = pick_h264_encoder();
  EXPECT_TRUE(enc == "libx264" || enc == "h264_nvenc") << enc;
  EXPECT_EQ(pick_h264_encoder(), enc);  // cached, same answer
  const fs::path out = test_dir() / "auto.mp4";
  RecorderOptions o = options_for(out, 256, 144, RingPolicy::Wait);
  o.encoder = "auto";
  Recorder rec(o);
  EXPECT_EQ(rec.status().encoder, enc);
  for (int i = 0; i < 5; ++i) {
    const auto frame = gradient_frame(256, 144, i);
    ASSERT_TRUE(rec.write_rgba(frame.data(), 256, 144));
  }
  ASSERT_TRUE(rec.stop()) << rec.error();
  auto p = probe(out);
  EXPECT_EQ(p["codec_name"], "h264");
  EXPECT_EQ(p["nb_read_frames"], "5");
}

// A real full disk: a 1 MB tmpfs mounted in a private mount namespace (root only; skipped
// elsewhere). With the free-space watch off, ffmpeg runs into ENOSPC: the message carries
// ffmpeg's own reason, and the fragments written before still play.
TEST(RecorderE2e, ARealFullDiskGivesFfmpegsReasonAndAPlayablePartialFile) {
  REQUIRE_FFMPEG();
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a small tmpfs needs root (unshare -m)";
  const fs::path dir = test_dir() / "full-disk";
  fs::remove_all(dir);
  fs::create_directories(dir / "mnt");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(120);
    const auto say = [&](const std::string& m) {
      (void)!::write(fds[1], m.data(), m.size());
      ::_exit(0);
    };
    if (::unshare(CLONE_NEWNS) != 0) say("skip:unshare: " + std::string(std::strerror(errno)));
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", (dir / "mnt").c_str(), "tmpfs", 0, "size=1m") != 0) {
      say("skip:mount: " + std::string(std::strerror(errno)));
    }
    RecorderOptions o = options_for(dir / "mnt" / "full.mp4", 320, 180, RingPolicy::Wait);
    o.min_free_bytes = 0;  // the watch off: the disk really fills
    std::string error;
    {
      Recorder rec(o);
      for (int i = 0; i < 5000; ++i) {
        const auto frame = gradient_frame(320, 180, i);
        if (!rec.write_rgba(frame.data(), 320, 180)) break;
      }
      (void)rec.stop();
      error = rec.error();
    }
    // The mount goes with this process: the partial file is copied out for the parent to probe.
    std::error_code ec;
    fs::copy_file(dir / "mnt" / "full.mp4", dir / "partial.mp4", ec);
    say("error:" + error);
  }
  ::close(fds[1]);
  std::string msg;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) msg.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  (void)wait_process(pid);
  if (msg.rfind("skip:", 0) == 0) GTEST_SKIP() << "no private tmpfs here: " << msg.substr(5);
  ASSERT_EQ(msg.rfind("error:", 0), 0u) << msg;
  EXPECT_NE(msg.find("No space left on device"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ffmpeg said: "), std::string::npos) << msg;
  const int played = std::atoi(probe(dir / "partial.mp4")["nb_read_frames"].c_str());
  EXPECT_GT(played, 0) << "the partial file does not play; " << msg;
}

// The free-space watch (fed through the seam): once the disk is nearly full the recording stops
// cleanly with a message, and the file, finished by ffmpeg, plays.
TEST(RecorderE2e, LowFreeSpaceStopsCleanlyBeforeTheDiskIsFull) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "low space.mp4";
  RecorderOptions o = options_for(out, 320, 180, RingPolicy::Wait);
  o.min_free_bytes = uint64_t{100} << 20;
  auto free_now = std::make_shared<std::atomic<uint64_t>>(uint64_t{10} << 30);
  o.free_space = [free_now] { return free_now->load(); };
  Recorder rec(o);
  int accepted = 0;
  for (int i = 0; i < 2000; ++i) {
    if (i == 40) free_now->store(uint64_t{50} << 20);  // 50 MB left, under the 100 MB margin
    const auto frame = gradient_frame(320, 180, i);
    if (!rec.write_rgba(frame.data(), 320, 180)) break;
    ++accepted;
    if (i >= 40) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let the writer look
  }
  EXPECT_LT(accepted, 2000);
  EXPECT_FALSE(rec.stop());
  EXPECT_NE(rec.error().find("before the disk is full"), std::string::npos) << rec.error();
  EXPECT_NE(rec.error().find("50 MB left"), std::string::npos) << rec.error();
  const RecorderStatus s = rec.status();
  EXPECT_EQ(s.written + s.dropped, s.submitted);
  EXPECT_EQ(probe(out)["nb_read_frames"], std::to_string(s.written)) << "ffmpeg finished the file cleanly";
  EXPECT_GE(s.written, 40u);
}

TEST(RecorderE2e, TooLittleFreeSpaceRefusesToStart) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "no space.mp4";
  RecorderOptions o = options_for(out, 320, 180, RingPolicy::Wait);
  o.free_space = [] { return uint64_t{10} << 20; };
  try {
    Recorder rec(o);
    FAIL() << "started with 10 MB free";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("only 10 MB free"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(out));
}

// RealTime pacing from the capture times alone (no clock in the test): frames captured 0.1 s
// apart fill a 30 fps video with three copies each; frames captured faster than 30 fps are
// skipped. The video lasts as long as the capture did.
TEST(RecorderE2e, RealTimePacingRepeatsSlowFramesAndSkipsFastOnes) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "real time.mp4";
  RecorderOptions o = options_for(out, 160, 90, RingPolicy::Wait);
  o.fps = 30;
  o.pacing = Pacing::RealTime;
  Recorder rec(o);
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  for (int i = 0; i < 20; ++i) {  // 0.0 .. 1.9 s at 10 fps
    const auto frame = gradient_frame(160, 90, i);
    ASSERT_TRUE(rec.write_rgba_at(frame.data(), 160, 90, t0 + std::chrono::milliseconds(100 * i)));
  }
  for (int i = 0; i < 40; ++i) {  // 2.0 .. 2.39 s at 100 fps: about every third one is kept
    const auto frame = gradient_frame(160, 90, 20 + i);
    ASSERT_TRUE(rec.write_rgba_at(frame.data(), 160, 90, t0 + std::chrono::milliseconds(2000 + 10 * i)));
  }
  ASSERT_TRUE(rec.stop()) << rec.error();
  const RecorderStatus s = rec.status();
  // Video frame k is due at k / 30 s; the last capture, at 2.39 s, makes frames 0..71.
  EXPECT_EQ(s.video_frames, 72u);
  EXPECT_NEAR(s.duration_s, 2.4, 1e-9);
  EXPECT_NEAR(s.wall_s, 2.39, 1e-9);
  EXPECT_EQ(s.submitted, 60u);
  EXPECT_EQ(s.written + s.skipped, 60u);
  EXPECT_GT(s.skipped, 20u);
  EXPECT_EQ(probe(out)["nb_read_frames"], "72");
}

// Plain write_rgba (no capture time) keeps one video frame per frame, whatever the pacing.
TEST(RecorderE2e, EveryFramePacingWritesEachFrameOnce) {
  REQUIRE_FFMPEG();
  const fs::path out = test_dir() / "every.mp4";
  RecorderOptions o = options_for(out, 160, 90, RingPolicy::Wait);
  Recorder rec(o);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) {
    const auto frame = gradient_frame(160, 90, i);
    ASSERT_TRUE(rec.write_rgba_at(frame.data(), 160, 90, t0 + std::chrono::seconds(i)));
  }
  ASSERT_TRUE(rec.stop()) << rec.error();
  EXPECT_EQ(rec.status().video_frames, 10u);
  EXPECT_EQ(probe(out)["nb_read_frames"], "10");
}

// The size rules checked before any work (no ffmpeg needed): ffmpeg's raw-frame limit, NVENC's
// 4096 a side, odd sides rounded down to even first.
TEST(VideoSizeE2e, ImpossibleSizesAreNamedBeforeAnyWork) {
  EXPECT_EQ(video_size_problem(1920, 1080, "libx264"), "");
  EXPECT_EQ(video_size_problem(16001, 16001, "libx264"), "");  // 16000x16000 after rounding
  EXPECT_NE(video_size_problem(16384, 16256, "libx264").find("too large for ffmpeg"), std::string::npos);
  EXPECT_NE(video_size_problem(1, 100, "libx264").find("too small"), std::string::npos);
  EXPECT_EQ(video_size_problem(4096, 4096, "h264_nvenc"), "");
  EXPECT_NE(video_size_problem(4098, 2160, "h264_nvenc").find("h264_nvenc cannot encode 4098x2160"),
            std::string::npos);
  EXPECT_THROW(encoder_for_size(16384, 16256, "libx264"), Error);
  EXPECT_EQ(encoder_for_size(5000, 3000, "libx264"), "libx264");
  EXPECT_THROW(encoder_for_size(5000, 3000, "h264_nvenc"), Error);
}

// --- Ctrl-C: a child process records until SIGINT arrives, then does what the program's loops do.

void read_exact(int fd, void* buf, size_t n) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r <= 0) {
      ADD_FAILURE() << "the recording child went away early";
      return;
    }
    p += r;
    n -= static_cast<size_t>(r);
  }
}

// In the child: record until a stop is requested; report the count of frames handed over.
// exit_without_stop: end with exit() and leave the open recorder to the atexit finaliser.
[[noreturn]] void child_record(const fs::path& out, int report_fd, bool exit_without_stop, int sig) {
  ::alarm(120);  // never outlive a broken test
  clear_stop_request();
  install_signal_handlers();
  auto* rec = new Recorder(options_for(out, 160, 90, RingPolicy::Wait));
  uint64_t n = 0;
  while (!stop_requested() && n < 100000) {
    const auto frame = gradient_frame(160, 90, static_cast<int>(n));
    if (!rec->write_rgba(frame.data(), 160, 90)) {
      if (stop_requested()) break;  // the signal ended the wait for a free slot: that frame is dropped
      ::_exit(3);
    }
    ++n;
    if (n == 10 && ::write(report_fd, "r", 1) != 1) ::_exit(4);
  }
  if (::write(report_fd, &n, sizeof n) != sizeof n) ::_exit(4);
  if (exit_without_stop) std::exit(stop_signal() == sig ? 0 : 5);  // rec is left open on purpose
  finalise_open();  // what the frame loops do once stop_requested() is seen
  const RecorderStatus st = rec->status();
  const bool ok = !rec->failed() && st.written == n && st.finished && st.written + st.dropped == st.submitted;
  ::_exit(ok && stop_signal() == sig ? 0 : 6);
}

void record_then_interrupt(const fs::path& out, bool exit_without_stop, int sig = SIGINT) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(fds[0]);
    child_record(out, fds[1], exit_without_stop, sig);
  }
  ::close(fds[1]);
  char ready = 0;
  read_exact(fds[0], &ready, 1);  // 10 frames are in
  ASSERT_EQ(::kill(pid, sig), 0);
  uint64_t frames = 0;
  read_exact(fds[0], &frames, sizeof frames);
  ::close(fds[0]);
  const int status = wait_process(pid);
  EXPECT_TRUE(wait_status_ok(status)) << describe_wait_status(status);
  EXPECT_GE(frames, 10u);
  auto p = probe(out);
  EXPECT_EQ(p["nb_read_frames"], std::to_string(frames));
  EXPECT_EQ(p["codec_name"], "h264");
}

TEST(RecorderSignalsE2e, SigintMidRecordingLeavesAPlayableFile) {
  REQUIRE_FFMPEG();
  record_then_interrupt(test_dir() / "sigint.mp4", false);
}

TEST(RecorderSignalsE2e, SigtermAndSighupMidRecordingLeaveAPlayableFile) {
  REQUIRE_FFMPEG();
  record_then_interrupt(test_dir() / "sigterm.mp4", false, SIGTERM);
  record_then_interrupt(test_dir() / "sighup.mp4", false, SIGHUP);  // the terminal was closed
}

TEST(RecorderSignalsE2e, ExitWithAnOpenRecorderFinalisesIt) {
  REQUIRE_FFMPEG();
  record_then_interrupt(test_dir() / "atexit.mp4", true);
}

TEST(RecorderSignals, StopRequestFlag) {
  clear_stop_request();
  EXPECT_FALSE(stop_requested());
  request_stop(SIGTERM);
  EXPECT_TRUE(stop_requested());
  EXPECT_EQ(stop_signal(), SIGTERM);
  EXPECT_EQ(exit_code_for_signal(SIGINT), 130);
  clear_stop_request();
  EXPECT_FALSE(stop_requested());
  EXPECT_EQ(stop_signal(), 0);
}

}  // namespace
}  // namespace physarum::app
