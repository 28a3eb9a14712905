// A GIF from a recording's kept frames: its palette needs every frame, so it is made after the
// recording, in two passes of ffmpeg over the frames.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

namespace physarum::app {

// palettegen picks the 256 colours the whole video needs, then paletteuse maps every frame to them
// (dithered), into a GIF that loops for ever. Each pass gets `limit`. Returns empty when the GIF
// was made, else why not (with ffmpeg's last words). The frames file is left as it is.
std::string make_gif(const std::string& ffmpeg, const std::filesystem::path& frames,
                     const std::filesystem::path& gif, std::chrono::milliseconds limit);

}  // namespace physarum::app
