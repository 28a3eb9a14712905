#include "video/recorder.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <system_error>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"
#include "system/process.hpp"
#include "video/ffmpeg_args.hpp"
#include "video/gif_pass.hpp"

namespace physarum::app {

namespace {

std::string frames_text(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " frame" : " frames");
}

}  // namespace

Recorder::Recorder(RecorderOptions options)
    : options_(std::move(options)), pacer_(options_.fps, options_.pacing, options_.started) {
  format_ = options_.format.value_or(video_format_of(options_.output).value_or(VideoFormat::Mp4));
  const std::filesystem::path absolute = checked_output();
  const std::string ffmpeg = resolve_ffmpeg(options_.ffmpeg);
  choose_encoder(ffmpeg);
  disk_.emplace(options_.output, absolute.parent_path(), options_.min_free_bytes, options_.free_space);
  disk_->check_at_start();
  argv_ = ffmpeg_recording_argv(
      ffmpeg, {format_, encoder_, video_w_, video_h_, options_.fps, options_.alpha, options_.policy,
               options_.comment, absolute, frames_file_, options_.quality});
  // The ring first: nothing to clean up if memory runs out.
  ring_.emplace(options_.ring_slots, static_cast<size_t>(video_w_) * static_cast<size_t>(video_h_) * 4);
  ffmpeg_ = std::make_unique<FfmpegPipe>(argv_, options_.log_file);
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

void Recorder::choose_encoder(const std::string& ffmpeg) {
  switch (format_) {
    case VideoFormat::Mp4:
      encoder_ = encoder_for_size(video_w_, video_h_, options_.encoder, ffmpeg);
      if (encoder_ != "libx264" && encoder_ != "h264_nvenc") {
        throw Error("unknown video encoder '" + encoder_ + "' (choose auto, libx264 or h264_nvenc)");
      }
      if (std::string why = quality_problem(options_.quality, format_, encoder_); !why.empty())
        throw Error(why);
      return;
    case VideoFormat::Webm: encoder_ = "libvpx-vp9"; break;
    case VideoFormat::Gif: encoder_ = "gif"; break;
    case VideoFormat::PngSequence: encoder_ = "png"; break;
  }
  if (std::string why = video_size_problem(video_w_, video_h_, encoder_); !why.empty()) throw Error(why);
  if (std::string why = quality_problem(options_.quality, format_, encoder_); !why.empty()) throw Error(why);
}

void Recorder::start_writer() {
  try {
    writer_ = std::thread([this] { writer_loop(); });
  } catch (const std::system_error& e) {
    // No writer: close ffmpeg's input so it ends, and reap it; neither the pipe nor the child leak.
    ffmpeg_->close_input();
    bool killed = false;
    stop_deadline_ = Clock::now() + std::chrono::seconds(5);
    (void)end_ffmpeg(&killed);
    ffmpeg_->remove_log();
    throw Error(std::string("cannot start the recording's writer thread: ") + e.what());
  }
}

Recorder::~Recorder() {
  stop();
}

void Recorder::finalise() noexcept {
  stop();
}

bool Recorder::write_rgba(const uint8_t* rgba, int width, int height) {
  return enqueue(rgba, width, height, Clock::now(), false);
}

bool Recorder::write_rgba_at(const uint8_t* rgba, int width, int height, Clock::time_point captured) {
  return enqueue(rgba, width, height, captured, options_.pacing != Pacing::EveryFrame);
}

bool Recorder::enqueue(const uint8_t* rgba, int width, int height, Clock::time_point captured, bool paced) {
  int slot = -1;
  {
    std::unique_lock lock(mutex_);
    if (stopping_ || writer_done_ || failing_ || !error_.empty()) return false;
    ++submitted_;
    pacer_.capture(captured);
    // Video frame k shows the newest frame captured by first + k / fps: this frame fills the
    // video up to its own capture time (several frames after a slow one, none when early).
    const uint64_t repeats = paced ? pacer_.repeats_for(captured) : 1;
    if (repeats == 0) {
      ++skipped_;
      return true;
    }
    slot = take_slot(lock, repeats);
    if (slot < 0) return options_.policy == RingPolicy::Drop;
    if (paced) pacer_.schedule(repeats, captured);
  }
  // Copy outside the lock: the slot is ours until it is queued.
  copy_frame(ring_->data(slot), video_w_, video_h_, rgba, width, height, options_.bottom_up);
  {
    std::lock_guard lock(mutex_);
    ring_->queue(slot);
  }
  cv_.notify_all();
  return true;
}

// A free slot, or -1 with the frame counted as dropped: at once in Drop mode (RealTime: the next
// frame fills the gap, the video keeps its length), else after waiting for the writer, but not past
// a Ctrl-C (the writer's own deadline ends a stalled ffmpeg; the user should not have to wait).
int Recorder::take_slot(std::unique_lock<std::mutex>& lock, uint64_t repeats) {
  using namespace std::chrono_literals;
  if (!ring_->has_free() && options_.policy == RingPolicy::Wait) {
    while (!ring_->has_free() && !stopping_ && !writer_done_ && !failing_ && error_.empty()) {
      if (stop_requested()) break;
      cv_.wait_for(lock, 100ms);
    }
  }
  if (!ring_->has_free()) {
    ++dropped_;
    return -1;
  }
  return ring_->take(repeats);
}

bool Recorder::past_stop_deadline() {
  std::lock_guard lock(mutex_);
  return stop_deadline_ && Clock::now() >= *stop_deadline_;
}

Recorder::WriteResult Recorder::write_slot(int slot, int* err) {
  return ffmpeg_->write(
      ring_->data(slot), ring_->frame_bytes(), options_.stall_limit, [this] { return past_stop_deadline(); },
      err);
}

int Recorder::end_ffmpeg(bool* killed) {
  using namespace std::chrono_literals;
  Clock::time_point deadline;
  {
    std::lock_guard lock(mutex_);
    // After a failure ffmpeg should be ending already; a few seconds for it to say why.
    deadline = stop_deadline_ ? std::max(*stop_deadline_, Clock::now() + 1s) : Clock::now() + 5s;
  }
  return ffmpeg_->end(deadline, killed);
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
  ffmpeg_->close_input();
  end.status = end_ffmpeg(&end.killed);
  finish_writer(end);
}

// Writes the frames as they are queued, until stop() has drained the queue or writing fails.
Recorder::WriterEnd Recorder::write_queued_frames() {
  WriterEnd end;
  auto next_space_check = Clock::now();
  for (;;) {
    FrameRing::Queued next;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return !ring_->queue_empty() || (stopping_ && !ring_->filling()); });
      if (ring_->queue_empty()) break;  // stopping and drained
      next = *ring_->pop();
    }
    if (Clock::now() >= next_space_check) {
      next_space_check = Clock::now() + std::chrono::milliseconds(500);
      end.problem = disk_->low_space_problem();
      end.low_space = !end.problem.empty();
    }
    int err = 0;
    WriteResult result = WriteResult::Ok;
    uint64_t done = 0;
    while (!end.low_space && done < next.repeats && result == WriteResult::Ok) {
      result = write_slot(next.slot, &err);
      if (result == WriteResult::Ok) ++done;
    }
    const bool stop_writing = account_frame(next.slot, done == next.repeats, done, result, err, end);
    cv_.notify_all();
    if (stop_writing) break;
  }
  return end;
}

