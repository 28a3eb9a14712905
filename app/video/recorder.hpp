// Records frames through an ffmpeg pipe: an H.264 MP4, a VP9 WebM (with alpha when asked), a
// looping GIF (frames kept losslessly in <name>.frames.mkv while recording, then ffmpeg's
// palettegen and paletteuse in two passes at stop()) or a numbered PNG sequence (video_format.hpp). ffmpeg is
// started without a shell and fed raw RGBA from a ring of frame buffers by a writer thread, so the frame loop
// only copies a frame into a free slot. Interactive mode drops a frame when the ring is full (and counts it);
// headless mode waits for a slot and never drops. The file is always finalised: by stop(), which the frame
// loops call when they see Ctrl-C / SIGTERM / SIGHUP, by the destructor, or, as a safety net for
// an exit() that skips both, by finalise_open() at exit (see signals.hpp).
//
// Nothing here waits forever on ffmpeg: the pipe is non-blocking and every write has a deadline
// (a stalled ffmpeg fails the recording), stop() gives ffmpeg a bounded time to finish and then
// ends it. The MP4 is fragmented, so what ffmpeg wrote before a crash, a kill or a full disk still
// plays; the free space is watched and the recording stops cleanly before the disk is full.
//
// The parts, each in its own file: the encoder probe (encoder_probe.hpp), ffmpeg's command line
// (ffmpeg_args.hpp), the process and its pipe (ffmpeg_pipe.hpp), the frame ring (frame_ring.hpp),
// real-time pacing (video_pacer.hpp), the disk watch (disk_watch.hpp) and the GIF's second pass
// (gif_pass.hpp). This class starts them and runs the writer thread between ring and pipe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "system/signals.hpp"
#include "video/disk_watch.hpp"
#include "video/encoder_probe.hpp"
#include "video/ffmpeg_pipe.hpp"
#include "video/frame_ring.hpp"
#include "video/frame_sink.hpp"
#include "video/gif_info.hpp"
#include "video/video_format.hpp"
#include "video/video_pacer.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {

