#include "video/recorder.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"
#include "sim/write_all.hpp"
#include "video/process.hpp"

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

// ffmpeg's own limit on a raw frame (av_image_check_size): (w + 128) * (h + 128) < INT_MAX / 8.
bool ffmpeg_takes_frame(int w, int h) {
  return (static_cast<int64_t>(w) + 128) * (static_cast<int64_t>(h) + 128) < (int64_t{1} << 31) / 8;
}

constexpr int kNvencMaxSide = 4096;  // H.264 NVENC on every NVIDIA generation so far

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

std::string seconds_text(std::chrono::milliseconds ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", static_cast<double>(ms.count()) / 1000.0);
  return buf;
}

}  // namespace

std::string video_size_problem(int width, int height, const std::string& encoder) {
  const int w = width & ~1, h = height & ~1;
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  if (w < 2 || h < 2) return "a " + size + " video is too small (each side must be at least 2 pixels)";
  if (!ffmpeg_takes_frame(w, h)) {
    return "a " + size +
           " video is too large for ffmpeg (it takes frames of up to about 268 million pixels, " +
           "(width + 128) x (height + 128) < 268435456)";
  }
  if (encoder == "h264_nvenc" && (w > kNvencMaxSide || h > kNvencMaxSide)) {
    return "h264_nvenc cannot encode " + size + " (at most " + std::to_string(kNvencMaxSide) +
           " pixels a side); libx264 can";
  }
  return {};
}

std::string encoder_for_size(int width, int height, const std::string& encoder, const std::string& ffmpeg) {
  if (std::string why = video_size_problem(width, height, encoder == "auto" ? "libx264" : encoder);
      !why.empty()) {
    throw Error(why);
  }
  if (encoder != "auto") return encoder;
  const std::string picked = pick_h264_encoder(ffmpeg);
  return video_size_problem(width, height, picked).empty() ? picked : "libx264";
}

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
  format_ = options_.format.value_or(video_format_of(options_.output).value_or(VideoFormat::Mp4));
  const std::filesystem::path absolute = checked_output();
  const std::string ffmpeg = resolve_ffmpeg(options_.ffmpeg);
  switch (format_) {
    case VideoFormat::Mp4:
      encoder_ = encoder_for_size(video_w_, video_h_, options_.encoder, ffmpeg);
      if (encoder_ != "libx264" && encoder_ != "h264_nvenc") {
        throw Error("unknown video encoder '" + encoder_ + "' (choose auto, libx264 or h264_nvenc)");
      }
      break;
    case VideoFormat::Webm: encoder_ = "libvpx-vp9"; break;
    case VideoFormat::Gif: encoder_ = "gif"; break;
    case VideoFormat::PngSequence: encoder_ = "png"; break;
  }
  if (format_ != VideoFormat::Mp4) {
    if (std::string why = video_size_problem(video_w_, video_h_, encoder_); !why.empty()) throw Error(why);
  }
  watch_free_space(absolute.parent_path());
  argv_ = ffmpeg_argv(ffmpeg, absolute);
  allocate_ring();  // first: nothing to clean up if memory runs out
  start_ffmpeg(open_log());
  start_writer();
  register_open(this);
}

// Refuses what cannot be recorded before anything starts; returns the output's absolute path.
std::filesystem::path Recorder::checked_output() {
  const int even_mask = format_needs_even_size(format_) ? ~1 : ~0;
  video_w_ = options_.width & even_mask;
  video_h_ = options_.height & even_mask;
  if (video_w_ < 2 || video_h_ < 2 || options_.width > 16384 || options_.height > 16384) {
    throw Error("cannot record a " + std::to_string(options_.width) + "x" + std::to_string(options_.height) +
                " frame: each side must be 2..16384 pixels");
  }
  if (options_.fps < 1 || options_.fps > 1000) {
    throw Error("recording frame rate " + std::to_string(options_.fps) + " is out of range 1..1000");
  }
  if (options_.output.empty()) throw Error("no output file given for the recording");
  if (format_ == VideoFormat::PngSequence) prepare_frame_folder(options_.output);
  std::error_code ec;
  // ffmpeg reads "-x.mp4" as an option, "-" and "pipe:1" as stdout, "a:b.mp4" or "http://..." as a
  // protocol: it gets the absolute path behind its file: prefix, which it takes as a plain name.
  const std::filesystem::path absolute = std::filesystem::absolute(options_.output, ec);
  if (ec) throw Error("cannot record to " + options_.output.string() + ": " + ec.message());
  // A FIFO would block ffmpeg, and the window with it; a device (/dev/null) takes a stream.
  check_writable_target(absolute, "record to", WritableTarget::RegularFileOrDevice);
  absolute_ = absolute;
  if (format_ == VideoFormat::Gif) {
    frames_file_ = absolute.string() + ".frames.mkv";
    check_writable_target(frames_file_, "keep the GIF's frames in");
  }
  return absolute;
}

