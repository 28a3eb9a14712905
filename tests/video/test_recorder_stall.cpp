// The recorder against a stand-in ffmpeg that answers the encoder probe and then reads nothing and
// ignores SIGTERM (tests/stand_in/stalled_ffmpeg.cpp, put first on PATH as "ffmpeg"): nothing may
// wait on it forever. stop() ends it within its limit and says so; a Wait-mode write gives up at
// the stall limit or at a Ctrl-C; `physarum render` honours SIGTERM while it waits.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "system/process.hpp"
#include "system/signals.hpp"
#include "test_support.hpp"
#include "video/recorder.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A directory holding "ffmpeg" (the stand-in), for the front of PATH.
fs::path stand_in_dir(const fs::path& dir) {
  const fs::path bin = dir / "bin";
  fs::create_directories(bin);
  fs::create_symlink(STALLED_FFMPEG, bin / "ffmpeg");
  return bin;
}

class PathFront {
 public:
  explicit PathFront(const fs::path& dir) {
    const char* old = std::getenv("PATH");
    old_ = old ? old : "";
    ::setenv("PATH", (dir.string() + ":" + old_).c_str(), 1);
  }
  ~PathFront() { ::setenv("PATH", old_.c_str(), 1); }
  PathFront(const PathFront&) = delete;
  PathFront& operator=(const PathFront&) = delete;

 private:
  std::string old_;
};

std::vector<uint8_t> grey_frame(int w, int h) {
  return std::vector<uint8_t>(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 128);
}

RecorderOptions stalled_options(const fs::path& out, RingPolicy policy) {
  RecorderOptions o;
  o.output = out;
  o.width = 320;
  o.height = 180;  // 230 KB a frame: the first one fills the pipe
  o.policy = policy;
  o.stall_limit = 60s;  // longer than any test: only stop() or a Ctrl-C may end these waits
  o.stop_limit = 1s;
  return o;
}

// stop() on a wedged ffmpeg: a bounded wait, then ffmpeg is ended (it ignores SIGTERM: SIGKILL),
// the frames not taken are counted as dropped, and the message says what happened. A stop() that
// joined a writer blocked in write() would hang: the test then kills the stand-in to get free.
TEST(RecorderStallE2e, StopEndsAStalledFfmpegWithinItsLimitAndSaysSo) {
  const fs::path dir = test::temp_dir();
  PathFront path(stand_in_dir(dir));
  auto rec = std::make_unique<Recorder>(stalled_options(dir / "stalled.mp4", RingPolicy::Drop));
  const pid_t pid = rec->ffmpeg_pid();
  const auto frame = grey_frame(320, 180);
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(rec->write_rgba(frame.data(), 320, 180));
  auto stopped = std::async(std::launch::async, [&] { return rec->stop(); });
  // stop_limit 1 s, then SIGTERM and 2 s later SIGKILL: a minute is a generous bound.
  const bool returned = stopped.wait_for(60s) == std::future_status::ready;
  if (!returned) ::kill(pid, SIGKILL);  // free the hung writer so the test can end
  ASSERT_TRUE(returned) << "stop() hung on a stalled ffmpeg";
  EXPECT_FALSE(stopped.get());
  const std::string err = rec->error();
  EXPECT_NE(err.find("did not finish in time and was ended"), std::string::npos) << err;
  EXPECT_NE(err.find("killed by signal 9"), std::string::npos) << err;
  EXPECT_NE(err.find("stalled on purpose"), std::string::npos) << "ffmpeg's own words: " << err;
  const RecorderStatus s = rec->status();
  EXPECT_EQ(s.written, 0u);
  EXPECT_EQ(s.written + s.dropped, s.submitted);
  EXPECT_EQ(s.submitted, 6u);
  EXPECT_NE(::kill(pid, 0), 0) << "the stand-in is still running";
}

// A Wait-mode write to a stalled ffmpeg: the writer's stall limit fails the recording and the
// blocked write returns false with the reason.
TEST(RecorderStallE2e, WaitModeWriteGivesUpAtTheStallLimit) {
  const fs::path dir = test::temp_dir();
  PathFront path(stand_in_dir(dir));
  RecorderOptions o = stalled_options(dir / "stall limit.mp4", RingPolicy::Wait);
  o.ring_slots = 1;
  o.stall_limit = 500ms;
  Recorder rec(o);
  const auto frame = grey_frame(320, 180);
  auto writes = std::async(std::launch::async, [&] {
    for (int i = 0; i < 100; ++i) {
      if (!rec.write_rgba(frame.data(), 320, 180)) return i;
    }
    return -1;
  });
  const bool returned = writes.wait_for(60s) == std::future_status::ready;
  if (!returned) ::kill(rec.ffmpeg_pid(), SIGKILL);
  ASSERT_TRUE(returned) << "a Wait-mode write hung on a stalled ffmpeg";
  EXPECT_GE(writes.get(), 1);
  EXPECT_FALSE(rec.stop());
  EXPECT_NE(rec.error().find("ffmpeg took no data for 0.5 s"), std::string::npos) << rec.error();
  const RecorderStatus s = rec.status();
  EXPECT_EQ(s.written + s.dropped, s.submitted);
}

