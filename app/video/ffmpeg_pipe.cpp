#include "video/ffmpeg_pipe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <thread>

#include "sim/params.hpp"
#include "sim/write_all.hpp"
#include "system/process.hpp"

namespace physarum::app {

namespace {

// Reaps the child if it has ended by `deadline`; nothing when it is still running.
std::optional<int> reap_by(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  using namespace std::chrono_literals;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return -1;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(20ms);
  }
}

}  // namespace

FfmpegPipe::FfmpegPipe(const std::vector<std::string>& argv, const std::filesystem::path& log_file) {
  std::error_code ec;
  int log_fd = -1;
  if (log_file.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path(ec) / "physarum-ffmpeg-XXXXXX.log").string();
    log_fd = ::mkostemps(tmpl.data(), 4, O_CLOEXEC);
    if (log_fd >= 0) {
      log_path_ = tmpl;
      remove_log_ = true;
    }
  } else {
    log_fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log_fd >= 0) log_path_ = log_file;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    if (log_fd >= 0) ::close(log_fd);
    throw Error(std::string("cannot create a pipe to ffmpeg: ") + std::strerror(errno));
  }
  try {
    pid_ = spawn_process(argv, SpawnFds{fds[0], log_fd, log_fd}, true);
  } catch (const Error&) {
    ::close(fds[0]);
    ::close(fds[1]);
    if (log_fd >= 0) ::close(log_fd);
    remove_log();
    throw;
  }
  ::close(fds[0]);
  if (log_fd >= 0) ::close(log_fd);  // ffmpeg holds its own copy
  fd_ = fds[1];
  // Non-blocking: the writer waits in poll() with a deadline, never in write().
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
}

FfmpegPipe::~FfmpegPipe() {
  close_input();
}

FfmpegPipe::WriteResult FfmpegPipe::write(const uint8_t* data, size_t size,
                                          std::chrono::milliseconds stall_limit,
                                          const std::function<bool()>& abandon, int* err) {
  auto last_progress = Clock::now();
  while (size > 0) {
    int e = 0;
    const size_t n = write_all(fd_, data, size, &e);  // until the pipe is full (EAGAIN)
    if (n > 0) {
      data += n;
      size -= n;
      last_progress = Clock::now();
    }
    if (size == 0) break;
    if (e != EAGAIN && e != EWOULDBLOCK) {
      *err = e;
      return WriteResult::Failed;
    }
    if (abandon()) return WriteResult::Abandoned;
    if (Clock::now() - last_progress >= stall_limit) return WriteResult::Stalled;
    pollfd p{fd_, POLLOUT, 0};
    (void)::poll(&p, 1, 100);  // POLLERR (ffmpeg gone) shows up as EPIPE on the next write
  }
  return WriteResult::Ok;
}

void FfmpegPipe::close_input() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

int FfmpegPipe::end(Clock::time_point deadline, bool* killed) {
  using namespace std::chrono_literals;
  if (auto status = reap_by(pid_, deadline)) return *status;
  // SIGTERM: ffmpeg closes the file properly when it can; SIGKILL when it does not.
  *killed = true;
  ::kill(pid_, SIGTERM);
  if (auto status = reap_by(pid_, Clock::now() + 2s)) return *status;
  ::kill(pid_, SIGKILL);
  return wait_process(pid_);
}

std::string FfmpegPipe::log_tail() const {
  if (log_path_.empty()) return {};
  std::ifstream in(log_path_);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
    if (lines.size() > 50) lines.erase(lines.begin());
  }
  std::string tail;
  const size_t first = lines.size() > 3 ? lines.size() - 3 : 0;
  for (size_t i = first; i < lines.size(); ++i) tail += (tail.empty() ? "" : " | ") + lines[i];
  return tail;
}

void FfmpegPipe::remove_log() {
  if (!remove_log_) return;
  std::error_code ec;
  std::filesystem::remove(log_path_, ec);
}

}  // namespace physarum::app
