// What `physarum render` and the window make of odd video requests, through the real program:
// output names ffmpeg would misread, the comment's command run again as written, a resolution no
// encoder takes, window recordings in real time, and the recorder's tests without ffmpeg.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
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
using namespace std::chrono_literals;

// Names ffmpeg reads as an option ("-x"), stdout ("pipe:"), a protocol ("a:b") or splits on
// spaces in a shell: each must become the file asked for, in the directory asked for, and play.
TEST(VideoOutputsE2e, NamesWithADashAColonPipeAndSpacesAreWrittenAsFiles) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const std::vector<std::string> names = {"-lead dash.mp4", "a:b c.mp4", "pipe:1.mp4", "-.mp4"};
  std::vector<std::string> args = {"render", "--backend", "cpu", "--size",  "64x48", "--agents",
                                   "1K",     "--steps",   "20",  "--every", "2",     "-q"};
  for (const auto& n : names) args.push_back("--out=" + n);
  const auto r = test::run_physarum(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& n : names) {
    ASSERT_TRUE(fs::is_regular_file(dir / n)) << n;
    auto p = probe(dir / n);
    EXPECT_EQ(p["ok"], "yes") << n;
    EXPECT_EQ(p["nb_read_frames"], "10") << n;
  }
  EXPECT_EQ(r.out.find("ftyp"), std::string::npos) << "video bytes went to stdout";
}

// The comment's "made with" command, split as a shell would (wordexp, no command substitution)
// and run in another directory, makes a video of the same size and frame count.
TEST(VideoOutputsE2e, TheCommentsCommandRunsAsWritten) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  fs::create_directories(dir / "first");
  fs::create_directories(dir / "again");
  const auto r = test::run_physarum({"render",
                                     "--backend",
                                     "cpu",
                                     "--size",
                                     "80x60",
                                     "--agents",
                                     "2K",
                                     "--seed",
                                     "77",
                                     "--set",
                                     "model.sensor_angle_deg=30",
                                     "--steps",
                                     "30",
                                     "--every",
                                     "3",
                                     "--fps",
                                     "24",
                                     "-q",
                                     "--out",
                                     "my video.mp4"},
                                    dir / "first");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto first = probe(dir / "first" / "my video.mp4");
  const std::string comment = first["comment"];
  const auto at = comment.find("made with: ");
  ASSERT_NE(at, std::string::npos) << comment;
  const std::string command = comment.substr(at + 11);
  wordexp_t we{};
  ASSERT_EQ(::wordexp(command.c_str(), &we, WRDE_NOCMD | WRDE_UNDEF), 0) << command;
  std::vector<std::string> words(we.we_wordv, we.we_wordv + we.we_wordc);
  ::wordfree(&we);
  ASSERT_GE(words.size(), 2u);
  ASSERT_EQ(words[0], "physarum") << command;
  words.erase(words.begin());
  words.push_back("-q");
  const auto again = test::run_physarum(words, dir / "again");
  ASSERT_EQ(again.exit_code, 0) << command << "\n" << again.err;
  auto second = probe(dir / "again" / "my video.mp4");
  EXPECT_EQ(second["ok"], "yes") << command;
  for (const char* key : {"width", "height", "nb_read_frames", "codec_name"}) {
    EXPECT_EQ(second[key], first[key]) << key << " after " << command;
  }
  EXPECT_EQ(first["nb_read_frames"], "10");
  EXPECT_EQ(second["comment"], comment);
}

// A resolution ffmpeg cannot take is refused before any work, not at the first video frame.
TEST(VideoOutputsE2e, AResolutionTheEncoderCannotTakeIsRefusedBeforeTheRun) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      {"render", "--backend", "cpu", "--size", "64x48", "--agents", "1K", "--steps", "1000", "--every", "500",
       "--resolution", "16384x16256", "--out", "big.mp4", "--out", "big.png"},
      dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("16384x16256 video is too large"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("step"), std::string::npos) << "the run started: " << r.err;
  EXPECT_FALSE(fs::exists(dir / "big.mp4"));
  EXPECT_FALSE(fs::exists(dir / "big.png"));
}

