#include "xvfb.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

extern char** environ;

namespace physarum::test {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int wait_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

XvfbServer::XvfbServer() {
  int fds[2];
  if (pipe(fds) != 0) {
    error_ = "pipe failed";
    return;
  }
  // Xvfb writes the display number it chose to the fd we name, once it is ready for clients.
  const std::string fd_arg = std::to_string(fds[1]);
  std::vector<std::string> args{"Xvfb", "-displayfd",  fd_arg,      "-screen",
                                "0",    "1280x800x24", "-nolisten", "tcp"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  const int rc = posix_spawnp(&pid_, "Xvfb", &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) {
    pid_ = -1;
    close(fds[0]);
    error_ = std::string("cannot start Xvfb: ") + std::strerror(rc) + " (apt-get install xvfb)";
    return;
  }
  std::string number;
  pollfd p{fds[0], POLLIN, 0};
  for (;;) {
    if (poll(&p, 1, 20000) <= 0) break;  // 20 s for the server to come up
    char c = 0;
    if (read(fds[0], &c, 1) != 1 || c == '\n') break;
    number += c;
  }
  close(fds[0]);
  if (number.empty()) {
    error_ = "Xvfb did not report a display";
    return;
  }
  display_ = ":" + number;
}

XvfbServer::~XvfbServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    wait_exit(pid_);
  }
}

EnvProcessResult run_physarum_env(const std::vector<std::string>& args, const std::filesystem::path& dir,
                                  const std::vector<std::pair<std::string, std::string>>& set,
                                  const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    bool drop = false;
    for (const auto& u : unset) drop |= name == u;
    for (const auto& s : set) drop |= name == s.first;
    if (!drop) env.push_back(kv);
  }
  for (const auto& s : set) env.push_back(s.first + "=" + s.second);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  std::vector<std::string> argv_s{PHYSARUM_EXE};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  const auto out_file = std::filesystem::absolute(dir / "stdout.txt");
  const auto err_file = std::filesystem::absolute(dir / "stderr.txt");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  EnvProcessResult r;
  if (rc != 0) {
    r.err = std::string("posix_spawn failed: ") + std::strerror(rc);
    return r;
  }
  r.exit_code = wait_exit(pid);
  r.out = slurp(out_file);
  r.err = slurp(err_file);
  return r;
}

}  // namespace physarum::test

#include <gtest/gtest.h>

namespace physarum::test {
std::filesystem::path render_test_dir() {
  const char* base = std::getenv("PHYSARUM_TEST_TMP");
  const std::filesystem::path root =
      base && *base ? std::filesystem::path(base) : std::filesystem::temp_directory_path() / "physarum-tests";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "render";
  const auto dir = root / (name + "." + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
}  // namespace physarum::test
