#include "video/video_quality.hpp"

#include <algorithm>
#include <cmath>

namespace physarum::app {

namespace {

constexpr std::string_view kX264Presets[] = {"ultrafast", "superfast", "veryfast", "faster",  "fast",
                                             "medium",    "slow",      "slower",   "veryslow"};
constexpr std::string_view kNvencPresets[] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7"};
// VP9's deadlines and the cpu-used each takes (libvpx: realtime 0..8, good and best 0..5).
struct Vp9Deadline {
  std::string_view name;
  int max_cpu_used;
};
constexpr Vp9Deadline kVp9Deadlines[] = {{"realtime", 8}, {"good", 5}, {"best", 5}};

template <size_t N>
bool listed(const std::string_view (&list)[N], const std::string& v) {
  return std::find(std::begin(list), std::end(list), v) != std::end(list);
}
template <size_t N>
std::string listing(const std::string_view (&list)[N]) {
  std::string s;
  for (std::string_view v : list) s += (s.empty() ? "" : ", ") + std::string(v);
  return s;
}

// "good:2" as deadline and cpu-used; nothing when it is not one of them.
std::optional<std::pair<std::string, int>> parse_vp9_speed(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const auto d = std::find_if(std::begin(kVp9Deadlines), std::end(kVp9Deadlines),
                              [&](const Vp9Deadline& v) { return v.name == name; });
  if (d == std::end(kVp9Deadlines)) return std::nullopt;
  if (colon == std::string::npos) return std::pair{name, name == "realtime" ? 8 : 2};
  const std::string n = text.substr(colon + 1);
  if (n.empty() || n.size() > 1 || n[0] < '0' || n[0] > '9') return std::nullopt;
  const int cpu = n[0] - '0';
  if (cpu > d->max_cpu_used) return std::nullopt;
  return std::pair{name, cpu};
}

std::string speed_problem(const VideoQuality& q, VideoFormat format, const std::string& encoder) {
  const std::string what = "--video-preset " + q.speed + ": ";
  if (format == VideoFormat::Mp4 && encoder == "h264_nvenc") {
    if (!listed(kNvencPresets, q.speed)) return what + "h264_nvenc takes " + listing(kNvencPresets);
  } else if (format == VideoFormat::Mp4) {
    if (!listed(kX264Presets, q.speed)) return what + "libx264 takes " + listing(kX264Presets);
  } else if (format == VideoFormat::Webm) {
    if (!parse_vp9_speed(q.speed)) {
      return what +
             "VP9 takes realtime, good or best, optionally with :cpu-used (realtime:0..8, good:0..5, "
             "best:0..5), such as good:2";
    }
  } else {
    return what + "only MP4 and WebM have an encoder speed";
  }
  return {};
}

std::string gif_problem(const VideoQuality& q) {
  if (q.gif_width != 0 && (q.gif_width < 16 || q.gif_width > 4096))
    return "--gif-width " + std::to_string(q.gif_width) + ": must be 16 to 4096 pixels";
  if (std::find(std::begin(kGifFpsChoices), std::end(kGifFpsChoices), q.gif_fps) ==
      std::end(kGifFpsChoices)) {
    std::string rates;
    for (int r : kGifFpsChoices) rates += (rates.empty() ? "" : ", ") + std::to_string(r);
    return "--gif-fps " + std::to_string(q.gif_fps) +
           ": a GIF's frame delays are whole hundredths of a second, so only " + rates + " fps play evenly";
  }
  if (q.gif_colors < 2 || q.gif_colors > kMaxGifColors)
    return "--gif-colors " + std::to_string(q.gif_colors) + ": must be 2 to 256";
  if (!listed(kGifDithers, q.gif_dither))
    return "--gif-dither " + q.gif_dither + ": must be one of " + listing(kGifDithers);
  return {};
}

}  // namespace

std::string quality_problem(const VideoQuality& q, VideoFormat format, const std::string& encoder) {
  if (q.crf) {
    const int max = format == VideoFormat::Webm ? 63 : 51;
    const std::string codec = format == VideoFormat::Webm ? "VP9" : encoder;
    if (format != VideoFormat::Mp4 && format != VideoFormat::Webm)
      return "--crf " + std::to_string(*q.crf) + ": only MP4 and WebM have a quality setting";
    if (*q.crf < 0 || *q.crf > max) {
      return "--crf " + std::to_string(*q.crf) + ": " + codec + " takes 0 (best, largest) to " +
             std::to_string(max);
    }
  }
  if (!q.speed.empty()) {
    if (std::string why = speed_problem(q, format, encoder); !why.empty()) return why;
  }
  return format == VideoFormat::Gif ? gif_problem(q) : std::string();
}

std::vector<std::string> h264_quality_args(const std::string& encoder, RingPolicy policy,
                                           const VideoQuality& q) {
  if (encoder == "h264_nvenc") {
    return {"-c:v",     "h264_nvenc",
            "-pix_fmt", "yuv420p",
            "-preset",  q.speed.empty() ? "p5" : q.speed,
            "-rc",      "vbr",
            "-cq",      std::to_string(q.crf.value_or(19)),
            "-b:v",     "0"};
  }
  const std::string speed = !q.speed.empty() ? q.speed : policy == RingPolicy::Drop ? "veryfast" : "medium";
  return {"-c:v",    "libx264", "-pix_fmt", "yuv420p", "-crf", std::to_string(q.crf.value_or(18)),
          "-preset", speed};
}

std::vector<std::string> vp9_quality_args(bool alpha, RingPolicy policy, const VideoQuality& q) {
  const bool live = policy == RingPolicy::Drop;
  std::pair<std::string, int> speed = {live ? "realtime" : "good", live ? 8 : 2};
  if (!q.speed.empty()) speed = parse_vp9_speed(q.speed).value_or(speed);
  return {"-c:v",      "libvpx-vp9",
          "-pix_fmt",  alpha ? "yuva420p" : "yuv420p",
          "-crf",      std::to_string(q.crf.value_or(31)),
          "-b:v",      "0",
          "-row-mt",   "1",
          "-deadline", speed.first,
          "-cpu-used", std::to_string(speed.second)};
}

int gif_width_for(const VideoQuality& q, int frame_width) {
  return std::min(q.gif_width > 0 ? q.gif_width : kDefaultGifWidth, frame_width);
}

int gif_height_for(const VideoQuality& q, int frame_width, int frame_height) {
  const int w = gif_width_for(q, frame_width);
  if (w == frame_width) return frame_height;
  return std::max(1, static_cast<int>(std::lround(static_cast<double>(frame_height) * w / frame_width)));
}

std::string gif_prefilter(const VideoQuality& q, int frame_width) {
  std::string f = "fps=" + std::to_string(q.gif_fps);
  const int w = gif_width_for(q, frame_width);
  if (w < frame_width) f += ",scale=" + std::to_string(w) + ":-1:flags=lanczos";
  return f;
}

uint64_t gif_frame_count(uint64_t frames, int fps, const VideoQuality& q) {
  if (frames == 0 || fps <= 0) return 0;
  // ffmpeg's fps filter keeps the length: a frame for every 1/gif_fps of the video's time.
  return std::max<uint64_t>(
      1, static_cast<uint64_t>(std::llround(static_cast<double>(frames) * q.gif_fps / fps)));
}

GifEstimate estimate_gif(const VideoQuality& q, int frame_width, int frame_height, uint64_t frames, int fps) {
  GifEstimate e;
  e.width = gif_width_for(q, frame_width);
  e.height = gif_height_for(q, frame_width, frame_height);
  e.frames = gif_frame_count(frames, fps, q);
  const double pixels = static_cast<double>(e.width) * e.height * static_cast<double>(e.frames);
  const double colours =
      std::pow(static_cast<double>(std::max(2, q.gif_colors)) / kMaxGifColors, kGifColorsExponent);
  const bool diffusion = q.gif_dither != "none" && q.gif_dither != "bayer";
  const double dither = diffusion ? kGifDiffusionFactor : 1.0;
  e.typical_bytes = static_cast<uint64_t>(pixels * kGifBytesPerPixel * colours * dither);
  e.bound_bytes = static_cast<uint64_t>(pixels * 1.5) + 1024 * (e.frames + 1);
  return e;
}

}  // namespace physarum::app
