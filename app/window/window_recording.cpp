#include "window/window_recording.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "sim/byte_size.hpp"
#include "sim/png_writer.hpp"
#include "sim/text.hpp"
#include "system/process.hpp"

namespace physarum::app {

WindowRecording::~WindowRecording() {
  if (recorder_) stop();
}

void WindowRecording::start(const std::filesystem::path& file, RecordSource source, int fps, Pacing pacing,
                            const WindowCore& core, int fb_w, int fb_h) {
  if (recorder_) stop();
  // A PNG sequence is frames to edit, not a video to play: real-time pacing would write a file
  // for every 1/fps of the wall clock, repeating each window frame many times on a slow backend.
  // It keeps each window frame once; stop() says the rate that plays it in real time.
  if (video_format_of(file) == VideoFormat::PngSequence) pacing = Pacing::EveryFrame;
  int w = fb_w, h = fb_h;
  if (source == RecordSource::Field) {
    const Size f = core.picture_size(fb_w, fb_h);
    w = f.width, h = f.height;
  }
  RecorderOptions ro;
  ro.output = file;
  ro.alpha = core.preset.display.background == Background::Transparent;
  ro.width = w;
  ro.height = h;
  ro.fps = fps;
  ro.policy = RingPolicy::Drop;
  ro.pacing = pacing;
  ro.started = FrameSink::Clock::now();
  ro.stop_limit = std::chrono::seconds(10);  // F9 and closing the window wait at most this long
  ro.bottom_up = true;                       // glReadPixels rows as they are
  ro.comment = describe_for_metadata(core);
  auto rec = std::make_unique<Recorder>(ro);  // throws; nothing has changed yet
  if (source == RecordSource::Field && (w != color_w_ || h != color_h_ || !fbo_)) {
    color_ = render::make_texture_2d(w, h, GL_RGBA8);
    fbo_ = render::make_framebuffer();
    glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0);
    if (glCheckNamedFramebufferStatus(fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      throw Error("the recording framebuffer is incomplete");
    }
    color_w_ = w, color_h_ = h;
  }
  w_ = w, h_ = h;
  readback_.discard();
  dropped_before_ = readback_.dropped();
  source_ = source;
  pacing_ = pacing;
  fps_ = fps;
  last_error_.clear();
  last_file_ = file;
  recorder_ = std::move(rec);
}

void WindowRecording::capture_field(WindowCore& core) {
  if (!recorder_ || source_ != RecordSource::Field) return;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
  core.draw_field(render::View{}, w_, h_);
  readback_.start(w_, h_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void WindowRecording::capture_window(int fb_w, int fb_h) {
  if (!recorder_ || source_ != RecordSource::Window) return;
  if (fb_w == w_ && fb_h == h_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    readback_.start(w_, h_);
    return;
  }
  // The window changed size since the recording started (resized, fullscreen, a window manager's
  // late fit): every frame of a video has one size, so the window is scaled to the recording's.
  if (!fbo_ || color_w_ != w_ || color_h_ != h_) {
    color_ = render::make_texture_2d(w_, h_, GL_RGBA8);
    fbo_ = render::make_framebuffer();
    glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0);
    color_w_ = w_, color_h_ = h_;
  }
  glNamedFramebufferReadBuffer(0, GL_BACK);
  glBlitNamedFramebuffer(0, fbo_.get(), 0, 0, fb_w, fb_h, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_.get());
  glNamedFramebufferReadBuffer(fbo_.get(), GL_COLOR_ATTACHMENT0);
  readback_.start(w_, h_);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}

Size save_picture(const std::string& file, WindowCore& core, int fb_w, int fb_h) {
  const Size s = core.picture_size(fb_w, fb_h);
  render::Texture color = render::make_texture_2d(s.width, s.height, GL_RGBA8);
  render::Framebuffer fbo = render::make_framebuffer();
  glNamedFramebufferTexture(fbo.get(), GL_COLOR_ATTACHMENT0, color.get(), 0);
  if (glCheckNamedFramebufferStatus(fbo.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw Error("the screenshot framebuffer is incomplete");
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  core.draw_field(render::View{}, s.width, s.height);
  std::vector<uint8_t> rgba;
  try {
    rgba = render::read_framebuffer_rgba(s.width, s.height);
  } catch (...) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    throw;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  write_picture(file, rgba, s);
  return s;
}

const OutputFormat& picture_format_of(const std::filesystem::path& file) {
  if (const OutputFormat* f = output_format_for(file, kWindowOffer)) return *f;
  throw Error(file.string() + ": the window writes its pictures as " + output_extensions(kWindowOffer) +
              ", not '" + lowercase_extension(file) + "'");
}

void write_picture(const std::filesystem::path& file, const std::vector<uint8_t>& rgba, Size size) {
  const Picture picture{.size = size, .rgba8 = &rgba};
  picture_format_of(file).write(file, {.picture = &picture});
}

std::string WindowRecording::poll() {
  if (!recorder_) return {};
  readback_.deliver(*recorder_);
  if (!recorder_->failed()) return {};
  // stop() first: the reason is whole (ffmpeg's own words) once the recorder has stopped.
  stop();
  last_error_ = "recording " + last_file_.string() + " stopped: " + final_status_.error;
  return last_error_;
}

std::string WindowRecording::stop() {
  if (!recorder_) return {};
  readback_.deliver(*recorder_, true);
  const bool ok = recorder_->stop();
  final_status_ = recorder_->status();
  final_status_.dropped += readback_.dropped() - dropped_before_;
  recorder_.reset();
  if (!ok) {
    last_error_ = "recording " + last_file_.string() + " failed: " + final_status_.error;
    return last_error_;
  }
  if (video_format_of(last_file_) == VideoFormat::PngSequence) return png_sequence_note();
  std::string msg = "recorded " + last_file_.string() + " (" + format_bytes(final_status_.file_bytes) +
                    "): " + video_summary(final_status_, fps_, pacing_);
  if (final_status_.dropped > 0)
    msg += "; " + std::to_string(final_status_.dropped) + " dropped (the encoder fell behind)";
  if (const std::string note = slideshow_note(final_status_, fps_, pacing_); !note.empty())
    msg += "; " + note;
  return msg;
}

double video_speed(const RecorderStatus& s, Pacing pacing) {
  if (!(s.duration_s > 0) || !(s.wall_s > 0)) return 1.0;
  // Without the real-time clock the running covered ends at the last picture's capture: one more
  // interval between pictures is the time it was on screen.
  double ran = s.wall_s;
  if (pacing != Pacing::RealTime && s.written > 1)
    ran *= static_cast<double>(s.written) / static_cast<double>(s.written - 1);
  return ran / s.duration_s;
}

std::string video_summary(const RecorderStatus& s, int fps, Pacing pacing) {
  if (s.video_frames == 0) return "no frames yet";
  const double speed = video_speed(s, pacing);
  char buf[256];
  int n =
      std::snprintf(buf, sizeof buf, "%llu frames, %.1f s at %d fps, of %.1f s of running",
                    static_cast<unsigned long long>(s.video_frames), s.duration_s, fps, s.duration_s * speed);
  const auto add = [&](const char* fmt, auto... args) {
    if (n >= 0 && static_cast<size_t>(n) < sizeof buf)
      n += std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n), fmt, args...);
  };
  if (s.written >= s.video_frames) {
    add(", each a distinct picture");
  } else {
    add(", %llu distinct pictures (each shown %.1f times on average)",
        static_cast<unsigned long long>(s.written),
        static_cast<double>(s.video_frames) / static_cast<double>(std::max<uint64_t>(s.written, 1)));
  }
  if (std::abs(speed - 1.0) < 0.05) {
    add(": plays in real time");
  } else if (speed > 1.0) {
    add(": plays %.3gx faster than it ran", speed);
  } else {
    add(": plays %.3gx slower than it ran", 1.0 / speed);
  }
  return buf;
}

std::string slideshow_note(const RecorderStatus& s, int fps, Pacing pacing) {
  if (pacing != Pacing::RealTime || s.written == 0 || s.video_frames < 2 * s.written || !(s.wall_s > 0))
    return {};
  char buf[160];
  std::snprintf(
      buf, sizeof buf,
      "the window drew %.3g pictures a second, under the video's %d: timing \"smooth\" records each once",
      static_cast<double>(s.written) / s.wall_s, fps);
  return buf;
}

std::string pacing_words(Pacing pacing, int fps) {
  switch (pacing) {
    case Pacing::Smooth: return "smooth: each picture once, at most " + std::to_string(fps) + " a second";
    case Pacing::EveryFrame: return "every frame: each picture once";
    case Pacing::RealTime: return "real time: pictures repeated or skipped to keep the clock";
  }
  return {};
}

std::string WindowRecording::png_sequence_note() const {
  const RecorderStatus& s = final_status_;
  char buf[768];
  int n = std::snprintf(buf, sizeof buf, "recorded %llu PNG frames (%s) into %s",
                        static_cast<unsigned long long>(s.video_frames), format_bytes(s.file_bytes).c_str(),
                        recording_folder(last_file_).c_str());
  if (s.wall_s > 0 && s.video_frames > 1 && n > 0 && static_cast<size_t>(n) < sizeof buf) {
    n += std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n),
                       "; %.1f s of running: play at %.3g fps for real time", s.wall_s,
                       static_cast<double>(s.video_frames - 1) / s.wall_s);
  }
  if (s.dropped > 0 && n > 0 && static_cast<size_t>(n) < sizeof buf) {
    std::snprintf(buf + n, sizeof buf - static_cast<size_t>(n), ", %llu dropped",
                  static_cast<unsigned long long>(s.dropped));
  }
  return buf;
}

