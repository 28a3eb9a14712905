// Records frames to an H.264 MP4 through an ffmpeg pipe. ffmpeg is started without a shell and fed
// raw RGBA from a ring of frame buffers by a writer thread, so the frame loop only copies a frame
// into a free slot. Interactive mode drops a frame when the ring is full (and counts it); headless
// mode waits for a slot and never drops. The file is always finalised: by stop(), which the frame
// loops call when they see Ctrl-C / SIGTERM / SIGHUP, by the destructor, or, as a safety net for
// an exit() that skips both, by finalise_open() at exit (see signals.hpp).
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "frame_sink.hpp"
#include "signals.hpp"

namespace physarum::app {

enum class RingPolicy {
  Drop,  // interactive: never block the caller; a frame that finds the ring full is dropped
  Wait,  // headless: block until a slot is free; never drop
};

struct RecorderOptions {
  std::filesystem::path output;  // written as MP4 whatever its extension
  int width = 0;                 // frame size handed to write_rgba; the video is this rounded
  int height = 0;                //   down to even (the right column / bottom row are cropped)
  int fps = 60;
  RingPolicy policy = RingPolicy::Drop;
  int ring_slots = 4;
  bool bottom_up = false;        // rows arrive bottom to top (glReadPixels): flipped while copying
  std::string comment;           // metadata comment tag: how to make the video again
  std::string encoder = "auto";  // auto (h264_nvenc when it works here, else libx264) | libx264 | h264_nvenc
  std::string ffmpeg = "ffmpeg";
  std::filesystem::path log_file;  // ffmpeg's messages; empty: a temporary file, removed after
};

struct RecorderStatus {
  bool recording = false;   // accepting frames
  bool finished = false;    // stop() has run
  uint64_t submitted = 0;   // write_rgba calls that arrived while recording
  uint64_t written = 0;     // frames ffmpeg has taken
  uint64_t dropped = 0;     // frames dropped because the ring was full (Drop mode)
  double duration_s = 0;    // written / fps
  uint64_t file_bytes = 0;  // size of the output file now
  int video_width = 0;
  int video_height = 0;
  std::string encoder;
  std::string error;  // empty while all is well
};

// The H.264 encoder this ffmpeg can use here: "h264_nvenc" when `ffmpeg -encoders` lists it and a
// one-frame trial encode succeeds (a listed encoder may still lack a GPU), else "libx264". The
// answer is cached per ffmpeg program; thread-safe (a second caller waits for the first probe,
// which the window starts in the background). Throws Error when ffmpeg is not on PATH.
std::string pick_h264_encoder(const std::string& ffmpeg = "ffmpeg");

class Recorder final : public FrameSink, private Finalisable {
 public:
  // Starts ffmpeg. Throws Error: ffmpeg missing ("ffmpeg not found on PATH; install it with
  // apt-get install ffmpeg"), a size too small, ffmpeg failing to start.
  explicit Recorder(RecorderOptions options);
  ~Recorder() override;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Copies the frame into the ring. A frame of another size is cropped or padded with black to
  // the recording's size (the window may be resized while recording). Returns false once the
  // recording has failed or stopped; a dropped frame still returns true.
  bool write_rgba(const uint8_t* rgba, int width, int height) override;

  // Writes every queued frame, closes the pipe and waits for ffmpeg. Returns true when ffmpeg
  // finished cleanly; otherwise status().error says why. Safe to call more than once.
  // error() says what went wrong ("ffmpeg stopped taking frames ..."); the caller adds which
  // recording stopped or failed.
  bool stop();

  RecorderStatus status() const;
  bool failed() const;
  std::string error() const;
  const std::filesystem::path& output() const { return options_.output; }
  pid_t ffmpeg_pid() const { return pid_; }  // for tests and diagnostics
  // The ffmpeg argument vector used (tests, logs).
  const std::vector<std::string>& command() const { return argv_; }

 private:
  void finalise() noexcept override;
  void writer_loop();
  void fail(const std::string& message);  // sets the error (first one wins); caller holds mutex_
  std::string log_tail() const;

  RecorderOptions options_;
  int video_w_ = 0;
  int video_h_ = 0;
  size_t frame_bytes_ = 0;
  std::string encoder_;
  std::vector<std::string> argv_;
  std::filesystem::path log_path_;
  bool remove_log_ = false;
  pid_t pid_ = -1;
  int pipe_fd_ = -1;

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::vector<uint8_t>> slots_;
  std::vector<int> free_slots_;
  std::deque<int> queued_;  // filled slots, oldest first
  int in_copy_ = 0;         // slots taken by write_rgba and still being filled
  bool stopping_ = false;
  bool writer_done_ = false;  // pipe closed and ffmpeg reaped
  bool finished_ = false;
  bool clean_exit_ = false;
  std::string error_;
  uint64_t submitted_ = 0;
  uint64_t written_ = 0;
  uint64_t dropped_ = 0;

  std::mutex stop_mutex_;  // one stop() at a time (the destructor and a signal path may race)
  std::thread writer_;
};

}  // namespace physarum::app
