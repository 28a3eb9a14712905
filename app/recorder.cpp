#include "recorder.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "process.hpp"
#include "sim/params.hpp"

namespace physarum::app {

namespace {

constexpr const char* kNoFfmpeg = "ffmpeg not found on PATH; install it with apt-get install ffmpeg";

std::string resolve_ffmpeg(const std::string& program) {
  auto path = find_on_path(program);
  if (!path) {
    if (program == "ffmpeg") throw Error(kNoFfmpeg);
    throw Error(program + " not found (looked on PATH); install ffmpeg with apt-get install ffmpeg");
  }
  return *path;
}

// Quality settings per encoder. The interactive recorder must keep up with the frame loop, so
// libx264 uses a faster preset there; headless rendering waits for the encoder anyway.
std::vector<std::string> encoder_args(const std::string& encoder, RingPolicy policy) {
  if (encoder == "h264_nvenc") {
    return {"-c:v", "h264_nvenc", "-pix_fmt", "yuv420p", "-preset", "p5",
            "-rc",  "vbr",        "-cq",      "19",      "-b:v",    "0"};
  }
  return {"-c:v", "libx264", "-pix_fmt", "yuv420p",
          "-crf", "18",      "-preset",  policy == RingPolicy::Drop ? "veryfast" : "medium"};
}

std::string frames_text(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " frame" : " frames");
}

bool write_all(int fd, const uint8_t* data, size_t size, int* err) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Waits for a child that should already be ending (its stdin is closed after an error); kills it
// when it does not, so a wedged ffmpeg never hangs the program.
int wait_bounded(pid_t pid) {
  using namespace std::chrono_literals;
  for (int i = 0; i < 100; ++i) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return -1;
    std::this_thread::sleep_for(50ms);
  }
  ::kill(pid, SIGKILL);
  return wait_process(pid);
}

}  // namespace

std::string pick_h264_encoder(const std::string& ffmpeg) {
  const std::string path = resolve_ffmpeg(ffmpeg);
  static std::mutex mutex;
  static std::map<std::string, std::string> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(path); it != cache.end()) return it->second;

  std::string chosen = "libx264";
  const ProcessOutput list = run_capture({path, "-hide_banner", "-encoders"});
  if (wait_status_ok(list.wait_status) && list.out.find(" h264_nvenc ") != std::string::npos) {
    // Distribution builds list h264_nvenc on machines without an NVIDIA GPU; one frame through
    // the same settings the recorder uses tells whether it really works here.
    std::vector<std::string> trial = {path,        "-hide_banner",
                                      "-loglevel", "error",
                                      "-f",        "lavfi",
                                      "-i",        "color=c=black:s=256x256:r=30",
                                      "-frames:v", "1"};
    for (const std::string& a : encoder_args("h264_nvenc", RingPolicy::Wait)) trial.push_back(a);
    for (const char* a : {"-f", "null", "-"}) trial.emplace_back(a);
    if (wait_status_ok(run_capture(trial, true).wait_status)) chosen = "h264_nvenc";
  }
  cache[path] = chosen;
  return chosen;
}

