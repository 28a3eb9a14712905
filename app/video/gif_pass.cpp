#include "video/gif_pass.hpp"

#include <vector>

#include "system/process.hpp"

namespace physarum::app {

std::vector<std::string> gif_palette_args(const std::filesystem::path& frames,
                                          const std::filesystem::path& palette, const VideoQuality& q,
                                          int frame_width) {
  return {"-i",
          "file:" + frames.string(),
          "-vf",
          gif_prefilter(q, frame_width) +
              ",palettegen=stats_mode=full:max_colors=" + std::to_string(q.gif_colors),
          "-frames:v",
          "1",
          "-f",
          "image2",
          "file:" + palette.string()};
}

std::vector<std::string> gif_encode_args(const std::filesystem::path& frames,
                                         const std::filesystem::path& palette,
                                         const std::filesystem::path& gif, const VideoQuality& q,
                                         int frame_width) {
  // -r on the output as well: the muxer writes each frame's delay from its time stamp, and the
  // frames come out of the fps filter exactly 1/gif_fps apart.
  return {"-i",
          "file:" + frames.string(),
          "-i",
          "file:" + palette.string(),
          "-lavfi",
          "[0:v]" + gif_prefilter(q, frame_width) + "[v];[v][1:v]paletteuse=dither=" + q.gif_dither,
          "-r",
          std::to_string(q.gif_fps),
          "-loop",
          "0",
          "-f",
          "gif",
          "file:" + gif.string()};
}

std::string make_gif(const std::string& ffmpeg, const std::filesystem::path& frames,
                     const std::filesystem::path& gif, std::chrono::milliseconds limit, const VideoQuality& q,
                     int frame_width) {
  const std::string palette = frames.string() + ".palette.png";
  const std::vector<std::string> quiet = {ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y"};
  auto run = [&](const char* what, std::vector<std::string> args) -> std::string {
    std::vector<std::string> argv = quiet;
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessOutput r = run_capture(argv, true, limit);
    if (r.timed_out) return std::string(what) + " took longer than " + seconds_text(limit);
    if (wait_status_ok(r.wait_status)) return {};
    std::string out = r.out;
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return std::string(what) + ": ffmpeg " + describe_wait_status(r.wait_status) +
           (out.empty() ? "" : "; ffmpeg said: " + out.substr(out.size() > 400 ? out.size() - 400 : 0));
  };
  std::string problem = run("the palette pass", gif_palette_args(frames, palette, q, frame_width));
  if (problem.empty()) problem = run("the GIF pass", gif_encode_args(frames, palette, gif, q, frame_width));
  std::error_code ec;
  std::filesystem::remove(palette, ec);
  return problem;
}

}  // namespace physarum::app
