#include "video/encoder_probe.hpp"

#include <cstdint>
#include <map>
#include <mutex>

#include "sim/params.hpp"
#include "system/process.hpp"
#include "video/frame_ring.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {

namespace {

constexpr const char* kNoFfmpeg = "ffmpeg not found on PATH; install it with apt-get install ffmpeg";

// ffmpeg's own limit on a raw frame (av_image_check_size): (w + 128) * (h + 128) < INT_MAX / 8.
bool ffmpeg_takes_frame(int w, int h) {
  return (static_cast<int64_t>(w) + 128) * (static_cast<int64_t>(h) + 128) < (int64_t{1} << 31) / 8;
}

constexpr int kNvencMaxSide = 4096;  // H.264 NVENC on every NVIDIA generation so far

}  // namespace

std::string resolve_ffmpeg(const std::string& program) {
  auto path = find_on_path(program);
  if (!path) {
    if (program == "ffmpeg") throw Error(kNoFfmpeg);
    throw Error(program + " not found (looked on PATH); install ffmpeg with apt-get install ffmpeg");
  }
  return *path;
}

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

std::string encoder_for_format(VideoFormat format, int width, int height) {
  if (format == VideoFormat::Mp4) return encoder_for_size(width, height);
  if (std::string why = video_size_problem(width, height, "libx264"); !why.empty()) throw Error(why);
  return "auto";
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
    for (const std::string& a : h264_quality_args("h264_nvenc", RingPolicy::Wait, {})) trial.push_back(a);
    for (const char* a : {"-f", "null", "-"}) trial.emplace_back(a);
    if (wait_status_ok(run_capture(trial, true).wait_status)) chosen = "h264_nvenc";
  }
  cache[path] = chosen;
  return chosen;
}

}  // namespace physarum::app