Recorder::Recorder(RecorderOptions options) : options_(std::move(options)) {
  video_w_ = options_.width & ~1;
  video_h_ = options_.height & ~1;
  if (video_w_ < 2 || video_h_ < 2 || options_.width > 16384 || options_.height > 16384) {
    throw Error("cannot record a " + std::to_string(options_.width) + "x" + std::to_string(options_.height) +
                " frame: each side must be 2..16384 pixels");
  }
  if (options_.fps < 1 || options_.fps > 1000) {
    throw Error("recording frame rate " + std::to_string(options_.fps) + " is out of range 1..1000");
  }
  if (options_.output.empty()) throw Error("no output file given for the recording");
  const std::filesystem::path dir = options_.output.has_parent_path() ? options_.output.parent_path() : ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error("cannot record to " + options_.output.string() + ": directory " + dir.string() +
                " does not exist");
  }
  const std::string ffmpeg = resolve_ffmpeg(options_.ffmpeg);
  encoder_ = options_.encoder == "auto" ? pick_h264_encoder(ffmpeg) : options_.encoder;
  if (encoder_ != "libx264" && encoder_ != "h264_nvenc") {
    throw Error("unknown video encoder '" + encoder_ + "' (choose auto, libx264 or h264_nvenc)");
  }

  argv_ = {ffmpeg,      "-hide_banner",
           "-loglevel", "error",
           "-nostats",  "-y",
           "-f",        "rawvideo",
           "-pix_fmt",  "rgba",
           "-s",        std::to_string(video_w_) + "x" + std::to_string(video_h_),
           "-r",        std::to_string(options_.fps),
           "-i",        "-",
           "-an"};
  for (const std::string& a : encoder_args(encoder_, options_.policy)) argv_.push_back(a);
  argv_.insert(argv_.end(), {"-r", std::to_string(options_.fps), "-movflags", "+faststart"});
  if (!options_.comment.empty()) argv_.insert(argv_.end(), {"-metadata", "comment=" + options_.comment});
  // MP4 whatever the extension says, so the flags above always apply.
  argv_.insert(argv_.end(), {"-f", "mp4", options_.output.string()});

  // The ring first: nothing to clean up if memory runs out.
  frame_bytes_ = static_cast<size_t>(video_w_) * static_cast<size_t>(video_h_) * 4;
  const int slots = std::clamp(options_.ring_slots, 1, 64);
  slots_.resize(static_cast<size_t>(slots));
  for (int i = 0; i < slots; ++i) {
    slots_[static_cast<size_t>(i)].resize(frame_bytes_);
    free_slots_.push_back(i);
  }

  // ffmpeg's messages go to a log, read back when something fails.
  int log_fd = -1;
  if (options_.log_file.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path(ec) / "physarum-ffmpeg-XXXXXX.log").string();
    log_fd = ::mkostemps(tmpl.data(), 4, O_CLOEXEC);
    if (log_fd >= 0) {
      log_path_ = tmpl;
      remove_log_ = true;
    }
  } else {
    log_fd = ::open(options_.log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log_fd >= 0) log_path_ = options_.log_file;
  }

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    if (log_fd >= 0) ::close(log_fd);
    throw Error(std::string("cannot create a pipe to ffmpeg: ") + std::strerror(errno));
  }
  try {
    pid_ = spawn_process(argv_, SpawnFds{fds[0], log_fd, log_fd}, true);
  } catch (const Error&) {
    ::close(fds[0]);
    ::close(fds[1]);
    if (log_fd >= 0) ::close(log_fd);
    if (remove_log_) std::filesystem::remove(log_path_, ec);
    throw;
  }
  ::close(fds[0]);
  if (log_fd >= 0) ::close(log_fd);
  pipe_fd_ = fds[1];

  try {
    writer_ = std::thread([this] { writer_loop(); });
  } catch (const std::system_error& e) {
    // No writer: close ffmpeg's input so it ends, and reap it; neither the pipe nor the child leak.
    ::close(pipe_fd_);
    pipe_fd_ = -1;
    (void)wait_bounded(pid_);
    if (remove_log_) std::filesystem::remove(log_path_, ec);
    throw Error(std::string("cannot start the recording's writer thread: ") + e.what());
  }
  register_open(this);
}

Recorder::~Recorder() {
  stop();
}

void Recorder::finalise() noexcept {
  stop();
}

bool Recorder::write_rgba(const uint8_t* rgba, int width, int height) {
  int slot = -1;
  {
    std::unique_lock lock(mutex_);
    if (stopping_ || writer_done_ || !error_.empty()) return false;
    if (free_slots_.empty()) {
      if (options_.policy == RingPolicy::Drop) {
        ++submitted_;
        ++dropped_;
        return true;
      }
      cv_.wait(lock, [&] { return !free_slots_.empty() || stopping_ || writer_done_ || !error_.empty(); });
      if (stopping_ || writer_done_ || !error_.empty()) return false;
    }
    ++submitted_;
    slot = free_slots_.back();
    free_slots_.pop_back();
    ++in_copy_;
  }

  // Copy outside the lock: the slot is ours until it is queued.
  uint8_t* dst = slots_[static_cast<size_t>(slot)].data();
  const size_t dst_row = static_cast<size_t>(video_w_) * 4;
  const int copy_w = rgba ? std::clamp(width, 0, video_w_) : 0;
  const int copy_h = rgba ? std::clamp(height, 0, video_h_) : 0;
  const size_t copy_bytes = static_cast<size_t>(copy_w) * 4;
  const size_t src_row = static_cast<size_t>(std::max(width, 0)) * 4;
  for (int y = 0; y < video_h_; ++y) {
    uint8_t* out = dst + static_cast<size_t>(y) * dst_row;
    if (y < copy_h) {
      const int src_y = options_.bottom_up ? height - 1 - y : y;
      std::memcpy(out, rgba + static_cast<size_t>(src_y) * src_row, copy_bytes);
      std::memset(out + copy_bytes, 0, dst_row - copy_bytes);
    } else {
      std::memset(out, 0, dst_row);
    }
  }

  {
    std::lock_guard lock(mutex_);
    --in_copy_;
    queued_.push_back(slot);
  }
  cv_.notify_all();
  return true;
}

