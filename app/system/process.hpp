// Starting other programs (ffmpeg, ffprobe) without a shell: an argument vector, never a command
// line, so file names with spaces or quotes are passed as they are.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace physarum::app {

// The full path of `program` found on $PATH (or `program` itself when it holds a '/' and is
// executable); nothing when it is not there.
std::optional<std::string> find_on_path(const std::string& program);

struct SpawnFds {
  int in = -1;   // -1: /dev/null
  int out = -1;  // -1: /dev/null
  int err = -1;  // -1: /dev/null
};

// posix_spawnp(argv) with the given descriptors as 0, 1 and 2. The child gets default signal
// dispositions and an empty mask; with own_process_group it also gets its own process group, so a
// Ctrl-C on the terminal reaches only us and we decide how the child ends. Throws Error.
pid_t spawn_process(const std::vector<std::string>& argv, SpawnFds fds, bool own_process_group);

// Waits for the child (retrying on EINTR) and returns the raw wait status.
int wait_process(pid_t pid);
// The child's raw wait status if it has ended (it is then reaped), nothing while it runs.
std::optional<int> poll_process(pid_t pid);

// "exit status 1", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status);
// `word` as a POSIX shell reads it back: as it is when plain, else in single quotes. For commands
// shown to people (a video's "made with" comment), never for running one: we start no shell.
std::string shell_quote(const std::string& word);

// A time limit as messages give it: "30 s", "0.5 s".
std::string seconds_text(std::chrono::milliseconds ms);

// True when the child exited normally with status 0.
bool wait_status_ok(int status);

struct ProcessOutput {
  int wait_status = 0;
  std::string out;         // stdout, and stderr too when merged
  bool timed_out = false;  // killed (SIGKILL) at the time limit
};
// Runs the program to completion with stdin from /dev/null and returns what it printed. A child
// still running after `limit` is killed, so a hung program (ffmpeg probing a broken GPU driver)
// cannot hang us.
ProcessOutput run_capture(const std::vector<std::string>& argv, bool merge_stderr = false,
                          std::chrono::milliseconds limit = std::chrono::seconds(10));

}  // namespace physarum::app
