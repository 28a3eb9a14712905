#include "export_pipeline/output_formats.hpp"

#include <algorithm>
#include <cmath>

#include "export/exr_writer.hpp"
#include "export_pipeline/export_volume.hpp"
#include "export_pipeline/export_writers.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "sim/text.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;
using N = OutputNeeds;

// 16-bit samples of a float image (4 a pixel, display values): round(v * 65535), clamped to
// [0, 1]; RGBA with `alpha`, else RGB.
std::vector<uint16_t> png16_samples(const std::vector<float>& rgba, bool alpha) {
  const size_t n = rgba.size() / 4;
  const size_t channels = alpha ? 4 : 3;
  std::vector<uint16_t> s(n * channels);
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < channels; ++c) {
      const float v = std::clamp(rgba[4 * i + c], 0.0f, 1.0f);
      s[channels * i + c] = static_cast<uint16_t>(std::lround(v * 65535.0f));
    }
  }
  return s;
}

// 8 bits a channel as drawn, or (--depth 16) 16 from the deep picture with the command in its text.
void write_picture_png(const fs::path& out, const OutputSource& in) {
  const Picture& p = *in.picture;
  if (p.deep.depth == 16) {
    write_png(out, png16_samples(*p.rgba, p.alpha), p.size.width, p.size.height, p.alpha ? 4 : 3, 16,
              {{"Comment", p.comment}});
    return;
  }
  write_png_rgba(out, p.rgba8->data(), p.size.width, p.size.height);
}

void write_picture_exr(const fs::path& out, const OutputSource& in) {
  const Picture& p = *in.picture;
  exporter::write_exr(out, *p.rgba, p.size.width, p.size.height, p.alpha,
                      exporter::parse_exr_sample(p.deep.exr_sample));
}

// The field itself, as `physarum run --out` writes it: (H, W), (S, H, W), (D, H, W) or (S, D, H, W).
void write_field_npy(const fs::path& out, const OutputSource& in) {
  const FieldView& f = in.field;
  std::vector<int> shape = {f.size.height, f.size.width};
  if (f.size.volume()) shape.insert(shape.begin(), f.size.depth);
  if (f.species > 1) shape.insert(shape.begin(), f.species);
  write_npy_shape(out, f.values, shape);
}

// A picture is drawn into a target of 4 bytes a pixel and read back whole before it is encoded.
uint64_t frame_bytes(const OutputShape& s) {
  return 4 * static_cast<uint64_t>(s.image.width) * static_cast<uint64_t>(s.image.height);
}

// The PNG is built whole in memory, then written.
OutputEstimate estimate_picture_png(const OutputShape& s) {
  const uint64_t png = png_bytes_bound(s.image.width, s.image.height, 4, s.deep.depth / 8);
  return {{png, png}, s.image_text};
}

// ZIP of incompressible samples grows by well under 1%; the header is small.
OutputEstimate estimate_picture_exr(const OutputShape& s) {
  const uint64_t raw = frame_bytes(s) * (s.deep.exr_sample == "float" ? 4 : 2);
  return {{raw + raw / 64 + 65536, 2 * raw + 65536}, s.image_text};
}

// 4 bytes a cell per plane, written from the copy already held.
OutputEstimate estimate_field_npy(const OutputShape& s) {
  return {{4 * cells_of(s.field) * static_cast<uint64_t>(s.planes) + 128, 0},
          "the " + format_size(s.field) + (s.field.volume() ? " volume" : " field")};
}

// A video holds its frames in flight (being read back and encoded), nothing on disk: its length is
// what the steps ask for, and the encoder compresses it.
OutputEstimate estimate_video(const OutputShape& s) {
  return {{0, s.frames_in_flight * frame_bytes(s)}, s.image_text};
}

