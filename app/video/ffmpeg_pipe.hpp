// A running ffmpeg fed through a pipe: started without a shell, its messages kept in a log for the
// error message, every write with a deadline, and its end bounded (waited for, then SIGTERM, then
// SIGKILL), so nothing waits forever on it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace physarum::app {

class FfmpegPipe {
 public:
  using Clock = std::chrono::steady_clock;
  // Starts argv with a non-blocking pipe as its input and its output in `log_file` (empty: a
  // temporary file, removed by remove_log()). Throws Error when the pipe or the process fails.
  FfmpegPipe(const std::vector<std::string>& argv, const std::filesystem::path& log_file);
  ~FfmpegPipe();  // closes the input; the caller must have ended the process
  FfmpegPipe(const FfmpegPipe&) = delete;
  FfmpegPipe& operator=(const FfmpegPipe&) = delete;

  enum class WriteResult { Ok, Failed, Stalled, Abandoned };
  // Writes all of data, waiting in poll() while the pipe is full: Stalled when ffmpeg takes no byte
  // for stall_limit, Abandoned as soon as abandon() says so, Failed (with errno in *err) when the
  // pipe breaks (EPIPE: ffmpeg has gone).
  WriteResult write(const uint8_t* data, size_t size, std::chrono::milliseconds stall_limit,
                    const std::function<bool()>& abandon, int* err);
  // Closing the input is ffmpeg's end of input: it flushes the encoder and ends the file.
  void close_input();
  // Waits for ffmpeg until `deadline`, then ends it (SIGTERM, SIGKILL two seconds later, *killed set).
  // Returns the wait status.
  int end(Clock::time_point deadline, bool* killed);

  // The last three non-blank lines ffmpeg wrote, joined by " | ".
  std::string log_tail() const;
  void remove_log();  // the temporary log only
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::filesystem::path log_path_;
  bool remove_log_ = false;
};

}  // namespace physarum::app
