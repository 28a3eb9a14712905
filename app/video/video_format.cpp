#include "video/video_format.hpp"

#include <cstdio>
#include <system_error>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"
#include "sim/text.hpp"

namespace physarum::app {

namespace {

struct FieldCount {
  int fields = 0;      // well formed: %d, %0Nd
  bool other = false;  // a '%' that starts anything else ("%%" is a literal '%')
};

FieldCount number_fields(const std::string& name) {
  FieldCount n;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '%') continue;
    if (i + 1 < name.size() && name[i + 1] == '%') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    if (j < name.size() && name[j] == '0') {
      ++j;
      if (j < name.size() && name[j] >= '1' && name[j] <= '9') ++j;
    }
    if (j >= name.size() || name[j] != 'd') {
      n.other = true;
      continue;
    }
    ++n.fields;
    i = j;
  }
  return n;
}

}  // namespace

std::string_view format_label(VideoFormat f) {
  switch (f) {
    case VideoFormat::Mp4: return "MP4 (H.264)";
    case VideoFormat::Webm: return "WebM (VP9)";
    case VideoFormat::Gif: return "GIF (looping)";
    case VideoFormat::PngSequence: return "PNG sequence";
  }
  return "MP4 (H.264)";
}

bool is_frame_pattern(const std::filesystem::path& file) {
  // Any other '%' belongs to a still's name ("50%.png"): only a number field makes a sequence.
  return number_fields(file.filename().string()).fields > 0;
}

std::optional<VideoFormat> video_format_of(const std::filesystem::path& file) {
  const std::string ext = lowercase_extension(file);
  for (const VideoFormat f : kVideoFormats) {
    // A plain .png is a still: only a frame pattern is a sequence.
    if (ext == format_extension(f) && (f != VideoFormat::PngSequence || is_frame_pattern(file))) return f;
  }
  return std::nullopt;
}

void check_frame_pattern(const std::filesystem::path& pattern) {
  const std::string shown = pattern.string();
  if (pattern.parent_path().string().find('%') != std::string::npos) {
    throw Error("frame pattern " + shown + ": only the file name may hold the frame number (%05d)");
  }
  const FieldCount n = number_fields(pattern.filename().string());
  if (n.fields != 1 || n.other) {
    throw Error("frame pattern " + shown +
                ": the file name must hold one frame number, %d or %0Nd (e.g. frames/%05d.png); " +
                "write a literal % as %%");
  }
}

void check_frame_folder(const std::filesystem::path& pattern) {
  check_frame_pattern(pattern);
  check_folder_to_make(pattern.has_parent_path() ? pattern.parent_path() : ".", "frames");
}

void prepare_frame_folder(const std::filesystem::path& pattern) {
  check_frame_pattern(pattern);
  make_folder_for(pattern.has_parent_path() ? pattern.parent_path() : ".", "frames");
}

bool format_keeps_alpha(VideoFormat f) {
  return f == VideoFormat::Webm || f == VideoFormat::PngSequence;
}

bool format_needs_even_size(VideoFormat f) {
  return f == VideoFormat::Mp4 || f == VideoFormat::Webm;
}

}  // namespace physarum::app

namespace physarum::app {

std::filesystem::path frame_file(const std::filesystem::path& pattern, uint64_t n) {
  // The pattern's name holds one %d or %0Nd and literal %%, which is what printf takes.
  const std::string name = pattern.filename().string();
  char buf[4096];
  const int len = std::snprintf(buf, sizeof buf, name.c_str(), static_cast<int>(n));
  if (len < 0 || static_cast<size_t>(len) >= sizeof buf) throw Error("frame name too long: " + name);
  return pattern.parent_path() / buf;
}

}  // namespace physarum::app