// The free space on the output's disk, checked now and while recording (RecorderOptions::free_space).
void Recorder::watch_free_space(const std::filesystem::path& dir) {
  if (options_.free_space) {
    // as given
  } else {
    options_.free_space = [dir] {
      struct statvfs st {};
      if (::statvfs(dir.c_str(), &st) != 0) return std::numeric_limits<uint64_t>::max();
      return static_cast<uint64_t>(st.f_bavail) * static_cast<uint64_t>(st.f_frsize);
    };
  }
  if (const uint64_t free = free_bytes(); free < options_.min_free_bytes) {
    throw Error("cannot record to " + options_.output.string() + ": only " + std::to_string(free >> 20) +
                " MB free on its disk (a recording stops at " +
                std::to_string(options_.min_free_bytes >> 20) + " MB)");
  }
}

std::vector<std::string> Recorder::ffmpeg_argv(const std::string& ffmpeg,
                                               const std::filesystem::path& absolute) const {
  std::vector<std::string> argv = {ffmpeg,
                                   "-hide_banner",
                                   "-loglevel",
                                   "error",
                                   "-nostats",
                                   "-nostdin",
                                   "-y",
                                   "-f",
                                   "rawvideo",
                                   "-pix_fmt",
                                   "rgba",
                                   "-s",
                                   std::to_string(video_w_) + "x" + std::to_string(video_h_),
                                   "-r",
                                   std::to_string(options_.fps),
                                   "-i",
                                   "pipe:0",
                                   "-an"};
  for (const std::string& a : format_args(absolute)) argv.push_back(a);
  return argv;
}

// Everything after the input: codec, container and file, per format.
std::vector<std::string> Recorder::format_args(const std::filesystem::path& absolute) const {
  const bool live = options_.policy == RingPolicy::Drop;  // the window: the encoder must keep up
  const std::string fps = std::to_string(options_.fps);
  std::vector<std::string> a;
  const auto comment = [&] {
    if (!options_.comment.empty()) a.insert(a.end(), {"-metadata", "comment=" + options_.comment});
  };
  switch (format_) {
    case VideoFormat::Mp4:
      a = encoder_args(encoder_, options_.policy);
      // Fragmented MP4 with a fragment a second: a file cut short by a crash, a kill or a full disk
      // still plays up to its last whole fragment (a plain MP4 needs its index, written last).
      a.insert(a.end(), {"-r", fps, "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
                         "-frag_duration", "1000000"});
      comment();
      // MP4 whatever the extension says, so the flags above always apply.
      a.insert(a.end(), {"-f", "mp4", "file:" + absolute.string()});
      break;
    case VideoFormat::Webm:
      // Constant quality (-b:v 0); WebM is Matroska, written cluster by cluster, so a file cut
      // short still plays up to its last cluster.
      a = {"-c:v",      "libvpx-vp9",
           "-pix_fmt",  options_.alpha ? "yuva420p" : "yuv420p",
           "-crf",      "31",
           "-b:v",      "0",
           "-row-mt",   "1",
           "-deadline", live ? "realtime" : "good",
           "-cpu-used", live ? "8" : "2",
           "-r",        fps};
      comment();
      a.insert(a.end(), {"-f", "webm", "file:" + absolute.string()});
      break;
    case VideoFormat::Gif:
      // Lossless frames first (FFV1 in Matroska: compact, and playable if we are killed); the
      // GIF's palette needs every frame, so it is made at stop() (make_gif).
      a = {"-c:v", "ffv1", "-pix_fmt", "bgr0", "-r", fps, "-f", "matroska", "file:" + frames_file_.string()};
      break;
    case VideoFormat::PngSequence:
      a = {"-c:v", "png", "-pix_fmt", options_.alpha ? "rgba" : "rgb24", "-start_number",
           "1",    "-f",  "image2",   "file:" + absolute.string()};
      break;
  }
  return a;
}

