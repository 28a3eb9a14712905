#include "video/gif_pass.hpp"

#include <vector>

#include "video/process.hpp"

namespace physarum::app {

std::string make_gif(const std::string& ffmpeg, const std::filesystem::path& frames,
                     const std::filesystem::path& gif, std::chrono::milliseconds limit) {
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
  std::string problem =
      run("the palette pass", {"-i", "file:" + frames.string(), "-vf", "palettegen=stats_mode=full",
                               "-frames:v", "1", "-f", "image2", "file:" + palette});
  if (problem.empty()) {
    problem = run("the GIF pass", {"-i", "file:" + frames.string(), "-i", "file:" + palette, "-lavfi",
                                   "[0:v][1:v]paletteuse=dither=sierra2_4a", "-loop", "0", "-f", "gif",
                                   "file:" + gif.string()});
  }
  std::error_code ec;
  std::filesystem::remove(palette, ec);
  return problem;
}

}  // namespace physarum::app
