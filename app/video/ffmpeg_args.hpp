// The ffmpeg command line of a recording: raw RGBA frames on stdin, then codec, container and
// file per format.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "video/frame_ring.hpp"
#include "video/video_format.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {

struct EncodeSettings {
  VideoFormat format = VideoFormat::Mp4;
  std::string encoder;  // MP4: libx264 or h264_nvenc
  int width = 0;        // of the frames on stdin, as recorded
  int height = 0;
  int fps = 60;
  bool alpha = false;  // WebM and PNG keep it
  // Drop: the window's recording, where the encoder must keep up; Wait: headless.
  RingPolicy policy = RingPolicy::Drop;
  std::string comment;                // metadata comment, when the container takes one
  std::filesystem::path output;       // absolute
  std::filesystem::path frames_file;  // GIF: where its lossless frames go first
  VideoQuality quality;               // checked already (quality_problem)
};

std::vector<std::string> ffmpeg_recording_argv(const std::string& ffmpeg, const EncodeSettings& s);

}  // namespace physarum::app
