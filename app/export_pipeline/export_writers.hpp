// One writer per `physarum export` format, all behind the same small interface, and the table that
// says how each is named, which extensions pick it and whether it needs the cave clean-up.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "export/bands.hpp"
#include "export/cave.hpp"
#include "export/grid.hpp"
#include "export/output_budget.hpp"
#include "export_pipeline/export_plan.hpp"

namespace physarum::app {

// A field as `physarum run` writes it: (H, W), or (S, H, W) plane after plane for S species.
struct FieldPlanes {
  std::vector<float> values;
  Size size;
  int species = 1;
  // The run's food and walls (zero planes without them), for --graph's towns.
  std::vector<float> food;
  std::vector<uint8_t> walls;
};

// What the writers read: the field itself, the grid at the output resolution, and what the plan
// asked to derive from it.
struct ExportInputs {
  const ExportOptions& options;
  const ExportPlan& plan;
  FieldPlanes field;  // --channel's plane alone when one is chosen
  exporter::Grid grid{};
  std::string recipe;     // the options that shaped the result, for the files' comments
  exporter::Mask mask{};  // when plan.needs_cave
  exporter::CaveReport report{};
  bool banded = false;  // --bands: level bands instead of floor/wall
  exporter::BandMode band_mode = exporter::BandMode::Even;
  exporter::BandMap bands{};
};

enum class CaveUse { Never, Always, UnlessBanded };

// What sizes the writers' files, known before the run.
struct ExportShape {
  Size field;
  int planes = 1;  // after --channel
  Size grid;
  std::string grid_text;  // "a 4096x4096 grid (--resolution 4x)", for messages
  int bands = 0;          // 0 without --bands
  double paper_mm = 0;    // the paper's longer side: SVG coordinates stay below it
};

// An output's cost (an upper bound, export/output_budget.hpp) and the options that set it.
struct OutputEstimate {
  OutputCost cost;
  std::string because;
};

struct FormatWriter {
  std::string_view name;                       // as --format takes it
  std::array<std::string_view, 2> extensions;  // lower case, first one in messages; "" when none
  CaveUse cave = CaveUse::Never;
  void (*write)(const std::filesystem::path& out, const ExportInputs& in) = nullptr;
  OutputEstimate (*estimate)(const ExportOptions& o, const ExportShape& s) = nullptr;
};

// The contour levels an SVG draws: --contour-at's values, --contours N, or the cave threshold alone.
int contour_level_count(const ExportOptions& o);

std::span<const FormatWriter> format_writers();

// The Tiled map's tileset, FILE_tiles.png beside FILE.tmj: the map names it, and the export plan
// checks it like every output.
std::filesystem::path tileset_path(const std::filesystem::path& map);
const FormatWriter* format_writer_named(std::string_view name);  // nullptr when none
const FormatWriter* format_writer_for_extension(std::string_view lower_extension);

// Every writer's name joined with `sep` ("mask|height|..."), for --format's choices and help.
std::string format_writer_names(std::string_view sep);
// ".png, .r16, ..." : the first extension of each format that has one.
std::string format_writer_extensions();

}  // namespace physarum::app
