// A plane's `physarum export` formats: what their writers read (the field, the grid at the output
// resolution, its cave or bands) and the writers themselves, entries of the one table of output
// formats (output_formats.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "export/bands.hpp"
#include "export/cave.hpp"
#include "export/grid.hpp"
#include "export_pipeline/export_plan.hpp"
#include "export_pipeline/output_formats.hpp"

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

// The contour levels an SVG draws: --contour-at's values, --contours N, or the cave threshold alone.
int contour_level_count(const ExportOptions& o);

// The Tiled map's tileset, FILE_tiles.png beside FILE.tmj: the map names it, and the export plan
// checks it like every output.
std::filesystem::path tileset_path(const std::filesystem::path& map);

// A plane's formats (OutputNeeds::Grid), entries of the one table (output_formats.cpp): each reads
// the source's grid (ExportInputs) and sizes its file from the shape's grid and options.
namespace plane_formats {
void write_mask(const std::filesystem::path& out, const OutputSource& in);
void write_height(const std::filesystem::path& out, const OutputSource& in);
void write_r16(const std::filesystem::path& out, const OutputSource& in);
void write_tiled(const std::filesystem::path& out, const OutputSource& in);
void write_csv(const std::filesystem::path& out, const OutputSource& in);
void write_svg(const std::filesystem::path& out, const OutputSource& in);
OutputEstimate estimate_mask(const OutputShape& s);
OutputEstimate estimate_height(const OutputShape& s);
OutputEstimate estimate_r16(const OutputShape& s);
OutputEstimate estimate_tiled(const OutputShape& s);
OutputEstimate estimate_csv(const OutputShape& s);
OutputEstimate estimate_svg(const OutputShape& s);
}  // namespace plane_formats

}  // namespace physarum::app