void Recorder::allocate_ring() {
  frame_bytes_ = static_cast<size_t>(video_w_) * static_cast<size_t>(video_h_) * 4;
  const int slots = std::clamp(options_.ring_slots, 1, 64);
  slots_.resize(static_cast<size_t>(slots));
  repeats_.assign(static_cast<size_t>(slots), 1);
  for (int i = 0; i < slots; ++i) {
    slots_[static_cast<size_t>(i)].resize(frame_bytes_);
    free_slots_.push_back(i);
  }
}

// ffmpeg's messages go to a log, read back when something fails. Returns its descriptor, or -1.
int Recorder::open_log() {
  std::error_code ec;
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

  return log_fd;
}

// Spawns ffmpeg reading frames from a pipe; closes log_fd (ffmpeg holds its own copy).
void Recorder::start_ffmpeg(int log_fd) {
  std::error_code ec;
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
  // Non-blocking: the writer waits in poll() with a deadline, never in write().
  ::fcntl(pipe_fd_, F_SETFL, ::fcntl(pipe_fd_, F_GETFL) | O_NONBLOCK);
}

void Recorder::start_writer() {
  std::error_code ec;
  try {
    writer_ = std::thread([this] { writer_loop(); });
  } catch (const std::system_error& e) {
    // No writer: close ffmpeg's input so it ends, and reap it; neither the pipe nor the child leak.
    ::close(pipe_fd_);
    pipe_fd_ = -1;
    bool killed = false;
    stop_deadline_ = Clock::now() + std::chrono::seconds(5);
    (void)end_ffmpeg(&killed);
    if (remove_log_) std::filesystem::remove(log_path_, ec);
    throw Error(std::string("cannot start the recording's writer thread: ") + e.what());
  }
}

Recorder::~Recorder() {
  stop();
}

void Recorder::finalise() noexcept {
  stop();
}

uint64_t Recorder::free_bytes() const {
  return options_.free_space ? options_.free_space() : std::numeric_limits<uint64_t>::max();
}

bool Recorder::write_rgba(const uint8_t* rgba, int width, int height) {
  return enqueue(rgba, width, height, Clock::now(), false);
}

bool Recorder::write_rgba_at(const uint8_t* rgba, int width, int height, Clock::time_point captured) {
  return enqueue(rgba, width, height, captured, options_.pacing == Pacing::RealTime);
}