// Counts a slot written (or not) and frees it; on a failure drops what is still queued. Returns
// true when the writer must stop.
bool Recorder::account_frame(int slot, bool whole, uint64_t video_frames, WriteResult result, int err,
                             WriterEnd& end) {
  std::lock_guard lock(mutex_);
  ring_->release(slot);
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
  dropped_ += ring_->drop_queued();  // frames still queued will never be written
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
    if (write_slot(slot, &err) != WriteResult::Ok) break;
    std::lock_guard lock(mutex_);
    ++video_frames_;
  }
}

// What went wrong, with ffmpeg's own last words and where the frames written so far are; empty
// when nothing did. Caller holds mutex_.
std::string Recorder::writer_error(const WriterEnd& end, const std::string& ffmpeg_said) const {
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
  if (what.empty()) return what;
  if (!ffmpeg_said.empty()) what += "; ffmpeg said: " + ffmpeg_said;
  if (!end.low_space && !end.killed && end.status != -1 && WIFEXITED(end.status) &&
      !wait_status_ok(end.status) && ffmpeg_said.empty()) {
    what += " (full disk or unwritable file " + options_.output.string() + "?)";
  }
  return what + "; " + (format_ == VideoFormat::Gif ? frames_file_ : options_.output).string() +
         " keeps what was written before (" + frames_text(written_) + " sent)";
}

