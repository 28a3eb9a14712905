// What the video tests share: whether ffmpeg and ffprobe are here, and ffprobe's view of a file.
#pragma once

#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "system/process.hpp"
#include "test_support.hpp"

namespace physarum::app {

inline bool have_ffmpeg() {
  test::expect_labelled_end_to_end("runs ffmpeg");
  return find_on_path("ffmpeg") && find_on_path("ffprobe");
}

// ffprobe's key=value view of the first video stream and the format: codec_name, width, height,
// nb_read_frames, duration, comment, and ok ("yes" when ffprobe succeeded). The name is passed as
// file:ABSOLUTE so no name is misread as an option or a protocol.
inline std::map<std::string, std::string> probe(const std::filesystem::path& file) {
  const ProcessOutput r =
      run_capture({"ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                   "stream=codec_name,width,height,nb_read_frames:format=duration:format_tags=comment", "-of",
                   "default=noprint_wrappers=1", "file:" + std::filesystem::absolute(file).string()});
  std::map<std::string, std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    if (key == "TAG:comment") key = "comment";
    out[key] = line.substr(eq + 1);
  }
  out["ok"] = wait_status_ok(r.wait_status) ? "yes" : "no";
  return out;
}

}  // namespace physarum::app