bool Recorder::enqueue(const uint8_t* rgba, int width, int height, Clock::time_point captured, bool paced) {
  using namespace std::chrono_literals;
  int slot = -1;
  uint64_t repeats = 1;
  {
    std::unique_lock lock(mutex_);
    if (stopping_ || writer_done_ || failing_ || !error_.empty()) return false;
    ++submitted_;
    if (!first_capture_)
      first_capture_ = options_.started && options_.pacing == Pacing::RealTime
                           ? std::min(*options_.started, captured)
                           : captured;
    last_capture_ = std::max(last_capture_, captured);
    if (paced) {
      // Video frame k shows the newest frame captured by first + k / fps: this frame fills the
      // video up to its own capture time (several frames after a slow one, none when early).
      // Integer nanoseconds: a frame exactly on a tick (0.7 s at 30 fps) lands on it.
      const int64_t ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(captured - *first_capture_).count();
      const uint64_t due = static_cast<uint64_t>(std::max<int64_t>(ns, 0)) *
                               static_cast<uint64_t>(options_.fps) / 1'000'000'000u +
                           1;
      if (due <= scheduled_) {
        ++skipped_;
        return true;
      }
      repeats = due - scheduled_;
    }
    if (free_slots_.empty()) {
      if (options_.policy == RingPolicy::Drop) {
        ++dropped_;  // RealTime: the next frame fills the gap, the video keeps its length
        return true;
      }
      // Wait mode: wait for the writer, but not past a Ctrl-C (the writer's own deadline ends a
      // stalled ffmpeg; the user should not have to wait for that).
      while (free_slots_.empty() && !stopping_ && !writer_done_ && !failing_ && error_.empty()) {
        if (stop_requested()) break;
        cv_.wait_for(lock, 100ms);
      }
      if (free_slots_.empty()) {
        ++dropped_;
        return false;
      }
    }
    slot = free_slots_.back();
    free_slots_.pop_back();
    if (paced) scheduled_ += repeats;
    repeats_[static_cast<size_t>(slot)] = repeats;
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
  failing_ = true;
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

bool Recorder::past_stop_deadline() {
  std::lock_guard lock(mutex_);
  return stop_deadline_ && Clock::now() >= *stop_deadline_;
}

Recorder::WriteResult Recorder::write_to_ffmpeg(const uint8_t* data, size_t size, int* err) {
  auto last_progress = Clock::now();
  while (size > 0) {
    int e = 0;
    const size_t n = write_all(pipe_fd_, data, size, &e);  // until the pipe is full (EAGAIN)
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
    if (past_stop_deadline()) return WriteResult::Abandoned;
    if (Clock::now() - last_progress >= options_.stall_limit) return WriteResult::Stalled;
    pollfd p{pipe_fd_, POLLOUT, 0};
    (void)::poll(&p, 1, 100);  // POLLERR (ffmpeg gone) shows up as EPIPE on the next write
  }
  return WriteResult::Ok;
}

int Recorder::end_ffmpeg(bool* killed) {
  using namespace std::chrono_literals;
  Clock::time_point deadline;
  {
    std::lock_guard lock(mutex_);
    // After a failure ffmpeg should be ending already; a few seconds for it to say why.
    deadline = stop_deadline_ ? std::max(*stop_deadline_, Clock::now() + 1s) : Clock::now() + 5s;
  }
  if (auto status = reap_by(pid_, deadline)) return *status;
  // SIGTERM: ffmpeg closes the file properly when it can; SIGKILL when it does not.
  *killed = true;
  ::kill(pid_, SIGTERM);
  if (auto status = reap_by(pid_, Clock::now() + 2s)) return *status;
  ::kill(pid_, SIGKILL);
  return wait_process(pid_);
}

void Recorder::writer_loop() {
  // SIGPIPE from a write goes to the writing thread: blocked here, a dead ffmpeg is an EPIPE even
  // when the program never installed the signal handlers. Ctrl-C is the main thread's business.
  sigset_t block;
  sigemptyset(&block);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
  pthread_sigmask(SIG_BLOCK, &block, nullptr);

  WriterEnd end = write_queued_frames();
  if (end.problem.empty() && !end.abandoned) write_last_frame_again();
  // Closing the pipe is ffmpeg's end of input: it flushes the encoder and ends the MP4.
  ::close(pipe_fd_);
  pipe_fd_ = -1;
  end.status = end_ffmpeg(&end.killed);
  finish_writer(end);
}

// Writes the frames as they are queued, until stop() has drained the queue or writing fails.
Recorder::WriterEnd Recorder::write_queued_frames() {
  WriterEnd end;
  auto next_space_check = Clock::now();
  for (;;) {
    int slot = -1;
    uint64_t repeats = 1;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return !queued_.empty() || (stopping_ && in_copy_ == 0); });
      if (queued_.empty()) break;  // stopping and drained
      slot = queued_.front();
      queued_.pop_front();
      repeats = repeats_[static_cast<size_t>(slot)];
    }
    if (Clock::now() >= next_space_check) {
      next_space_check = Clock::now() + std::chrono::milliseconds(500);
      end.problem = low_space_problem();
      end.low_space = !end.problem.empty();
    }
    int err = 0;
    WriteResult result = WriteResult::Ok;
    uint64_t done = 0;
    while (!end.low_space && done < repeats && result == WriteResult::Ok) {
      result = write_to_ffmpeg(slots_[static_cast<size_t>(slot)].data(), frame_bytes_, &err);
      if (result == WriteResult::Ok) ++done;
    }
    const bool stop_writing = account_frame(slot, done == repeats, done, result, err, end);
    cv_.notify_all();
    if (stop_writing) break;
  }
  return end;
}