std::string recording_folder(const std::filesystem::path& pattern) {
  const std::filesystem::path folder = pattern.parent_path();
  return (folder.empty() ? std::string(".") : folder.string()) + "/";
}

RecordingNote WindowRecording::toggle(const RecordingSettings& settings, const WindowCore& core, int fb_w,
                                      int fb_h) {
  if (active()) return finish();
  std::string file;
  try {
    file = recording_name(settings.file, settings.format).string();
    start(file, settings.source, settings.fps, settings.pacing, core, fb_w, fb_h);
  } catch (const std::exception& e) {
    return {std::string("cannot record: ") + e.what(), true};
  }
  if (video_format_of(file) == VideoFormat::PngSequence)
    return {"recording PNG frames into " + recording_folder(file), false};
  return {"recording to " + file + " (" + pacing_words(settings.pacing, settings.fps) + ")", false};
}

RecordingNote WindowRecording::finish() {
  if (!active()) return {};
  std::string msg = stop();
  return {std::move(msg), !final_status_.error.empty()};
}

RecordingStatus WindowRecording::status() const {
  RecordingStatus s;
  s.active = recorder_ != nullptr;
  s.file = last_file_;
  s.pacing = pacing_;
  s.fps = fps_;
  if (recorder_) {
    s.rec = recorder_->status();
    s.dropped = s.rec.dropped + (readback_.dropped() - dropped_before_);
  } else {
    s.rec = final_status_;
    s.dropped = final_status_.dropped;
  }
  return s;
}

