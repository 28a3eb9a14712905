// The options that set how a rendered video weighs: --crf and --video-preset (MP4, WebM), and a
// GIF's --gif-width, --gif-fps, --gif-colors and --gif-dither. Their ranges per codec are checked
// by quality_problem (video/video_quality.hpp) once the outputs are known.
#pragma once

#include <CLI/CLI.hpp>

#include "video/video_quality.hpp"

namespace physarum::app {

void add_video_quality_options(CLI::App& cmd, VideoQuality& q);

}  // namespace physarum::app
