// How a video weighs: the encoder's quality and speed (MP4, WebM) and a GIF's width, rate, colours
// and dither. Every value is checked against its codec's range before any work, with a message
// naming the value; ffmpeg is only ever handed values checked here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "video/frame_ring.hpp"
#include "video/video_format.hpp"

namespace physarum::app {

// A GIF's delays are whole centiseconds: only rates that divide 100 play evenly. 25 fps is 4 cs a
// frame; 30 or 60 fps would alternate delays (3, 3, 4 or 1, 2) and drift from the recording's time.
inline constexpr int kDefaultGifFps = 25;
inline constexpr int kGifFpsChoices[] = {1, 2, 4, 5, 10, 20, 25, 50};
// Wide enough to read a network; with 64 colours and the ordered dither a 10 s GIF of a busy field
// (braid, jones-2010: 250 frames of 480x270) weighs 8-9 MB. 256 colours with error diffusion
// weighed 19-22 MB for the same frames and looked the same at 1:1: error diffusion's noise differs
// from frame to frame and LZW cannot compress it, the ordered dither's pattern is fixed.
inline constexpr int kDefaultGifWidth = 480;
inline constexpr int kDefaultGifColors = 64;
inline constexpr int kMaxGifColors = 256;
inline constexpr std::string_view kGifDithers[] = {"none", "bayer", "floyd_steinberg", "sierra2",
                                                   "sierra2_4a"};

struct VideoQuality {
  // Constant quality: lower is better and larger. libx264 0..51 (default 18), h264_nvenc's -cq
  // 0..51 (default 19), VP9 0..63 (default 31). Empty: the default.
  std::optional<int> crf;
  // Encoder speed: libx264 ultrafast..veryslow, h264_nvenc p1..p7, VP9 realtime, good or best
  // with an optional :cpu-used (good:2). Empty: the default for headless or live recording.
  std::string speed;
  int gif_width = 0;  // 0: kDefaultGifWidth, or the frames' width when they are narrower
  int gif_fps = kDefaultGifFps;
  int gif_colors = kDefaultGifColors;
  std::string gif_dither = "bayer";
};

// Why `q` does not fit `format` with `encoder` (libx264 or h264_nvenc for MP4), naming the option
// (--crf, --video-preset, --gif-*), the value and the range; empty when it does.
std::string quality_problem(const VideoQuality& q, VideoFormat format, const std::string& encoder);

// ffmpeg's codec arguments for the H.264 encoder with `q` (the defaults where it says nothing).
// The live recorder must keep up with the frame loop, so libx264 defaults to a faster preset there.
std::vector<std::string> h264_quality_args(const std::string& encoder, RingPolicy policy,
                                           const VideoQuality& q);
// VP9's: constant quality (-b:v 0), deadline and cpu-used from `q` or the policy.
std::vector<std::string> vp9_quality_args(bool alpha, RingPolicy policy, const VideoQuality& q);

// The GIF's width for frames `frame_width` wide: gif_width, never wider than the frames (a GIF is
// not enlarged), kDefaultGifWidth when 0. Its height keeps the aspect (at least 1).
int gif_width_for(const VideoQuality& q, int frame_width);
int gif_height_for(const VideoQuality& q, int frame_width, int frame_height);
// The filters before palettegen and paletteuse: the GIF's rate (frames picked by time, so the
// length stays) and width.
std::string gif_prefilter(const VideoQuality& q, int frame_width);
// Frames in the GIF for a video of `frames` at `fps`.
uint64_t gif_frame_count(uint64_t frames, int fps, const VideoQuality& q);

// What a GIF weighs, before it is made. A busy field GIF with 256 colours and the ordered dither (or
// none) takes about kGifBytesPerPixel a pixel a frame; the size goes as the palette's size to the
// power kGifColorsExponent, and error diffusion (floyd_steinberg, sierra2, sierra2_4a) weighs
// kGifDiffusionFactor times more. Fitted to GIFs of braid and jones-2010 at 64 and 256 colours with
// each dither: 600 steps (10 s) come out 10-15% under it, the first 150 steps of a run (still
// settling, so busier) about 1.4 times over it. An estimate, not a bound: quieter fields weigh less;
// the bound is raw LZW (12-bit codes, 1.5 bytes a pixel).
inline constexpr double kGifBytesPerPixel = 0.52;
inline constexpr double kGifColorsExponent = 0.4;
inline constexpr double kGifDiffusionFactor = 1.4;
struct GifEstimate {
  int width = 0, height = 0;
  uint64_t frames = 0;
  uint64_t typical_bytes = 0;
  uint64_t bound_bytes = 0;
};
GifEstimate estimate_gif(const VideoQuality& q, int frame_width, int frame_height, uint64_t frames, int fps);

}  // namespace physarum::app