void Recorder::fail(const std::string& message) {
  if (error_.empty()) error_ = message;
}

std::string Recorder::log_tail() const {
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

void Recorder::writer_loop() {
  // SIGPIPE from a write goes to the writing thread: blocked here, a dead ffmpeg is an EPIPE even
  // when the program never installed the signal handlers. Ctrl-C is the main thread's business.
  sigset_t block;
  sigemptyset(&block);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
  pthread_sigmask(SIG_BLOCK, &block, nullptr);

  for (;;) {
    int slot = -1;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return !queued_.empty() || (stopping_ && in_copy_ == 0); });
      if (queued_.empty()) break;  // stopping and drained
      slot = queued_.front();
      queued_.pop_front();
    }
    int err = 0;
    const bool ok = write_all(pipe_fd_, slots_[static_cast<size_t>(slot)].data(), frame_bytes_, &err);
    {
      std::lock_guard lock(mutex_);
      free_slots_.push_back(slot);
      if (ok) {
        ++written_;
      } else {
        fail(err == EPIPE
                 ? "ffmpeg stopped taking frames (broken pipe) after " + frames_text(written_)
                 : "writing to ffmpeg failed after " + frames_text(written_) + ": " + std::strerror(err));
      }
    }
    cv_.notify_all();
    if (!ok) break;
  }

  // Closing the pipe is ffmpeg's end of input: it flushes the encoder and writes the MP4 index.
  ::close(pipe_fd_);
  pipe_fd_ = -1;
  bool had_error = false;
  {
    std::lock_guard lock(mutex_);
    had_error = !error_.empty();
  }
  const int status = had_error ? wait_bounded(pid_) : wait_process(pid_);
  const std::string tail = log_tail();
  {
    std::lock_guard lock(mutex_);
    if (!wait_status_ok(status)) {
      const std::string what = "ffmpeg " + describe_wait_status(status) + (tail.empty() ? "" : ": " + tail);
      if (error_.empty()) {
        error_ = what + " (full disk or unwritable file " + options_.output.string() + "?)";
      } else {
        error_ += "; " + what;
      }
    } else if (!error_.empty() && !tail.empty()) {
      error_ += "; ffmpeg said: " + tail;
    }
    clean_exit_ = wait_status_ok(status) && error_.empty();
    writer_done_ = true;
  }
  cv_.notify_all();
}

bool Recorder::stop() {
  // Unregister before taking stop_mutex_: finalise_open() holds the registry while it calls stop().
  unregister_open(this);
  std::lock_guard stop_lock(stop_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (finished_) return clean_exit_;
    stopping_ = true;
  }
  cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  std::lock_guard lock(mutex_);
  finished_ = true;
  if (remove_log_) {
    std::error_code ec;
    std::filesystem::remove(log_path_, ec);
  }
  return clean_exit_;
}

RecorderStatus Recorder::status() const {
  RecorderStatus s;
  {
    std::lock_guard lock(mutex_);
    s.recording = !stopping_ && !writer_done_ && error_.empty();
    s.finished = finished_;
    s.submitted = submitted_;
    s.written = written_;
    s.dropped = dropped_;
    s.error = error_;
  }
  s.duration_s = static_cast<double>(s.written) / options_.fps;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(options_.output, ec);
  s.file_bytes = ec ? 0 : static_cast<uint64_t>(bytes);
  s.video_width = video_w_;
  s.video_height = video_h_;
  s.encoder = encoder_;
  return s;
}

bool Recorder::failed() const {
  std::lock_guard lock(mutex_);
  return !error_.empty();
}

std::string Recorder::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

}  // namespace physarum::app
