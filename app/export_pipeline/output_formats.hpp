// Every file format a command writes, in one table: `render --out`, `export --out` (a plane's and a
// volume's) and the window's screenshots look a file name up here, and their messages and help list
// what it holds. A format is one entry: its name, its extensions, what it is written from (a field,
// a plane's map, a volume, a mesh, a picture, a deep picture, a video), its size estimate (an upper
// bound, export/output_budget.hpp) and its writer. A new format is one entry and its writer.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "export/output_budget.hpp"
#include "sim/params.hpp"
#include "video/video_format.hpp"

namespace physarum::app {

struct ExportInputs;
struct ExportOptions;
struct VolumeInputs;
struct VideoQuality;

// What a format is written from.
enum class OutputNeeds {
  Field,        // the field as grown: (H, W), (S, H, W), a volume's (D, H, W) or (S, D, H, W)
  Grid,         // a plane's field as a map at the output resolution, with its cave or bands (export)
  Volume,       // a volume's field and its sum (export)
  Mesh,         // a volume's iso-surface (export)
  Picture,      // 8-bit RGBA as drawn (render, the window)
  DeepPicture,  // float RGBA as drawn: the colours before any rounding to 8 bits (render)
  Video,        // frames, handed one by one to the recorder (render)
};

// What a caller can write from: the formats it takes are those whose needs it offers.
class OutputOffer {
 public:
  constexpr OutputOffer(std::initializer_list<OutputNeeds> needs) {
    for (OutputNeeds n : needs) bits_ |= 1u << static_cast<unsigned>(n);
  }
  constexpr bool has(OutputNeeds n) const { return (bits_ >> static_cast<unsigned>(n)) & 1u; }

 private:
  unsigned bits_ = 0;
};

inline constexpr OutputOffer kRenderOffer = {OutputNeeds::Field, OutputNeeds::Picture,
                                             OutputNeeds::DeepPicture, OutputNeeds::Video};
inline constexpr OutputOffer kPlaneExportOffer = {OutputNeeds::Field, OutputNeeds::Grid};
inline constexpr OutputOffer kVolumeExportOffer = {OutputNeeds::Field, OutputNeeds::Volume,
                                                   OutputNeeds::Mesh};
// The window's screenshots are read from the 8-bit framebuffer.
inline constexpr OutputOffer kWindowOffer = {OutputNeeds::Picture};

// The stills' bits and samples: --depth (a .png's bits a channel) and --exr-type.
struct DeepStillOptions {
  int depth = 8;                    // .png stills: 8 or 16 bits a channel
  std::string exr_sample = "half";  // .exr: half or float
};

// A picture as drawn, rows top to bottom: 8-bit RGBA, and the float RGBA of a deep picture when
// one was drawn (a .png at --depth 16 and .exr read it).
struct Picture {
  Size size{};
  const std::vector<uint8_t>* rgba8 = nullptr;
  const std::vector<float>* rgba = nullptr;
  bool alpha = false;  // display.background = transparent: a deep still keeps its alpha
  DeepStillOptions deep{};
  std::string comment{};  // a deep still's: the command that makes it again
};

// A field as `physarum run` writes it, plane after plane (a volume's size has its depth).
struct FieldView {
  const float* values = nullptr;
  Size size{};
  int species = 1;
};

// What a writer reads: the part its format needs.
struct OutputSource {
  FieldView field{};                     // Field
  const ExportInputs* grid = nullptr;    // Grid
  const VolumeInputs* volume = nullptr;  // Volume, Mesh
  const Picture* picture = nullptr;      // Picture, DeepPicture
};

// The iso-surface's vertices and triangles before --triangles (exporter::surface_size, known once the
// inside is cleaned up) and the bytes held while making it.
struct MeshBound {
  uint64_t vertices = 0, triangles = 0, held = 0;
};

// What sizes the files, known before the run: the part each format's estimate reads.
struct OutputShape {
  const ExportOptions* options = nullptr;  // an export's: what its Grid, Volume and Mesh formats read
  Size field{};                            // Field, Volume: the field's size (a volume's with its depth)
  int planes = 1;                          // its planes after --channel
  // Grid
  Size grid{};
  std::string grid_text{};  // "a 4096x4096 grid (--resolution 4x)", for messages
  int bands = 0;            // 0 without --bands
  double paper_mm = 0;      // the paper's longer side: SVG coordinates stay below it
  // Mesh: the surface's bound, known once the inside is (0 before)
  MeshBound mesh{};
  // Picture, DeepPicture, Video
  Size image{};
  std::string image_text{};  // "a 640x360 image, the field's size", for messages
  DeepStillOptions deep{};
  // Video
  uint64_t frames_in_flight = 0;  // frames held while being read back and encoded
  uint64_t video_frames = 0;      // frames the video gets
  int fps = 30;
  const VideoQuality* quality = nullptr;
};

// An output's cost (an upper bound) and the options that set it.
struct OutputEstimate {
  OutputCost cost;
  std::string because;
};

// Whether a plane's export format needs the cave clean-up (the floor/wall mask).
enum class CaveUse { Never, Always, UnlessBanded };

struct OutputFormat {
  std::string_view name;                       // as --format takes it; unique
  std::array<std::string_view, 2> extensions;  // lower case, the first in messages; "" when none
  OutputNeeds needs;
  std::string_view what;  // for help: "cave mask", "the iso-surface mesh"
  // Writes the file whole. A video has none: its recorder takes the frames one by one (`video`).
  void (*write)(const std::filesystem::path& out, const OutputSource& in) = nullptr;
  OutputEstimate (*estimate)(const OutputShape& s) = nullptr;
  CaveUse cave = CaveUse::Never;
  VideoFormat video = VideoFormat::Mp4;  // needs == Video: what the recorder makes
  bool frame_pattern = false;            // only a name with a frame number: frames/%05d.png
};

std::span<const OutputFormat> output_formats();

// The format of `file` among those `offer` takes, by its extension (case-insensitive) and, for a
// frame pattern, by its name; nullptr when none.
const OutputFormat* output_format_for(const std::filesystem::path& file, OutputOffer offer);
const OutputFormat* output_format_for_extension(std::string_view lower_extension, OutputOffer offer);
const OutputFormat* output_format_named(std::string_view name, OutputOffer offer);

// ".png, .exr, .npy, .mp4, .webm or .gif, or a numbered PNG sequence such as frames/%05d.png": the
// first extension of each format `offer` takes, for messages.
std::string output_extensions(OutputOffer offer);
// The names of the formats `offer` takes, in the table's order (mask, height, ...).
std::vector<std::string> output_format_names(OutputOffer offer);
// "a, b or c".
std::string or_list(const std::vector<std::string>& words);
// ".png (cave mask), .r16 (raw height), ...": each format `offer` takes and what it holds, for help.
std::string output_formats_help(OutputOffer offer);

}  // namespace physarum::app
