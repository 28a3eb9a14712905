// Which encoder a recording can use here, and whether ffmpeg can take its size at all: asked once,
// before any frame, so an impossible video fails at once.
#pragma once

#include <string>
#include <vector>

#include "video/frame_ring.hpp"
#include "video/video_format.hpp"

namespace physarum::app {

// The full path of ffmpeg (`program`, looked up on PATH). Throws Error naming it and saying how to
// install it when it is not there.
std::string resolve_ffmpeg(const std::string& program);

// Why ffmpeg cannot encode a width x height video with this encoder (sizes after rounding down to
// even), or empty when it can: ffmpeg takes no raw frame with (w + 128) * (h + 128) >= 2^31 / 8,
// h264_nvenc no side over 4096. Checked before any work so an impossible video fails at once.
std::string video_size_problem(int width, int height, const std::string& encoder);

// The encoder a recording of this size will use: pick_h264_encoder() for "auto", falling back to
// libx264 when h264_nvenc cannot take the size. Throws Error with video_size_problem()'s reason.
std::string encoder_for_size(int width, int height, const std::string& encoder = "auto",
                             const std::string& ffmpeg = "ffmpeg");

// The encoder of a `format` video of this size: encoder_for_size() for MP4, "auto" (ffmpeg's own
// choice) for the others once their size is checked. Throws Error with video_size_problem()'s reason.
std::string encoder_for_format(VideoFormat format, int width, int height);

// The H.264 encoder this ffmpeg can use here: "h264_nvenc" when `ffmpeg -encoders` lists it and a
// one-frame trial encode succeeds (a listed encoder may still lack a GPU), else "libx264". The
// answer is cached per ffmpeg program; thread-safe (a second caller waits for the first probe,
// which the window starts in the background). Throws Error when ffmpeg is not on PATH.
std::string pick_h264_encoder(const std::string& ffmpeg = "ffmpeg");

}  // namespace physarum::app