struct RecorderOptions {
  std::filesystem::path output;  // a file, or a frame pattern (frames/%05d.png) for a PNG sequence
  // Empty: from the output's name (video_format_of), MP4 for a name of no known format.
  std::optional<VideoFormat> format;
  // Keep the frames' alpha where the format can (WebM as yuva420p, PNG as RGBA); else dropped.
  bool alpha = false;
  int width = 0;   // frame size handed to write_rgba; MP4 and WebM are this rounded down to
  int height = 0;  //   even (the right column / bottom row are cropped)
  int fps = 60;
  RingPolicy policy = RingPolicy::Drop;
  int ring_slots = 4;
  bool bottom_up = false;        // rows arrive bottom to top (glReadPixels): flipped while copying
  std::string comment;           // metadata comment tag: how to make the video again
  std::string encoder = "auto";  // auto (h264_nvenc when it works here, else libx264) | libx264 | h264_nvenc
  std::string ffmpeg = "ffmpeg";
  // Quality and speed (MP4, WebM), a GIF's width, rate, colours and dither (video_quality.hpp).
  VideoQuality quality;
  std::filesystem::path log_file;  // ffmpeg's messages; empty: a temporary file, removed after
  Pacing pacing = Pacing::EveryFrame;
  // RealTime with a start time (the window's recordings): the video covers start .. stop(), the
  // first frame shown from the start and the last one held until stop(), as on the screen.
  // Without one it covers the first capture .. the last.
  std::optional<std::chrono::steady_clock::time_point> started;
  // ffmpeg taking no byte for this long while recording fails the recording (a stalled encoder).
  std::chrono::milliseconds stall_limit{30'000};
  // After stop(): the time the queued frames and ffmpeg get to finish; then ffmpeg is ended
  // (SIGTERM, SIGKILL two seconds later). What it wrote before stays in the file.
  std::chrono::milliseconds stop_limit{30'000};
  // GIF: the time each of the two palette passes gets after stop(); past it the GIF fails and the
  // frames stay in <name>.frames.mkv.
  std::chrono::milliseconds convert_limit{600'000};
  // The recording stops cleanly, with a message, when the output's file system has less free.
  uint64_t min_free_bytes = uint64_t{256} << 20;
  // Free bytes on the output's file system; empty: statvfs. A seam for tests.
  std::function<uint64_t()> free_space;
};

struct RecorderStatus {
  bool recording = false;  // accepting frames
  bool finished = false;   // stop() has run
  // After stop(): submitted == written + dropped + skipped.
  uint64_t submitted = 0;  // write_rgba calls that arrived while recording
  uint64_t written = 0;    // frames ffmpeg has taken (each once, however often it is repeated)
  uint64_t dropped = 0;    // frames lost: ring full (Drop mode), stopped or failed before written
  uint64_t skipped = 0;    // RealTime: frames that came faster than the video's rate
  // Frames in the video (RealTime repeats a frame to fill wall time); once a GIF is made, the frames
  // the GIF file holds (ffmpeg brings them to --gif-fps).
  uint64_t video_frames = 0;
  // The rate the frames play at: the one the encoder was given (MP4, WebM, PNG frames), a made GIF's
  // from its frame delays.
  double video_fps = 0;
  double duration_s = 0;    // video_frames / video_fps; a made GIF's delays added up
  double wall_s = 0;        // capture (or arrival) time from the first frame to the last
  uint64_t file_bytes = 0;  // size of the output file now (a PNG sequence: of its files)
  int video_width = 0;
  int video_height = 0;
  std::string encoder;
  std::string error;  // empty while all is well
};

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
  // In Wait mode a stop request (Ctrl-C, see signals.hpp) ends the wait: the frame is dropped and
  // false returned, so a stalled encoder never makes the program deaf to Ctrl-C.
  bool write_rgba(const uint8_t* rgba, int width, int height) override;
  // RealTime pacing: the frame is repeated or skipped so that video time follows `captured`.
  bool write_rgba_at(const uint8_t* rgba, int width, int height, Clock::time_point captured) override;

  // Writes every queued frame, closes the pipe and waits for ffmpeg, all within stop_limit (then
  // ffmpeg is ended and the frames not yet written are dropped). A GIF is made now from the
  // frames kept (two passes, each within convert_limit); when that fails they stay in
  // <name>.frames.mkv and error() says so. Returns true when ffmpeg finished
  // cleanly; otherwise error() says why, with ffmpeg's own last words. Safe to call more than once.
  // error() is final once stop() has returned ("ffmpeg stopped taking frames ..."); the caller
  // adds which recording stopped or failed.
  bool stop();

  RecorderStatus status() const;
  bool failed() const;
  std::string error() const;
  const std::filesystem::path& output() const { return options_.output; }
  VideoFormat format() const { return format_; }
  // GIF: where the frames are kept until the GIF is made (empty for the other formats).
  const std::filesystem::path& frames_file() const { return frames_file_; }
  pid_t ffmpeg_pid() const { return ffmpeg_->pid(); }  // for tests and diagnostics
  // The ffmpeg argument vector used (tests, logs).
  const std::vector<std::string>& command() const { return argv_; }

 private:
  using WriteResult = FfmpegPipe::WriteResult;
  struct WriterEnd {
    std::string problem;     // why the writer stopped early
    bool low_space = false;  // a clean stop before the disk is full
    bool abandoned = false;  // stop_limit ran out with frames still queued
    bool killed = false;     // ffmpeg did not end by itself
    int status = 0;          // ffmpeg's wait status
  };
  // The constructor's steps, in order.
  std::filesystem::path checked_output();
  void choose_encoder(const std::string& ffmpeg);
  void start_writer();
  void finish_gif();  // at stop(): makes the GIF, or says why not

  void finalise() noexcept override;
  bool enqueue(const uint8_t* rgba, int width, int height, Clock::time_point captured, bool paced);
  int take_slot(std::unique_lock<std::mutex>& lock, uint64_t repeats);  // -1: the frame is not taken
  // The writer thread: write_queued_frames, write_last_frame_again, end ffmpeg, finish_writer.
  void writer_loop();
  WriterEnd write_queued_frames();
  bool account_frame(int slot, bool whole, uint64_t video_frames, WriteResult result, int err,
                     WriterEnd& end);
  void write_last_frame_again();
  void finish_writer(const WriterEnd& end);
  std::string writer_error(const WriterEnd& end, const std::string& ffmpeg_said) const;
  WriteResult write_slot(int slot, int* err);
  bool past_stop_deadline();
  int end_ffmpeg(bool* killed);  // waits for ffmpeg by its deadline, then ends it

  RecorderOptions options_;
  VideoFormat format_ = VideoFormat::Mp4;
  std::filesystem::path frames_file_;  // GIF: the lossless frames, made into the GIF at stop()
  std::filesystem::path absolute_;     // the output, as ffmpeg is given it
  bool gif_done_ = false;              // finish_gif has run (stop() may be called again)
  std::optional<GifInfo> gif_;         // the GIF made, as read back from its file
  int video_w_ = 0;
  int video_h_ = 0;
  std::string encoder_;
  std::vector<std::string> argv_;
  std::optional<DiskWatch> disk_;
  std::unique_ptr<FfmpegPipe> ffmpeg_;

  mutable std::mutex mutex_;  // guards everything below, ring and pacer included
  std::condition_variable cv_;
  std::optional<FrameRing> ring_;
  VideoPacer pacer_;
  bool stopping_ = false;
  bool writer_done_ = false;  // pipe closed and ffmpeg reaped
  bool finished_ = false;
  bool clean_exit_ = false;
  bool failing_ = false;  // the writer hit an error; error_ is set once ffmpeg has been reaped
  std::optional<Clock::time_point> stop_deadline_;
  std::string error_;
  uint64_t submitted_ = 0;
  uint64_t written_ = 0;
  uint64_t dropped_ = 0;
  uint64_t skipped_ = 0;
  uint64_t video_frames_ = 0;
  uint64_t tail_repeats_ = 0;  // RealTime with a start: the last frame again, up to stop()
  int last_slot_ = -1;         // the slot written last (held intact once stopping)

  uint64_t png_sequence_bytes() const;
  mutable std::mutex png_bytes_mutex_;  // guards the two below, a running sum of the frames' sizes
  mutable uint64_t png_files_done_ = 0;
  mutable uint64_t png_bytes_done_ = 0;

  std::mutex stop_mutex_;  // one stop() at a time (the destructor and a signal path may race)
  std::thread writer_;
};

}  // namespace physarum::app
