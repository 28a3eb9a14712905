// What a recording's file name asks for: an H.264 MP4, a VP9 WebM, a looping GIF or a numbered
// PNG sequence ("frames/%05d.png"), chosen by the extension, and the checks each needs before
// any work (a frame pattern with one number field, its folder there or made).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace physarum::app {

enum class VideoFormat { Mp4, Webm, Gif, PngSequence };

inline constexpr VideoFormat kVideoFormats[] = {VideoFormat::Mp4, VideoFormat::Webm, VideoFormat::Gif,
                                                VideoFormat::PngSequence};

// "MP4 (H.264)", "WebM (VP9)", "GIF (looping)", "PNG sequence".
std::string_view format_label(VideoFormat f);
// ".mp4", ".webm", ".gif", ".png".
constexpr std::string_view format_extension(VideoFormat f) {
  switch (f) {
    case VideoFormat::Mp4: return ".mp4";
    case VideoFormat::Webm: return ".webm";
    case VideoFormat::Gif: return ".gif";
    case VideoFormat::PngSequence: return ".png";
  }
  return ".mp4";
}

// True for a file name whose last part holds a printf number field (%d, %05d), i.e. a name
// ffmpeg numbers frame by frame. Any other '%' ("50%.png", "a%%b.png") is part of a plain name.
bool is_frame_pattern(const std::filesystem::path& file);

// The format a name asks for: .mp4, .webm, .gif, or a frame pattern ending in .png (a plain .png
// is a still, not a video). Nothing for any other name. Case-insensitive extension.
std::optional<VideoFormat> video_format_of(const std::filesystem::path& file);

// Throws Error unless the pattern's last part holds exactly one number field (%d or %0Nd, N up
// to 9), no other '%' than "%%", and no '%' in its folders.
void check_frame_pattern(const std::filesystem::path& pattern);

// The `n`th file of a checked frame pattern (frames/%05d.png, 7: frames/00007.png).
std::filesystem::path frame_file(const std::filesystem::path& pattern, uint64_t n);

// Refuses a bad pattern, or a folder for the frames that exists and is not one; makes nothing.
void check_frame_folder(const std::filesystem::path& pattern);
// Checks the pattern and makes its folder (and the folders above) when missing. Throws Error
// saying which folder could not be made, and why.
void prepare_frame_folder(const std::filesystem::path& pattern);

// Whether the format keeps an alpha channel (display.background = transparent): WebM (yuva420p)
// and PNG. MP4 (yuv420p) and GIF (no partial transparency) do not.
bool format_keeps_alpha(VideoFormat f);
// Whether the format's frames must have even sides (4:2:0 chroma): MP4 and WebM.
bool format_needs_even_size(VideoFormat f);

}  // namespace physarum::app
