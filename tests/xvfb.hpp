// Test helpers for the window: an Xvfb server on a free display number (Xvfb picks it itself
// through -displayfd), stopped when the object goes away; and running the program with a chosen
// environment.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace physarum::test {

class XvfbServer {
 public:
  XvfbServer();  // starts "Xvfb -screen 0 1280x800x24"; ok() says whether it came up
  ~XvfbServer();
  XvfbServer(const XvfbServer&) = delete;
  XvfbServer& operator=(const XvfbServer&) = delete;

  bool ok() const { return !display_.empty(); }
  const std::string& display() const { return display_; }  // ":N"
  const std::string& error() const { return error_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
  std::string error_;
};

struct EnvProcessResult {
  int exit_code = -1;  // -1 when it did not exit normally
  std::string out;
  std::string err;
};

// Runs PHYSARUM_EXE with `args` in `dir`. The environment is this process's with the names in
// `unset` removed and `set` (NAME, value) added.
EnvProcessResult run_physarum_env(const std::vector<std::string>& args, const std::filesystem::path& dir,
                                  const std::vector<std::pair<std::string, std::string>>& set,
                                  const std::vector<std::string>& unset);

}  // namespace physarum::test

namespace physarum::test {
// A fresh directory for the running test under $PHYSARUM_TEST_TMP or the system temp folder.
std::filesystem::path render_test_dir();
}  // namespace physarum::test