// ffmpeg has been reaped: the error and the final state.
void Recorder::finish_writer(const WriterEnd& end) {
  const std::string tail = ffmpeg_->log_tail();
  {
    std::lock_guard lock(mutex_);
    dropped_ += ring_->drop_queued();  // frames that arrived while the writer was ending
    if (std::string what = writer_error(end, tail); !what.empty()) error_ = what;
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
    tail_repeats_ = pacer_.hold_last_until(now);
  }
  cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  finish_gif();
  std::lock_guard lock(mutex_);
  finished_ = true;
  dropped_ += ring_->drop_queued();  // queued after the writer had ended
  ffmpeg_->remove_log();
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
  // The frames file holds frames at the GIF's rate and width already (ffmpeg_args.cpp).
  const int kept_width = gif_width_for(options_.quality, video_w_);
  std::string problem = written > 0 ? make_gif(argv_.front(), frames_file_, absolute_, options_.convert_limit,
                                               options_.quality, kept_width)
                                    : "no frame was recorded";
  std::optional<GifInfo> made;
  if (problem.empty()) {
    try {
      made = read_gif(absolute_);  // what is said of the GIF is what it holds
    } catch (const Error& e) {
      problem = std::string("the GIF made cannot be read back: ") + e.what();
    }
  }
  std::error_code ec;
  if (problem.empty()) {
    std::filesystem::remove(frames_file_, ec);
    std::lock_guard lock(mutex_);
    gif_ = std::move(made);
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
    s.wall_s = pacer_.wall_s();
    s.video_fps = options_.fps;
    s.duration_s = static_cast<double>(s.video_frames) / options_.fps;
    if (gif_) {
      s.video_frames = gif_->frames();
      s.video_fps = gif_->fps();
      s.duration_s = gif_->total_cs() / 100.0;
    }
  }
  // A GIF grows in its frames file until stop(); a PNG sequence is the sum of its files.
  std::error_code ec;
  const bool gif_pending = format_ == VideoFormat::Gif && !s.finished;
  if (format_ == VideoFormat::PngSequence) {
    s.file_bytes = png_sequence_bytes();
  } else {
    const auto bytes = std::filesystem::file_size(gif_pending ? frames_file_ : options_.output, ec);
    s.file_bytes = ec ? 0 : static_cast<uint64_t>(bytes);
  }
  s.video_width = video_w_;
  s.video_height = video_h_;
  s.encoder = encoder_;
  return s;
}

// The frames ffmpeg has finished so far: files 1, 2, ... up to the first not there (ffmpeg writes
// them in order). Each file is measured once, when the next one exists (the last may still grow),
// so a status a frame costs a stat or two however long the sequence.
uint64_t Recorder::png_sequence_bytes() const {
  std::lock_guard lock(png_bytes_mutex_);
  std::error_code ec;
  while (std::filesystem::exists(frame_file(options_.output, png_files_done_ + 2), ec)) {
    const auto done = std::filesystem::file_size(frame_file(options_.output, png_files_done_ + 1), ec);
    if (ec) break;
    png_bytes_done_ += static_cast<uint64_t>(done);
    ++png_files_done_;
  }
  const auto last = std::filesystem::file_size(frame_file(options_.output, png_files_done_ + 1), ec);
  return png_bytes_done_ + (ec ? 0 : static_cast<uint64_t>(last));
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