// Ctrl-C while a Wait-mode write waits for a slot: the write returns (false) at once, not when
// the stall limit (a minute here) runs out.
TEST(RecorderStallE2e, CtrlCEndsAWaitModeWrite) {
  const fs::path dir = test::temp_dir();
  PathFront path(stand_in_dir(dir));
  RecorderOptions o = stalled_options(dir / "ctrl-c.mp4", RingPolicy::Wait);
  o.ring_slots = 1;
  clear_stop_request();
  Recorder rec(o);
  const auto frame = grey_frame(320, 180);
  auto writes = std::async(std::launch::async, [&] {
    for (int i = 0; i < 100; ++i) {
      if (!rec.write_rgba(frame.data(), 320, 180)) return i;
    }
    return -1;
  });
  // The second write blocks: the one slot holds the first frame, stuck in the writer's hands.
  EXPECT_EQ(writes.wait_for(300ms), std::future_status::timeout);
  request_stop(SIGINT);
  const bool returned = writes.wait_for(30s) == std::future_status::ready;
  clear_stop_request();
  if (!returned) ::kill(rec.ffmpeg_pid(), SIGKILL);
  ASSERT_TRUE(returned) << "the write ignored the stop request";
  EXPECT_EQ(writes.get(), 1);
  EXPECT_FALSE(rec.stop());
  const RecorderStatus s = rec.status();
  EXPECT_EQ(s.written + s.dropped, s.submitted);
}

// Starts physarum in `dir` with PATH set; stdout/stderr to files there. Returns its pid.
pid_t spawn_physarum(const std::vector<std::string>& args, const fs::path& dir, const std::string& path) {
  test::expect_labelled_end_to_end("runs the program");
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    if (std::string(*e).rfind("PATH=", 0) != 0) env.emplace_back(*e);
  }
  env.push_back("PATH=" + path);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_s{PHYSARUM_EXE};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string out = (dir / "stdout.txt").string(), err = (dir / "stderr.txt").string();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

// Waits up to `limit` for the child; its wait status, or nothing when it is still running.
std::optional<int> wait_up_to(pid_t pid, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(50ms);
  }
  return std::nullopt;
}

// `physarum render` to a stalled ffmpeg: SIGTERM while it waits for the encoder ends it, within
// the recorder's stop limit (--video-stop-limit, 1 s here rather than the default 30 s, which only
// makes the wait longer) and ffmpeg's end, with a message, where waiting on ffmpeg would hang.
TEST(RecorderStallE2e, RenderHonoursSigtermWhileWaitingForAStalledFfmpeg) {
  const fs::path dir = test::temp_dir();
  const fs::path bin = stand_in_dir(dir);
  const char* old = std::getenv("PATH");
  const pid_t pid =
      spawn_physarum({"render", "--size", "320x180", "--agents", "1000", "--steps", "100000", "--every", "1",
                      "-q", "--backend", "cpu", "--video-stop-limit", "1", "--out", "v.mp4"},
                     dir, bin.string() + ":" + (old ? old : ""));
  ASSERT_GT(pid, 0);
  // By then frames fill the ring and the pipe and render waits (a SIGTERM sooner ends it the same way).
  std::this_thread::sleep_for(3s);
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  const std::optional<int> status = wait_up_to(pid, 120s);
  if (!status) ::kill(pid, SIGKILL);
  ASSERT_TRUE(status.has_value()) << "render ignored SIGTERM";
  const std::string err = test::read_file(dir / "stderr.txt");
  ASSERT_TRUE(WIFEXITED(*status)) << describe_wait_status(*status) << "\n" << err;
  EXPECT_EQ(WEXITSTATUS(*status), 1) << err;  // the video failed: that is what it reports
  EXPECT_NE(err.find("recording v.mp4 failed"), std::string::npos) << err;
  EXPECT_NE(err.find("was ended"), std::string::npos) << err;
}

}  // namespace
}  // namespace physarum::app
