// Recording from the window: the field alone (drawn into an offscreen framebuffer at the field's
// resolution, the default) or the whole window with the panel, read back asynchronously and fed
// to the recorder in Drop mode, so the frame loop never waits for the encoder. A failure (ffmpeg
// died, disk full) ends the recording with a message; the program keeps running.
// The timing (video_pacer.hpp) is "smooth" by default: each window frame at most once, at most
// fps a second, so a window slower than the video's rate (the CPU backend draws a few frames a
// second) records every picture once and plays faster than it ran, instead of a slideshow of
// repeated frames; a faster one keeps real time. "Real time" repeats frames to keep the clock,
// "every frame" keeps each window frame whatever the rate. What the video holds is said while it
// records and when it ends (video_summary).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "export_pipeline/output_formats.hpp"
#include "render/gl_objects.hpp"
#include "video/async_readback.hpp"
#include "video/recorder.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

enum class RecordSource { Field, Window };

struct RecordingStatus {
  bool active = false;
  std::filesystem::path file;
  RecorderStatus rec;
  uint64_t dropped = 0;  // in the readback ring plus in the recorder's ring
  Pacing pacing = Pacing::Smooth;
  int fps = 60;
};

// How much faster the video plays than the recording ran: the running it covers (each frame's time
// on screen included) over the video's length; 1 in real time.
double video_speed(const RecorderStatus& s, Pacing pacing);

// What a video holds, in words: "129 frames, 2.2 s at 60 fps, of 53.0 s of running, each a
// distinct picture: plays 24x faster than it ran", or with real time "3183 frames, ..., 129
// distinct pictures (each shown 24.7 times on average): plays in real time".
std::string video_summary(const RecorderStatus& s, int fps, Pacing pacing);

// A real-time video that is mostly repeats (a slideshow): how many pictures a second the window
// drew and the timing that records each once. Empty otherwise.
std::string slideshow_note(const RecorderStatus& s, int fps, Pacing pacing);

// The timing in a few words, as the start of a recording says it.
std::string pacing_words(Pacing pacing, int fps);

// What the panel's Record section chose.
struct RecordingSettings {
  std::string file;  // as typed; empty: physarum-<date>-<time> in the current directory
  RecordSource source = RecordSource::Field;
  int fps = 60;
  Pacing pacing = Pacing::Smooth;
  VideoFormat format = VideoFormat::Mp4;
};

// A recording started, stopped or failed: what to tell the user.
struct RecordingNote {
  std::string message;  // empty: nothing happened
  bool error = false;
};

class WindowRecording {
 public:
  WindowRecording() = default;
  ~WindowRecording();
  WindowRecording(const WindowRecording&) = delete;
  WindowRecording& operator=(const WindowRecording&) = delete;

  // Starts recording to `file`, in the format its name asks for (video_format_of; MP4 when none).
  // A transparent background (display.background) keeps its alpha in WebM and PNG frames.
  // Throws Error (no ffmpeg, bad directory); nothing changes then.
  void start(const std::filesystem::path& file, RecordSource source, int fps, Pacing pacing,
             const WindowCore& core, int fb_w, int fb_h);
  // After the field is drawn to the window: the Field source draws it again, alone, offscreen.
  void capture_field(WindowCore& core);
  // After the panel is drawn: the Window source reads the window's back buffer.
  void capture_window(int fb_w, int fb_h);
  // Hands finished reads to the recorder; ends the recording when it failed. Returns an error
  // message once, when the recording has just failed; else empty.
  std::string poll();
  // Finishes the file. Returns a message for the user (written, or why it failed).
  std::string stop();
  // F9 and the Record button: stops the running recording, or starts one with `settings` in a file
  // that does not exist yet (a typed name is kept for the next F9 too: -2, -3...). Never throws.
  RecordingNote toggle(const RecordingSettings& settings, const WindowCore& core, int fb_w, int fb_h);
  // When the window closes: stops a running recording; an empty note when none ran.
  RecordingNote finish();

  bool active() const { return recorder_ != nullptr; }
  // What a finished PNG sequence says: its frames, their size, its folder, the real-time rate.
  std::string png_sequence_note() const;
  RecordSource source() const { return source_; }
  RecordingStatus status() const;
  const std::string& last_error() const { return last_error_; }

 private:
  std::unique_ptr<Recorder> recorder_;
  AsyncReadback readback_;
  RecordSource source_ = RecordSource::Field;
  Pacing pacing_ = Pacing::Smooth;
  int fps_ = 60;
  render::Texture color_;
  render::Framebuffer fbo_;
  int w_ = 0, h_ = 0;              // the recording's frame size
  int color_w_ = 0, color_h_ = 0;  // color_'s size
  uint64_t dropped_before_ = 0;    // readback drops before this recording
  std::string last_error_;
  RecorderStatus final_status_;  // of the last recording, shown after it ended
  std::filesystem::path last_file_;
};

// What the window writes a picture of `file`'s name as: a format of the one table that an 8-bit
// picture makes (export_pipeline/output_formats.hpp). Throws Error naming the file and the
// extensions the window takes.
const OutputFormat& picture_format_of(const std::filesystem::path& file);
// Writes `rgba` (8-bit RGBA, rows top to bottom) as `file`'s format asks (picture_format_of).
void write_picture(const std::filesystem::path& file, const std::vector<uint8_t>& rgba, Size size);

// F12: the field alone, one pixel per cell (a volume: its picture at the size the window shows
// it, picture_size), drawn offscreen with this frame's display (a transparent background keeps its
// alpha), after core.render(). Returns the image's size; throws Error when it cannot be written.
Size save_picture(const std::string& file, WindowCore& core, int fb_w, int fb_h);

// `path` when nothing is there, else the first free of path-2.ext, path-3.ext, ... (up to 999):
// a new recording or screenshot never overwrites an earlier one.
std::filesystem::path unused_path(const std::filesystem::path& path);

// "physarum-20250101-120000.png" in the current directory, through unused_path.
std::string timestamped_name(const char* extension);

// The file a recording of format `f` goes to, from the name typed in the panel: empty gives
// physarum-<date>-<time> in the current folder; a typed name gets the format's extension (one it
// has is replaced); a PNG sequence is "<name>/%05d.png" in a folder not there yet, or a typed
// frame pattern as it is. Never an existing file or folder (unused_path).
std::filesystem::path recording_name(const std::string& typed, VideoFormat f);

// The folder of a frame pattern, as the user reads it ("take/" for take/%05d.png).
std::string recording_folder(const std::filesystem::path& pattern);

// The recording's comment tag: preset, seed, size, agents and the options to make it again.
std::string describe_for_metadata(const WindowCore& core);

}  // namespace physarum::app
