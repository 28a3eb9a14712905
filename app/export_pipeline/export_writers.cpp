#include "export_pipeline/export_writers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/network.hpp"
#include "export/contours.hpp"
#include "export/height.hpp"
#include "export/svg.hpp"
#include "export/tiled.hpp"
#include "sim/atomic_file.hpp"
#include "sim/display_mapping.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

namespace ex = exporter;
namespace fs = std::filesystem;

TextChunks png_text(const ExportInputs& in) {
  return {{"Software", "physarum"}, {"Comment", in.recipe}};
}

// Contour values: explicit ones, or N levels evenly spaced in the display mapping, or the cave
// threshold alone (contour_level_count says how many).
std::vector<float> contour_values(const ExportInputs& in) {
  const ExportOptions& o = in.options;
  const DisplayParams& d = in.plan.display;
  if (!o.contour_at.empty()) return o.contour_at;
  if (o.contours <= 0) return {in.report.threshold};
  const auto [mn, mx] = std::minmax_element(in.grid.values.begin(), in.grid.values.end());
  const double lo = d.auto_range ? *mn : 0.0, hi = d.auto_range ? *mx : 1.0;
  const double exposure = d.exposure > 0 ? d.exposure : 1.0;
  std::vector<float> v;
  for (int k = 1; k <= o.contours; ++k) {
    const double t = static_cast<double>(k) / (o.contours + 1);
    const double x = invert_mapping(t, d.mapping);
    v.push_back(static_cast<float>(lo + (hi - lo) * x / exposure));
  }
  return v;
}

std::vector<ex::ContourLevel> contour_levels(const ExportInputs& in, const ex::Placement& place) {
  std::vector<ex::ContourLevel> levels;
  for (float v : contour_values(in)) {
    throw_if_stopped();  // hundreds of levels on a large grid take a while
    ex::ContourLevel level{v, {}};
    for (const ex::Polyline& line : ex::iso_lines(in.grid, v)) {
      if (ex::length(line) * place.scale < in.options.min_length_mm) continue;
      level.lines.push_back(ex::simplify(line, in.options.tolerance_mm / place.scale));
    }
    levels.push_back(std::move(level));
  }
  return levels;
}

// The floor's centre lines: the same cells the cave threshold's contour encloses.
std::vector<ex::Polyline> network_lines(const ExportInputs& in, const ex::Placement& place) {
  std::vector<ex::Polyline> network;
  const analysis::Mask skel =
      analysis::skeleton(analysis::network_mask(in.grid, nullptr, in.report.threshold));
  for (const ex::Polyline& line : analysis::skeleton_polylines(skel)) {
    if (ex::length(line) * place.scale < in.options.min_length_mm) continue;
    // Skeleton points are cell centres: anything finer than a cell is staircase, not shape.
    network.push_back(ex::simplify(line, std::max(in.options.tolerance_mm / place.scale, 1.0)));
  }
  return network;
}

// The estimates below are upper bounds in G, the grid's cells, from the options alone. Text
// formats are bounded by their longest spelling of a cell; files built whole in memory count once
// on disk and once in memory.
uint64_t cells(Size s) {
  return cells_of(s);
}

uint64_t decimal_digits(int n) {
  return std::to_string(n).size();
}

}  // namespace