// Empty while the disk has room; else why the recording stops.
std::string Recorder::low_space_problem() const {
  const uint64_t free = free_bytes();
  if (free >= options_.min_free_bytes) return {};
  return "stopped before the disk is full: " + std::to_string(free >> 20) + " MB left on the disk of " +
         options_.output.string() + " (a recording stops at " +
         std::to_string(options_.min_free_bytes >> 20) + " MB)";
}

// Counts a slot written (or not) and frees it; on a failure drops what is still queued. Returns
// true when the writer must stop.
bool Recorder::account_frame(int slot, bool whole, uint64_t video_frames, WriteResult result, int err,
                             WriterEnd& end) {
  std::lock_guard lock(mutex_);
  free_slots_.push_back(slot);
  last_slot_ = slot;
  video_frames_ += video_frames;
  if (whole) {
    ++written_;
  } else {
    ++dropped_;
  }
  if (result == WriteResult::Abandoned) {
    end.abandoned = true;
  } else if (result == WriteResult::Stalled) {
    end.problem = "ffmpeg took no data for " + seconds_text(options_.stall_limit) + " after " +
                  frames_text(written_) + " (stalled)";
  } else if (result == WriteResult::Failed) {
    end.problem = err == EPIPE
                      ? "ffmpeg stopped taking frames after " + frames_text(written_)
                      : "writing to ffmpeg failed after " + frames_text(written_) + ": " + std::strerror(err);
  }
  if (end.problem.empty() && !end.abandoned) return false;
  failing_ = true;  // no more frames are taken; error_ is set by finish_writer, with ffmpeg's reason
  // Frames still queued will never be written.
  dropped_ += queued_.size();
  for (int q : queued_) free_slots_.push_back(q);
  queued_.clear();
  return true;
}

// RealTime with a start: the last frame stays on until stop(), as it did on the screen.
void Recorder::write_last_frame_again() {
  uint64_t tail = 0;
  int slot = -1;
  {
    std::lock_guard lock(mutex_);
    tail = tail_repeats_;
    slot = last_slot_;
  }
  int err = 0;
  for (uint64_t i = 0; slot >= 0 && i < tail; ++i) {
    if (write_to_ffmpeg(slots_[static_cast<size_t>(slot)].data(), frame_bytes_, &err) != WriteResult::Ok)
      break;
    std::lock_guard lock(mutex_);
    ++video_frames_;
  }
}

// ffmpeg has been reaped: the error, with ffmpeg's own last words, and the final state.
void Recorder::finish_writer(const WriterEnd& end) {
  const std::string tail = log_tail();
  {
    std::lock_guard lock(mutex_);
    // Frames that arrived while the writer was ending.
    dropped_ += queued_.size();
    queued_.clear();
    std::string what = end.problem;
    if (end.abandoned) {
      what = "ffmpeg did not take the last frames within " + seconds_text(options_.stop_limit) + " of stop";
    }
    if (end.killed) {
      what += std::string(what.empty() ? "" : "; ") + "ffmpeg did not finish in time and was ended (" +
              describe_wait_status(end.status) + ")";
    } else if (!wait_status_ok(end.status)) {
      what += std::string(what.empty() ? "" : "; ") + "ffmpeg " + describe_wait_status(end.status);
    }
    if (!what.empty()) {
      if (!tail.empty()) what += "; ffmpeg said: " + tail;
      if (!end.low_space && !end.killed && end.status != -1 && WIFEXITED(end.status) &&
          !wait_status_ok(end.status) && tail.empty()) {
        what += " (full disk or unwritable file " + options_.output.string() + "?)";
      }
      what += "; " + (format_ == VideoFormat::Gif ? frames_file_ : options_.output).string() +
              " keeps what was written before (" + frames_text(written_) + " sent)";
      error_ = what;
    }
    failing_ = !error_.empty();
    clean_exit_ = wait_status_ok(end.status) && error_.empty();
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
    const auto now = Clock::now();
    if (!stop_deadline_) stop_deadline_ = now + options_.stop_limit;
    if (options_.pacing == Pacing::RealTime && options_.started && first_capture_ && now > *first_capture_) {
      // Video frames 0 .. n-1 cover first .. now.
      const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - *first_capture_).count();
      const uint64_t due = static_cast<uint64_t>(ns) * static_cast<uint64_t>(options_.fps) / 1'000'000'000u;
      tail_repeats_ = due > scheduled_ ? due - scheduled_ : 0;
      scheduled_ += tail_repeats_;
      last_capture_ = now;
    }
  }
  cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  finish_gif();
  std::lock_guard lock(mutex_);
  finished_ = true;
  dropped_ += queued_.size();  // queued after the writer had ended
  queued_.clear();
  if (remove_log_) {
    std::error_code ec;
    std::filesystem::remove(log_path_, ec);
  }
  return clean_exit_;
}

