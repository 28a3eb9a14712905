// Helpers shared by the tests: a scratch directory per test, small file helpers, and running the
// real physarum executable (no shell) with its exit code and output captured.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/params.hpp"

extern char** environ;

namespace physarum::test {

// A fresh, empty directory named after the running test, under $PHYSARUM_TEST_TMP (set by ctest)
// or the system temporary directory.
inline std::filesystem::path temp_dir() {
  const char* base = std::getenv("PHYSARUM_TEST_TMP");
  std::filesystem::path root =
      base && *base ? std::filesystem::path(base) : std::filesystem::temp_directory_path() / "physarum-tests";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "no-test";
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const std::filesystem::path dir = root / (name + "." + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Sets an environment variable (or, given nullptr or nullopt, unsets it) for one scope and restores
// the old value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ScopedEnv(const char* name, const std::string& value) : ScopedEnv(name, value.c_str()) {}
  ScopedEnv(const char* name, const std::optional<std::string>& value)
      : ScopedEnv(name, value ? value->c_str() : nullptr) {}
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The message of the physarum::Error that f() throws; "" when it throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Seconds of CPU time the calling thread has used. Bounds on single-threaded work measure this, not
// the wall clock, so that a loaded machine (other tests, other jobs) does not make them fail.
inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The same for every thread of the process (a CPU backend's OpenMP workers): a bound on the work a
// call does that other processes on a busy machine (ctest -j, a build) do not stretch, as they
// stretch wall time.
inline double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A .npy file as numpy 1.x writes it: the dict padded so the data starts at a multiple of 64.
inline std::string npy_bytes(const std::string& descr, const std::string& shape, const void* data,
                             size_t bytes) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + (bytes == 0 ? std::string() : std::string(static_cast<const char*>(data), bytes));
}

inline void write_file(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write test file " + p.string());
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// GoogleTest's filter syntax, one pattern: '*' any run of characters, '?' one.
inline bool matches_pattern(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern.front() == '*') {
    for (size_t skip = 0; skip <= name.size(); ++skip) {
      if (matches_pattern(pattern.substr(1), name.substr(skip))) return true;
    }
    return false;
  }
  return !name.empty() && (pattern.front() == '?' || pattern.front() == name.front()) &&
         matches_pattern(pattern.substr(1), name.substr(1));
}

// The e2e and gpu labels of tests/CMakeLists.txt are given by test names; a test that runs the
// program, Xvfb or ffmpeg under another name would land in `ctest -L unit`, so it fails instead.
inline void expect_labelled_end_to_end(const char* what) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!info) return;  // not inside a test (a helper run by hand)
  const std::string name = std::string(info->test_suite_name()) + "." + info->name();
  std::string_view patterns = PHYSARUM_E2E_TESTS ":" PHYSARUM_GPU_TESTS;
  while (!patterns.empty()) {
    const size_t colon = patterns.find(':');
    if (matches_pattern(patterns.substr(0, colon), name)) return;
    patterns = colon == std::string_view::npos ? std::string_view{} : patterns.substr(colon + 1);
  }
  ADD_FAILURE() << name << " " << what
                << ": end its suite's name in Cli or E2e (tests/CMakeLists.txt) so it is labelled e2e";
}

struct ProcessResult {
  int exit_code = -1;  // -1 when it did not exit normally (e.g. a crash)
  std::string out;
  std::string err;
};

// PHYSARUM_EXE (or `exe`) started with `args` in `dir` (relative paths in the arguments are relative
// to it); stdout and stderr go to files in `dir`. The environment is this process's with the names
// in `unset` removed and `set` (NAME, value) added.
struct Spawned {
  pid_t pid = 0;  // 0: it could not start (`error` says why)
  std::string error;
  std::filesystem::path out_file, err_file;
  int status = 0;
  bool reaped = false;
  // True once the program has exited; does not wait.
  bool exited() {
    if (!reaped && pid > 0) reaped = waitpid(pid, &status, WNOHANG) == pid;
    return reaped || pid <= 0;
  }
  // Waits for the program to exit, then reads what it wrote.
  ProcessResult wait() {
    ProcessResult r;
    if (pid <= 0) {
      r.err = error;
      return r;
    }
    while (!reaped) {
      if (waitpid(pid, &status, 0) == pid)
        reaped = true;
      else if (errno != EINTR)
        break;
    }
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    r.out = read_file(out_file);
    r.err = read_file(err_file);
    return r;
  }
};

inline Spawned spawn_physarum(const std::vector<std::string>& args, const std::filesystem::path& dir,
                              const std::vector<std::pair<std::string, std::string>>& set = {},
                              const std::vector<std::string>& unset = {},
                              const std::string& exe = PHYSARUM_EXE) {
  expect_labelled_end_to_end("runs the program");
  // The program keeps the window's layout and the user's presets in the config folder: unless a test
  // chooses one, a run gets the scratch folder's, never the user's (which would change what it shows).
  bool config_chosen = false;
  for (const auto& u : unset) config_chosen |= u == "XDG_CONFIG_HOME";
  for (const auto& kv_set : set) config_chosen |= kv_set.first == "XDG_CONFIG_HOME";
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    bool drop = name == "XDG_CONFIG_HOME" && !config_chosen;
    for (const auto& u : unset) drop |= name == u;
    for (const auto& kv_set : set) drop |= name == kv_set.first;
    if (!drop) env.push_back(kv);
  }
  for (const auto& kv_set : set) env.push_back(kv_set.first + "=" + kv_set.second);
  if (!config_chosen) env.push_back("XDG_CONFIG_HOME=" + std::filesystem::absolute(dir / "config").string());
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  std::vector<std::string> argv_s{exe};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  Spawned s;
  s.out_file = std::filesystem::absolute(dir / "stdout.txt");
  s.err_file = std::filesystem::absolute(dir / "stderr.txt");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, s.out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, s.err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  const int rc = posix_spawn(&s.pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    s.pid = 0;
    s.error = "posix_spawn failed: " + std::to_string(rc);
  }
  return s;
}

// spawn_physarum, waiting for it to exit.
inline ProcessResult run_physarum(const std::vector<std::string>& args, const std::filesystem::path& dir,
                                  const std::vector<std::pair<std::string, std::string>>& set = {},
                                  const std::vector<std::string>& unset = {},
                                  const std::string& exe = PHYSARUM_EXE) {
  return spawn_physarum(args, dir, set, unset, exe).wait();
}

}  // namespace physarum::test