// A GIF stores every pixel of every frame: its bound goes on disk.
OutputEstimate estimate_gif_video(const OutputShape& s) {
  const GifEstimate e = estimate_gif(*s.quality, s.image.width, s.image.height, s.video_frames, s.fps);
  return {{e.bound_bytes, s.frames_in_flight * frame_bytes(s)},
          std::to_string(e.frames) + " frames of " + std::to_string(e.width) + "x" +
              std::to_string(e.height) + " at " + std::to_string(s.quality->gif_fps) + " fps"};
}

namespace pf = plane_formats;
namespace vf = volume_formats;

// Looked up in this order: a file name takes the first entry its caller offers whose extension it
// has (a frame pattern, the pattern's entry first). Messages and help list them in this order too.
constexpr OutputFormat kFormats[] = {
    {.name = "png",
     .extensions = {".png", ""},
     .needs = N::Picture,
     .what = "the last frame; --depth 16 for 16 bits a channel",
     .write = write_picture_png,
     .estimate = estimate_picture_png},
    {.name = "exr",
     .extensions = {".exr", ""},
     .needs = N::DeepPicture,
     .what = "the last frame, linear, OpenEXR",
     .write = write_picture_exr,
     .estimate = estimate_picture_exr},
    {.name = "mask",
     .extensions = {".png", ""},
     .needs = N::Grid,
     .what = "cave mask",
     .write = pf::write_mask,
     .estimate = pf::estimate_mask,
     .cave = CaveUse::Always},
    {.name = "height",
     .extensions = {"", ""},
     .needs = N::Grid,
     .what = "16-bit height map",
     .write = pf::write_height,
     .estimate = pf::estimate_height},
    {.name = "r16",
     .extensions = {".r16", ".raw"},
     .needs = N::Grid,
     .what = "raw height",
     .write = pf::write_r16,
     .estimate = pf::estimate_r16},
    {.name = "tiled",
     .extensions = {".tmj", ".json"},
     .needs = N::Grid,
     .what = "Tiled map, + FILE_tiles.png",
     .write = pf::write_tiled,
     .estimate = pf::estimate_tiled,
     .cave = CaveUse::UnlessBanded},
    {.name = "csv",
     .extensions = {".csv", ""},
     .needs = N::Grid,
     .what = "grid",
     .write = pf::write_csv,
     .estimate = pf::estimate_csv,
     .cave = CaveUse::UnlessBanded},
    {.name = "svg",
     .extensions = {".svg", ""},
     .needs = N::Grid,
     .what = "contours",
     .write = pf::write_svg,
     .estimate = pf::estimate_svg},
    {.name = "npy",
     .extensions = {".npy", ""},
     .needs = N::Field,
     .what = "the field as `physarum run` writes it",
     .write = write_field_npy,
     .estimate = estimate_field_npy},
    {.name = "slices",
     .extensions = {".png", ""},
     .needs = N::Volume,
     .what =
         "a stack of 16-bit (--bits) greyscale slices, FILE_0000.png, FILE_0001.png, ... one a z, or name "
         "the digits with ###: what Fiji's Import > Image Sequence and 3D Slicer read",
     .write = vf::write_slices,
     .estimate = vf::estimate_slices},
    {.name = "vdb",
     .extensions = {".vdb", ""},
     .needs = N::Volume,
     .what = "OpenVDB fog volumes, one grid a species, \"density\" for one",
     .write = vf::write_vdb,
     .estimate = vf::estimate_vdb},
    {.name = "ply",
     .extensions = {".ply", ""},
     .needs = N::Mesh,
     .what = "the iso-surface mesh",
     .write = vf::write_ply,
     .estimate = vf::estimate_ply},
    {.name = "obj",
     .extensions = {".obj", ""},
     .needs = N::Mesh,
     .what = "the iso-surface mesh",
     .write = vf::write_obj,
     .estimate = vf::estimate_obj},
    {.name = "glb",
     .extensions = {".glb", ""},
     .needs = N::Mesh,
     .what = "the iso-surface mesh",
     .write = vf::write_glb,
     .estimate = vf::estimate_glb},
    // Videos: the recorder writes them frame by frame (`video` says which it makes).
    {.name = "mp4",
     .extensions = {format_extension(VideoFormat::Mp4), ""},
     .needs = N::Video,
     .what = "H.264",
     .estimate = estimate_video,
     .video = VideoFormat::Mp4},
    {.name = "webm",
     .extensions = {format_extension(VideoFormat::Webm), ""},
     .needs = N::Video,
     .what = "VP9",
     .estimate = estimate_video,
     .video = VideoFormat::Webm},
    {.name = "gif",
     .extensions = {format_extension(VideoFormat::Gif), ""},
     .needs = N::Video,
     .what = "looping, two-pass palette",
     .estimate = estimate_gif_video,
     .video = VideoFormat::Gif},
    {.name = "png-sequence",
     .extensions = {format_extension(VideoFormat::PngSequence), ""},
     .needs = N::Video,
     .what = "numbered PNG frames; DIR is made",
     .estimate = estimate_video,
     .video = VideoFormat::PngSequence,
     .frame_pattern = true},
};