// GIF: the frames kept so far become the GIF (even after a failure: what was recorded is not
// lost); the frames file goes once the GIF is made, else it stays and the error says where.
void Recorder::finish_gif() {
  if (format_ != VideoFormat::Gif || gif_done_) return;
  gif_done_ = true;
  uint64_t written = 0;
  {
    std::lock_guard lock(mutex_);
    written = written_;
  }
  std::string problem = written > 0 ? make_gif() : "no frame was recorded";
  std::error_code ec;
  if (problem.empty()) {
    std::filesystem::remove(frames_file_, ec);
    return;
  }
  if (written == 0) std::filesystem::remove(frames_file_, ec);
  std::lock_guard lock(mutex_);
  std::string what = "the GIF was not made: " + problem;
  if (written > 0) what += "; the " + frames_text(written) + " are kept in " + frames_file_.string();
  error_ = error_.empty() ? what : error_ + "; " + what;
  failing_ = true;
  clean_exit_ = false;
}

// Two passes over the kept frames: palettegen picks the 256 colours the whole video needs, then
// paletteuse maps every frame to them (dithered), into a GIF that loops for ever.
std::string Recorder::make_gif() {
  const std::string ffmpeg = argv_.front();
  const std::string palette = frames_file_.string() + ".palette.png";
  const std::vector<std::string> quiet = {ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y"};
  auto run = [&](const char* what, std::vector<std::string> args) -> std::string {
    std::vector<std::string> argv = quiet;
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessOutput r = run_capture(argv, true, options_.convert_limit);
    if (r.timed_out) return std::string(what) + " took longer than " + seconds_text(options_.convert_limit);
    if (wait_status_ok(r.wait_status)) return {};
    std::string out = r.out;
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return std::string(what) + ": ffmpeg " + describe_wait_status(r.wait_status) +
           (out.empty() ? "" : "; ffmpeg said: " + out.substr(out.size() > 400 ? out.size() - 400 : 0));
  };
  std::string problem =
      run("the palette pass", {"-i", "file:" + frames_file_.string(), "-vf", "palettegen=stats_mode=full",
                               "-frames:v", "1", "-f", "image2", "file:" + palette});
  if (problem.empty()) {
    problem = run("the GIF pass", {"-i", "file:" + frames_file_.string(), "-i", "file:" + palette, "-lavfi",
                                   "[0:v][1:v]paletteuse=dither=sierra2_4a", "-loop", "0", "-f", "gif",
                                   "file:" + absolute_.string()});
  }
  std::error_code ec;
  std::filesystem::remove(palette, ec);
  return problem;
}

RecorderStatus Recorder::status() const {
  RecorderStatus s;
  {
    std::lock_guard lock(mutex_);
    s.recording = !stopping_ && !writer_done_ && !failing_ && error_.empty();
    s.finished = finished_;
    s.submitted = submitted_;
    s.written = written_;
    s.dropped = dropped_;
    s.skipped = skipped_;
    s.video_frames = video_frames_;
    s.error = error_;
    if (first_capture_) s.wall_s = std::chrono::duration<double>(last_capture_ - *first_capture_).count();
  }
  s.duration_s = static_cast<double>(s.video_frames) / options_.fps;
  // A GIF grows in its frames file until stop(); a PNG sequence has no one file (0).
  std::error_code ec;
  const bool gif_pending = format_ == VideoFormat::Gif && !s.finished;
  const auto bytes = std::filesystem::file_size(gif_pending ? frames_file_ : options_.output, ec);
  s.file_bytes = ec ? 0 : static_cast<uint64_t>(bytes);
  s.video_width = video_w_;
  s.video_height = video_h_;
  s.encoder = encoder_;
  return s;
}

bool Recorder::failed() const {
  std::lock_guard lock(mutex_);
  return failing_ || !error_.empty();
}

std::string Recorder::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

}  // namespace physarum::app
