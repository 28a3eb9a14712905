#include "cli/export_writers.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/network.hpp"
#include "export/contours.hpp"
#include "export/height.hpp"
#include "export/png_writer.hpp"
#include "export/svg.hpp"
#include "export/tiled.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "video/signals.hpp"

namespace physarum::app {
namespace {

namespace ex = exporter;
namespace fs = std::filesystem;

ex::TextChunks png_text(const ExportInputs& in) {
  return {{"Software", "physarum"}, {"Comment", in.recipe}};
}

void write_mask(const fs::path& out, const ExportInputs& in) {
  std::vector<uint16_t> px(in.mask.cells.size());
  for (size_t k = 0; k < px.size(); ++k) px[k] = in.mask.cells[k] ? 255 : 0;
  ex::write_grey_png(out, px, in.grid.width, in.grid.height, 8, png_text(in));
}

void write_height(const fs::path& out, const ExportInputs& in) {
  ex::write_grey_png(out, ex::height_samples(in.grid, in.plan.display), in.grid.width, in.grid.height, 16,
                     png_text(in));
}

void write_r16(const fs::path& out, const ExportInputs& in) {
  write_file_atomically(out, ex::r16_bytes(ex::height_samples(in.grid, in.plan.display)));
}

// The map and its tileset beside it, FILE_tiles.png, which the map names.
void write_tiled(const fs::path& out, const ExportInputs& in) {
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

void write_csv(const fs::path& out, const ExportInputs& in) {
  write_file_atomically(out, in.banded ? ex::band_csv(in.bands) : ex::grid_csv(in.mask));
}

// Contour values: explicit ones, or N levels evenly spaced in the display mapping, or the cave
// threshold alone.
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
    const double x = d.mapping == Mapping::Log ? std::expm1(t * std::log1p(1000.0)) / 1000.0 : t;
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

void write_svg(const fs::path& out, const ExportInputs& in) {
  const ex::Placement place =
      ex::place_on_paper(in.grid.width, in.grid.height, in.plan.paper, in.options.margin_mm);
  const std::vector<ex::ContourLevel> levels = contour_levels(in, place);
  const std::vector<ex::Polyline> network =
      in.options.skeleton ? network_lines(in, place) : std::vector<ex::Polyline>{};
  write_file_atomically(out, ex::contours_svg(levels, place, in.options.stroke_mm, in.recipe,
                                              in.options.skeleton ? &network : nullptr));
}

// The field itself, as `physarum run --out` writes it (not resampled: --resolution shapes the grid).
void write_field_npy(const fs::path& out, const ExportInputs& in) {
  write_npy(out, in.field.values.data(), in.field.size.height, in.field.size.width, in.field.species);
}

constexpr FormatWriter kWriters[] = {
    {"mask", {".png", ""}, CaveUse::Always, write_mask},
    {"height", {"", ""}, CaveUse::Never, write_height},
    {"r16", {".r16", ".raw"}, CaveUse::Never, write_r16},
    {"tiled", {".tmj", ".json"}, CaveUse::UnlessBanded, write_tiled},
    {"csv", {".csv", ""}, CaveUse::UnlessBanded, write_csv},
    {"svg", {".svg", ""}, CaveUse::Never, write_svg},
    {"npy", {".npy", ""}, CaveUse::Never, write_field_npy},
};

}  // namespace

std::filesystem::path tileset_path(const std::filesystem::path& map) {
  return map.parent_path() / (map.stem().string() + "_tiles.png");
}

std::span<const FormatWriter> format_writers() {
  return kWriters;
}

const FormatWriter* format_writer_named(std::string_view name) {
  for (const FormatWriter& w : kWriters) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

const FormatWriter* format_writer_for_extension(std::string_view lower_extension) {
  for (const FormatWriter& w : kWriters) {
    if (!lower_extension.empty() && std::ranges::find(w.extensions, lower_extension) != w.extensions.end())
      return &w;
  }
  return nullptr;
}

std::string format_writer_names(std::string_view sep) {
  std::string s;
  for (const FormatWriter& w : kWriters) s += std::string(s.empty() ? "" : sep) + std::string(w.name);
  return s;
}

std::string format_writer_extensions() {
  std::string s;
  for (const FormatWriter& w : kWriters) {
    if (!w.extensions[0].empty()) s += std::string(s.empty() ? "" : ", ") + std::string(w.extensions[0]);
  }
  return s;
}

}  // namespace physarum::app