namespace plane_formats {

void write_mask(const fs::path& out, const OutputSource& source) {
  const ExportInputs& in = *source.grid;
  std::vector<uint16_t> px(in.mask.cells.size());
  for (size_t k = 0; k < px.size(); ++k) px[k] = in.mask.cells[k] ? 255 : 0;
  write_grey_png(out, px, in.grid.width, in.grid.height, 8, png_text(in));
}

void write_height(const fs::path& out, const OutputSource& source) {
  const ExportInputs& in = *source.grid;
  write_grey_png(out, ex::height_samples(in.grid, in.plan.display), in.grid.width, in.grid.height, 16,
                 png_text(in));
}

void write_r16(const fs::path& out, const OutputSource& source) {
  const ExportInputs& in = *source.grid;
  write_file_atomically(out, ex::r16_bytes(ex::height_samples(in.grid, in.plan.display)));
}

// The map and its tileset beside it, FILE_tiles.png, which the map names.
void write_tiled(const fs::path& out, const OutputSource& source) {
  const ExportInputs& in = *source.grid;
  const int tile = in.options.tile_size;
  const fs::path tileset = tileset_path(out);
  const std::string tiles = tileset.filename().string();
  if (in.banded) {
    write_file_atomically(tileset, ex::band_tileset_png(tile, in.bands.levels));
    write_file_atomically(out, ex::tiled_bands_json(in.bands, in.band_mode, tile, tiles, in.recipe));
  } else {
    write_file_atomically(tileset, ex::tileset_png(tile));
    write_file_atomically(out, ex::tiled_json(in.mask, tile, tiles, in.recipe));
  }
}

void write_csv(const fs::path& out, const OutputSource& source) {
  const ExportInputs& in = *source.grid;
  write_file_atomically(out, in.banded ? ex::band_csv(in.bands) : ex::grid_csv(in.mask));
}

void write_svg(const fs::path& out, const OutputSource& source) {
  const ExportInputs& in = *source.grid;
  const ex::Placement place =
      ex::place_on_paper(in.grid.width, in.grid.height, in.plan.paper, in.options.margin_mm);
  const std::vector<ex::ContourLevel> levels = contour_levels(in, place);
  const std::vector<ex::Polyline> network =
      in.options.skeleton ? network_lines(in, place) : std::vector<ex::Polyline>{};
  write_file_atomically(out, ex::contours_svg(levels, place, in.options.stroke_mm, in.recipe,
                                              in.options.skeleton ? &network : nullptr));
}

// 16-bit samples (2 bytes a cell) encoded into a PNG held whole before it is written.
OutputEstimate estimate_mask(const OutputShape& s) {
  const uint64_t png = png_bytes_bound(s.grid.width, s.grid.height, 1, 1);
  return {{png, 2 * cells(s.grid) + png}, s.grid_text};
}

OutputEstimate estimate_height(const OutputShape& s) {
  const uint64_t png = png_bytes_bound(s.grid.width, s.grid.height, 1, 2);
  return {{png, 2 * cells(s.grid) + png}, s.grid_text};
}

OutputEstimate estimate_r16(const OutputShape& s) {
  return {{2 * cells(s.grid), 4 * cells(s.grid)}, s.grid_text};
}

// Floor/wall: a tile id and a comma a cell. Bands: one layer per band, each cell its band's id or
// 0 and a comma. The JSON is built in pieces (a layer, the layers, the map): three copies at most.
OutputEstimate estimate_tiled(const OutputShape& s) {
  const ExportOptions& o = *s.options;
  constexpr uint64_t kFramingAndRecipe = 65536;
  const int tiles = s.bands > 0 ? s.bands : 2;
  const uint64_t layers = s.bands > 0 ? static_cast<uint64_t>(s.bands) : 1;
  const uint64_t json =
      layers * cells(s.grid) * (1 + decimal_digits(tiles)) + layers * 512 + kFramingAndRecipe;
  const uint64_t tileset = png_bytes_bound(tiles * o.tile_size, o.tile_size, 4, 1);
  const std::string because =
      s.bands > 0 ? std::to_string(s.bands) + " band layers (--bands, --levels) on " + s.grid_text
                  : s.grid_text;
  return {{json + tileset, 3 * json + tileset}, because};
}

// A cell's band or floor/wall and a comma (or the line's end).
OutputEstimate estimate_csv(const OutputShape& s) {
  const uint64_t csv = cells(s.grid) * (1 + (s.bands > 0 ? decimal_digits(s.bands - 1) : 1));
  return {{csv, csv}, s.grid_text};
}

// Marching squares puts at most one point on each of the grid's edges (fewer than 2G) per level,
// and a line has at least two points: at most 2G points and G lines a level. A point is " L" and
// two "%.3f" millimetre values below the paper's side; a line adds its <path> framing. Every
// level's lines are held at once (16 bytes a point, about 48 a line), with one level's lines
// before simplification and the text. --tolerance only ever removes points, so it does not
// lower the bound; the skeleton has at most one point a cell.
OutputEstimate estimate_svg(const OutputShape& s) {
  const ExportOptions& o = *s.options;
  const uint64_t g = cells(s.grid);
  const uint64_t levels = static_cast<uint64_t>(contour_level_count(o)) + (o.skeleton ? 1 : 0);
  const uint64_t coordinate = decimal_digits(static_cast<int>(s.paper_mm)) + 4;
  const uint64_t point_text = 3 + 2 * coordinate, line_text = 20, level_text = 256;
  const uint64_t text = levels * (2 * g * point_text + g * line_text + level_text) + 65536;
  const uint64_t held = (levels + 1) * (2 * g * 16 + g * 48);
  char tolerance[32];
  std::snprintf(tolerance, sizeof tolerance, "%g", o.tolerance_mm);
  std::string because = std::to_string(contour_level_count(o)) + " contour level(s) (" +
                        (o.contour_at.empty() ? "--contours" : "--contour-at") + ")" +
                        (o.skeleton ? " and --skeleton" : "") + " at --tolerance " + tolerance + " on " +
                        s.grid_text;
  return {{text, held + text}, because};
}

}  // namespace plane_formats

int contour_level_count(const ExportOptions& o) {
  if (!o.contour_at.empty()) return static_cast<int>(o.contour_at.size());
  return o.contours > 0 ? o.contours : 1;
}

std::filesystem::path tileset_path(const std::filesystem::path& map) {
  return map.parent_path() / (map.stem().string() + "_tiles.png");
}

}  // namespace physarum::app