std::filesystem::path unused_path(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return path;
  const std::string stem = path.stem().string(), ext = path.extension().string();
  for (int i = 2; i < 1000; ++i) {
    std::filesystem::path candidate = path;
    candidate.replace_filename(stem + "-" + std::to_string(i) + ext);
    if (!std::filesystem::exists(candidate, ec)) return candidate;
  }
  return path;
}

std::string timestamped_name(const char* extension) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  return unused_path(std::string("physarum-") + stamp + extension).string();
}

std::filesystem::path recording_name(const std::string& typed, VideoFormat f) {
  const std::string ext(format_extension(f));
  if (f == VideoFormat::PngSequence) {
    if (is_frame_pattern(typed)) return typed;
    std::filesystem::path folder = typed.empty() ? timestamped_name("") : typed;
    if (!typed.empty()) folder = unused_path(folder.replace_extension());
    return folder / "%05d.png";
  }
  if (typed.empty()) return timestamped_name(ext.c_str());
  std::filesystem::path file = typed;
  if (is_frame_pattern(file)) file = file.parent_path().empty() ? "physarum" : file.parent_path();
  return unused_path(file.replace_extension(ext));
}

std::string describe_for_metadata(const WindowCore& core) {
  const Preset& p = core.preset;
  const std::string& file = core.preset_file;
  std::string c =
      "physarum " PHYSARUM_VERSION " (window); preset " +
      (file.empty() ? std::string("built-in defaults") : std::filesystem::path(file).stem().string()) +
      "; seed " + std::to_string(p.run.seed) + "; size " + format_size(p.run.size) + "; agents " +
      std::to_string(p.run.agents) + "; start with: physarum";
  if (!file.empty()) c += " --preset " + shell_quote(file);
  c += " --size " + format_size(p.run.size) + " --agents " + std::to_string(p.run.agents) + " --seed " +
       std::to_string(p.run.seed);
  return c;
}

}  // namespace physarum::app
