// Test helper for the window: an Xvfb server on a free display number (Xvfb picks it itself
// through -displayfd), stopped when the object goes away.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

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

}  // namespace physarum::test