bool offered(const OutputFormat& f, OutputOffer offer) {
  return offer.has(f.needs);
}

bool has_extension(const OutputFormat& f, std::string_view ext) {
  return !ext.empty() && std::ranges::find(f.extensions, ext) != f.extensions.end();
}

// A pattern's entry names what is numbered ("frames/%05d.png"), a message's words for it.
std::string pattern_example(const OutputFormat& f, std::string_view folder) {
  return std::string(folder) + "/%05d" + std::string(f.extensions[0]);
}

}  // namespace

std::span<const OutputFormat> output_formats() {
  return kFormats;
}

const OutputFormat* output_format_for_extension(std::string_view lower_extension, OutputOffer offer) {
  for (const OutputFormat& f : kFormats) {
    if (!f.frame_pattern && offered(f, offer) && has_extension(f, lower_extension)) return &f;
  }
  return nullptr;
}

const OutputFormat* output_format_for(const std::filesystem::path& file, OutputOffer offer) {
  const std::string ext = lowercase_extension(file);
  if (is_frame_pattern(file)) {
    for (const OutputFormat& f : kFormats) {
      if (f.frame_pattern && offered(f, offer) && has_extension(f, ext)) return &f;
    }
  }
  return output_format_for_extension(ext, offer);
}

const OutputFormat* output_format_named(std::string_view name, OutputOffer offer) {
  for (const OutputFormat& f : kFormats) {
    if (f.name == name && offered(f, offer)) return &f;
  }
  return nullptr;
}

std::string or_list(const std::vector<std::string>& words) {
  std::string s;
  for (size_t k = 0; k < words.size(); ++k) {
    s += (k == 0 ? "" : k + 1 == words.size() ? " or " : ", ") + words[k];
  }
  return s;
}

std::string output_extensions(OutputOffer offer) {
  std::vector<std::string> extensions;
  std::string patterns;
  for (const OutputFormat& f : kFormats) {
    if (!offered(f, offer) || f.extensions[0].empty()) continue;
    if (f.frame_pattern) {
      patterns += ", or a numbered " + std::string(format_label(f.video)) + " such as " +
                  pattern_example(f, "frames");
    } else if (std::ranges::find(extensions, f.extensions[0]) == extensions.end()) {
      extensions.emplace_back(f.extensions[0]);
    }
  }
  return or_list(extensions) + patterns;
}

std::vector<std::string> output_format_names(OutputOffer offer) {
  std::vector<std::string> names;
  for (const OutputFormat& f : kFormats) {
    if (offered(f, offer)) names.emplace_back(f.name);
  }
  return names;
}

std::string output_formats_help(OutputOffer offer) {
  std::string s;
  for (const OutputFormat& f : kFormats) {
    if (!offered(f, offer) || f.extensions[0].empty()) continue;
    const std::string name = f.frame_pattern ? pattern_example(f, "DIR") : std::string(f.extensions[0]);
    s += (s.empty() ? "" : ", ") + name + " (" + std::string(f.what) + ")";
  }
  return s;
}

}  // namespace physarum::app