// An odd resolution is cropped to even (H.264 in yuv420p needs it), and the run says so up front.
TEST(VideoOutputsE2e, AnOddResolutionIsCroppedToEvenAndSaidSo) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r =
      test::run_physarum({"render", "--backend", "cpu", "--size", "64x48", "--agents", "1K", "--steps", "4",
                          "--every", "2", "--resolution", "101x75", "-q", "--out", "odd.mp4"},
                         dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("the video is 100x74"), std::string::npos) << r.err;
  auto p = probe(dir / "odd.mp4");
  EXPECT_EQ(p["width"], "100");
  EXPECT_EQ(p["height"], "74");
}

// A window recording in real time lasts as long as it ran, however slow the window:
// recorded from the moment its ffmpeg starts until SIGTERM about 3 s later.
TEST(VideoOutputsE2e, WindowRecordingLastsTheWallTime) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    if (kv.rfind("DISPLAY=", 0) != 0 && kv.rfind("WAYLAND_DISPLAY=", 0) != 0) env.push_back(kv);
  }
  env.push_back("DISPLAY=" + x.display());
  env.push_back("LIBGL_ALWAYS_SOFTWARE=1");
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_s = {PHYSARUM_EXE, "--backend", "cpu",          "--size", "256x160",
                                     "--agents",   "20K",       "--record-fps", "30",     "--record-timing",
                                     "real-time",  "--record",  "rt.mp4"};
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string out = (dir / "stdout.txt").string(), err = (dir / "stderr.txt").string();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&fa);
  // The recording starts when its ffmpeg does (the window's first frame follows at once): found
  // among physarum's children by its raw-video input. The encoder probe before it is another ffmpeg.
  const auto recording_ffmpeg_runs = [&] {
    std::istringstream children(
        test::read_file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"));
    for (std::string child; children >> child;) {
      if (test::read_file("/proc/" + child + "/cmdline").find("rawvideo") != std::string::npos) return true;
    }
    return false;
  };
  for (int i = 0; i < 3000 && !recording_ffmpeg_runs(); ++i) std::this_thread::sleep_for(10ms);
  const auto started = std::chrono::steady_clock::now();
  // Frames flow once ffmpeg has made the file; about 3 s of recording in all.
  for (int i = 0; i < 600 && !fs::exists(dir / "rt.mp4"); ++i) std::this_thread::sleep_for(50ms);
  std::this_thread::sleep_until(started + 3s);
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  // The window records until it sees the signal, a frame later: on a busy machine that is a good
  // part of a second. The video cannot outlast the program, nor fall much short of the kill.
  const double ran = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string err_text = test::read_file(dir / "stderr.txt");
  const std::string out_text = test::read_file(dir / "stdout.txt");
  ASSERT_TRUE(fs::exists(dir / "rt.mp4")) << err_text;
  auto p = probe(dir / "rt.mp4");
  ASSERT_EQ(p["ok"], "yes") << err_text;
  const double duration = std::atof(p["duration"].c_str());
  EXPECT_GE(duration, 0.8 * wall) << "wall " << wall << " s; " << out_text << err_text;
  EXPECT_LE(duration, ran + 0.2) << "ran " << ran << " s; " << out_text << err_text;
  EXPECT_NE(out_text.find("recorded rt.mp4"), std::string::npos) << out_text << err_text;
}

// Without ffmpeg the recorder's tests skip with a message instead of failing: this test binary
// run again with an empty PATH.
TEST(VideoOutputsE2e, RecorderTestsSkipWithoutFfmpeg) {
  const auto dir = test::temp_dir();
  fs::create_directories(dir / "empty");
  const ProcessOutput self = run_capture({"readlink", "/proc/" + std::to_string(::getpid()) + "/exe"});
  std::string exe = self.out.substr(0, self.out.find('\n'));
  ASSERT_FALSE(exe.empty());
  const ProcessOutput r =
      run_capture({"/usr/bin/env", "PATH=" + (dir / "empty").string(), "PHYSARUM_TEST_TMP=" + dir.string(),
                   exe, "--gtest_filter=RecorderE2e.*:RecorderSignals.*:RecorderSignalsE2e.*"},
                  true, std::chrono::seconds(120));
  EXPECT_TRUE(wait_status_ok(r.wait_status)) << r.out;
  EXPECT_NE(r.out.find("ffmpeg/ffprobe not installed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SKIPPED"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace physarum::app
