// A GIF from a recording's kept frames: its palette needs every frame, so it is made after the
// recording, in two passes of ffmpeg over the frames.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "video/video_quality.hpp"

namespace physarum::app {

// The frames (`frame_width` wide) are first brought to the GIF's rate and width (gif_prefilter; the
// recorder keeps them so already, and then it passes them through);
// palettegen picks the colours the whole video needs, then paletteuse maps every frame to them
// (with q's dither), into a GIF that loops for ever. Each pass gets `limit`. Returns empty when the
// GIF was made, else why not (with ffmpeg's last words). The frames file is left as it is.
std::string make_gif(const std::string& ffmpeg, const std::filesystem::path& frames,
                     const std::filesystem::path& gif, std::chrono::milliseconds limit, const VideoQuality& q,
                     int frame_width);

// The two passes' arguments after ffmpeg's own (-hide_banner ... -y), for tests and logs.
std::vector<std::string> gif_palette_args(const std::filesystem::path& frames,
                                          const std::filesystem::path& palette, const VideoQuality& q,
                                          int frame_width);
std::vector<std::string> gif_encode_args(const std::filesystem::path& frames,
                                         const std::filesystem::path& palette,
                                         const std::filesystem::path& gif, const VideoQuality& q,
                                         int frame_width);

}  // namespace physarum::app
