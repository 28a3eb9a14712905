#include "system/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "sim/params.hpp"

extern char** environ;

namespace physarum::app {

namespace {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Owns a posix_spawn_file_actions_t / posix_spawnattr_t so every exit path releases them.
struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

void route(posix_spawn_file_actions_t* fa, int fd, int target, int null_flags) {
  if (fd < 0) {
    posix_spawn_file_actions_addopen(fa, target, "/dev/null", null_flags, 0);
  } else {
    posix_spawn_file_actions_adddup2(fa, fd, target);
  }
}

}  // namespace

std::optional<std::string> find_on_path(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    if (is_executable_file(program)) return program;
    return std::nullopt;
  }
  const char* path_env = std::getenv("PATH");
  const std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t end = path.find(':', begin);
    if (end == std::string::npos) end = path.size();
    // An empty PATH entry means the current directory.
    std::string candidate = end > begin ? path.substr(begin, end - begin) : std::string(1, '.');
    candidate.append(1, '/').append(program);
    if (is_executable_file(candidate)) return candidate;
    begin = end + 1;
  }
  return std::nullopt;
}

pid_t spawn_process(const std::vector<std::string>& argv, SpawnFds fds, bool own_process_group) {
  if (argv.empty()) throw Error("spawn_process: empty argument vector");
  SpawnSetup s;
  route(&s.actions, fds.in, 0, O_RDONLY);
  route(&s.actions, fds.out, 1, O_WRONLY);
  route(&s.actions, fds.err, 2, O_WRONLY);

  // Ignored signals stay ignored across exec; the child should die of SIGPIPE like any program.
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&defaults, sig);
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&s.attr, &defaults);
  posix_spawnattr_setsigmask(&s.attr, &empty);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (own_process_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&s.attr, 0);
  }
  posix_spawnattr_setflags(&s.attr, flags);

  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &s.actions, &s.attr, args.data(), environ);
  if (rc != 0) {
    throw Error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return pid;
}

int wait_process(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

std::optional<int> poll_process(pid_t pid) {
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r == 0) return std::nullopt;
    if (errno != EINTR) return -1;
  }
}

std::string describe_wait_status(int status) {
  if (status == -1) return "lost (waitpid failed)";
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
  }
  return "ended with wait status " + std::to_string(status);
}

std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && word[0] != '-' && word[0] != '=' && word[0] != '~' &&
                     word.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-+=./,:@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

bool wait_status_ok(int status) {
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

ProcessOutput run_capture(const std::vector<std::string>& argv, bool merge_stderr,
                          std::chrono::milliseconds limit) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + limit;
  const auto ms_left = [&] {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return static_cast<int>(std::clamp<long long>(left.count(), 0, 1'000'000));
  };
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  pid_t pid = -1;
  try {
    pid = spawn_process(argv, SpawnFds{-1, fds[1], merge_stderr ? fds[1] : -1}, false);
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  ::close(fds[1]);
  ProcessOutput result;
  char buf[4096];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, ms_left());
    if (ready == 0) {
      result.timed_out = true;
      break;
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      result.out.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  // The output is closed; the child may still linger (or never closed its end): reap it by the
  // deadline, else kill it.
  while (!result.timed_out) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      result.wait_status = status;
      return result;
    }
    if (r < 0 && errno != EINTR) {
      result.wait_status = -1;
      return result;
    }
    if (ms_left() == 0) {
      result.timed_out = true;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ::kill(pid, SIGKILL);
  result.wait_status = wait_process(pid);
  return result;
}

std::string seconds_text(std::chrono::milliseconds ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", static_cast<double>(ms.count()) / 1000.0);
  return buf;
}

}  // namespace physarum::app
