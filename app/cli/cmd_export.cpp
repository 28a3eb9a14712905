// `physarum export`: grows a field (or reads one from .npy) and writes assets other tools open:
// cave masks, 16-bit height maps, raw R16, Tiled maps, CSV grids and SVG contours (issue 13).
// The algorithms live in app/export/; this file only reads options and wires them together.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "analysis/network.hpp"
#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/sim_options.hpp"
#include "export/bands.hpp"
#include "export/cave.hpp"
#include "export/contours.hpp"
#include "export/grid.hpp"
#include "export/height.hpp"
#include "export/png_writer.hpp"
#include "export/svg.hpp"
#include "export/tiled.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"

namespace physarum::app {
namespace {

namespace ex = exporter;
namespace fs = std::filesystem;

struct ExportOptions {
  SimOptions sim;
  int steps = 0;
  std::string field;
  int channel = -1;  // -1: the sum of all planes
  std::vector<std::string> outs;
  std::string format;
  std::string resolution = "1x";
  std::optional<float> threshold;
  std::optional<double> floor_fraction;
  int smoothing = 2;
  int min_island = 16;
  std::string connect = "corridors";
  int min_width = 3;  // a corridor one cell wide is hard to walk through
  std::string report;
  int tile_size = 16;
  std::string bands;  // empty: floor/wall; even | quantile: level bands for .tmj and .csv
  int levels = 0;     // bands: 0 takes the preset's [display] levels
  std::string paper = "a4";
  double margin_mm = 10;
  int contours = 0;
  std::vector<float> contour_at;
  double tolerance_mm = 0.1;
  double min_length_mm = 0.5;  // shorter lines are specks a pen draws as blots
  double stroke_mm = 0.3;
  bool skeleton = false;  // SVG: add the network as a single-line drawing
};

enum class Format { Mask, Height, R16, Tiled, Csv, Svg };

Format format_of(const std::string& out, const std::string& forced) {
  const std::string f = !forced.empty() ? forced : [&] {
    std::string ext = fs::path(out).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".png") return std::string("mask");
    if (ext == ".r16" || ext == ".raw") return std::string("r16");
    if (ext == ".tmj" || ext == ".json") return std::string("tiled");
    if (ext == ".csv") return std::string("csv");
    if (ext == ".svg") return std::string("svg");
    throw UsageError("--out " + out + ": cannot tell the format from the extension '" + ext +
                     "' (use .png, .r16, .tmj, .csv, .svg or --format)");
  }();
  if (f == "mask") return Format::Mask;
  if (f == "height") return Format::Height;
  if (f == "r16") return Format::R16;
  if (f == "tiled") return Format::Tiled;
  if (f == "csv") return Format::Csv;
  return Format::Svg;
}

// "WxH" or "Nx" (a scale, e.g. 4x or 0.5x) relative to the field.
void parse_resolution(const std::string& s, int field_w, int field_h, int& w, int& h) {
  static const std::regex scale(R"(([0-9]+(\.[0-9]+)?)x)");
  std::smatch m;
  if (std::regex_match(s, m, scale)) {
    const double f = std::stod(m[1].str());
    w = static_cast<int>(std::lround(field_w * f));
    h = static_cast<int>(std::lround(field_h * f));
  } else {
    try {
      const Size size = parse_size(s);
      w = size.width;
      h = size.height;
    } catch (const Error&) {
      throw UsageError("--resolution " + s + ": expected WxH (e.g. 2048x1024) or a scale Nx (e.g. 4x)");
    }
  }
  if (w < 2 || h < 2 || w > kMaxSide || h > kMaxSide) {
    throw UsageError("--resolution " + s + ": gives " + std::to_string(w) + "x" + std::to_string(h) +
                     ", expected sides 2.." + std::to_string(kMaxSide));
  }
  // The clean-up keeps several arrays of this many cells (labels, search parents): ~20 B a cell.
  constexpr int64_t kMaxCells = int64_t{8192} * 8192;
  if (int64_t{w} * h > kMaxCells) {
    throw UsageError("--resolution " + s + ": gives " + std::to_string(w) + "x" + std::to_string(h) +
                     ", more than 8192x8192 cells");
  }
}

// The options that shaped the result, as key=value words (no "--", so it fits an XML comment);
// where the files go is left out, so equal recipes give equal bytes.
std::string recipe_of(const CLI::App& cmd) {
  std::string r = "physarum " PHYSARUM_VERSION " export";
  for (const CLI::Option* o : cmd.get_options()) {
    const std::string name = o->get_lnames().empty() ? std::string() : o->get_lnames().front();
    if (o->count() == 0 || name.empty() || name == "out" || name == "report" || name == "help") continue;
    for (const std::string& v : o->results()) r += " " + name + "=" + v;
  }
  return r;
}

ex::Grid load_field(const ExportOptions& o, DisplayParams& display) {
  ex::Grid g;
  if (!o.field.empty()) {
    display = resolve_preset(o.sim).display;
    const NpyArray a = read_npy_planes(o.field);
    if (o.channel >= a.planes) {
      throw UsageError("--channel " + std::to_string(o.channel) + ": '" + o.field + "' has " +
                       std::to_string(a.planes) + " plane(s)");
    }
    g.width = a.width;
    g.height = a.height;
    const size_t n = static_cast<size_t>(a.width) * static_cast<size_t>(a.height);
    g.values.assign(n, 0.0f);
    for (int p = 0; p < a.planes; ++p) {
      if (o.channel >= 0 && p != o.channel) continue;
      for (size_t i = 0; i < n; ++i) g.values[i] += a.data[static_cast<size_t>(p) * n + i];
    }
    return g;
  }
  run::Run sim(o.sim);
  display = sim.preset().display;
  Backend& b = sim.backend();
  if (o.channel >= b.species_count() && !(o.channel == 0 && b.species_count() <= 1)) {
    throw UsageError("--channel " + std::to_string(o.channel) + ": the run has " +
                     std::to_string(std::max(b.species_count(), 1)) + " species");
  }
  sim.step(static_cast<uint64_t>(o.steps));  // keyframes applied, as `physarum run` grows it
  std::vector<float> field;
  b.read_field(field);
  g.width = b.size().width;
  g.height = b.size().height;
  const size_t n = static_cast<size_t>(g.width) * static_cast<size_t>(g.height);
  g.values.assign(n, 0.0f);
  const size_t planes = field.size() / n;
  for (size_t p = 0; p < planes; ++p) {
    if (o.channel >= 0 && p != static_cast<size_t>(o.channel)) continue;
    for (size_t i = 0; i < n; ++i) g.values[i] += field[p * n + i];
  }
  return g;
}

// Contour values: explicit ones, or N levels evenly spaced in the display mapping, or the cave
// threshold alone.
std::vector<float> contour_values(const ExportOptions& o, const ex::Grid& g, const DisplayParams& d,
                                  float cave) {
  if (!o.contour_at.empty()) return o.contour_at;
  if (o.contours <= 0) return {cave};
  const auto [mn, mx] = std::minmax_element(g.values.begin(), g.values.end());
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

void check_out_path(const std::string& out) {
  const fs::path p(out);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw UsageError("--out " + out + ": the directory '" + dir.string() + "' does not exist");
  }
  if (fs::is_directory(p, ec)) throw UsageError("--out " + out + ": is a directory");
}

int run(const ExportOptions& o, const CLI::App& cmd) {
  // Everything that can be refused is refused before the run.
  if (o.field.empty() && o.steps <= 0)
    throw UsageError("export needs --steps N (to grow a field) or --field FILE.npy");
  if (!o.field.empty() && o.steps > 0) throw UsageError("--steps and --field exclude each other");
  if (o.threshold && o.floor_fraction)
    throw UsageError("--threshold and --floor-fraction exclude each other");
  if (o.levels > 0 && o.bands.empty()) throw UsageError("--levels needs --bands even|quantile");
  if (!o.field.empty()) {
    // They would be silently ignored: the field is already grown.
    for (const char* name :
         {"--size", "--agents", "--seed", "--image", "--image-fit", "--backend", "--threads"}) {
      if (cmd.count(name) > 0) {
        throw UsageError(std::string(name) +
                         " shapes a grown field; with --field only --preset and --set (its [display]) apply");
      }
    }
  }
  std::vector<Format> formats;
  for (const std::string& out : o.outs) {
    formats.push_back(format_of(out, o.format));
    check_out_path(out);
  }
  if (!o.report.empty()) check_out_path(o.report);
  if (o.skeleton && std::find(formats.begin(), formats.end(), Format::Svg) == formats.end())
    throw UsageError("--skeleton draws the network into an SVG: give an --out FILE.svg");
  ex::Paper paper;
  try {
    paper = ex::parse_paper(o.paper);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }

  int w = 0, h = 0;
  if (o.field.empty()) {  // the grown field's size is known before the run: refuse a bad resolution first
    const Size size = resolve_preset(o.sim).run.size;
    parse_resolution(o.resolution, size.width, size.height, w, h);
  }
  DisplayParams display;
  const ex::Grid field = load_field(o, display);
  parse_resolution(o.resolution, field.width, field.height, w, h);
  const ex::Grid grid = ex::resample_bicubic(field, w, h);
  const std::string recipe = recipe_of(cmd);

  ex::CaveOptions cave;
  cave.threshold = o.threshold;
  if (o.floor_fraction) cave.floor_fraction = *o.floor_fraction;
  cave.smoothing = o.smoothing;
  cave.min_floor_island = o.min_island;
  cave.min_rock_island = o.min_island;
  cave.connect = o.connect == "none"      ? ex::Connect::None
                 : o.connect == "largest" ? ex::Connect::Largest
                                          : ex::Connect::Corridors;
  cave.min_width = o.min_width;
  // The clean-up costs more than the rest together on big grids: only when a cave is written.
  const bool banded = !o.bands.empty();
  bool need_cave = !o.report.empty();
  for (Format f : formats)
    need_cave |= f == Format::Mask || (!banded && (f == Format::Tiled || f == Format::Csv));
  ex::BandMap bands;
  const ex::BandMode band_mode = o.bands == "quantile" ? ex::BandMode::Quantile : ex::BandMode::Even;
  if (banded) bands = ex::band_map(grid, band_mode, o.levels > 0 ? o.levels : display.levels, display);
  ex::CaveReport report;
  ex::Mask mask;
  if (need_cave) {
    mask = ex::make_cave(grid, cave, report);
  } else {
    report.threshold = cave.threshold ? *cave.threshold : ex::quantile(grid, 1.0 - cave.floor_fraction);
  }

  for (size_t i = 0; i < o.outs.size(); ++i) {
    const fs::path out(o.outs[i]);
    switch (formats[i]) {
      case Format::Mask: {
        std::vector<uint16_t> px(mask.cells.size());
        for (size_t k = 0; k < px.size(); ++k) px[k] = mask.cells[k] ? 255 : 0;
        ex::write_grey_png(out, px, w, h, 8, {{"Software", "physarum"}, {"Comment", recipe}});
        break;
      }
      case Format::Height:
        ex::write_grey_png(out, ex::height_samples(grid, display), w, h, 16,
                           {{"Software", "physarum"}, {"Comment", recipe}});
        break;
      case Format::R16: write_file_atomically(out, ex::r16_bytes(ex::height_samples(grid, display))); break;
      case Format::Tiled: {
        const std::string tiles = out.stem().string() + "_tiles.png";
        if (banded) {
          write_file_atomically(out.parent_path() / tiles, ex::band_tileset_png(o.tile_size, bands.levels));
          write_file_atomically(out, ex::tiled_bands_json(bands, band_mode, o.tile_size, tiles, recipe));
        } else {
          write_file_atomically(out.parent_path() / tiles, ex::tileset_png(o.tile_size));
          write_file_atomically(out, ex::tiled_json(mask, o.tile_size, tiles, recipe));
        }
        break;
      }
      case Format::Csv: write_file_atomically(out, banded ? ex::band_csv(bands) : ex::grid_csv(mask)); break;
      case Format::Svg: {
        const ex::Placement place = ex::place_on_paper(w, h, paper, o.margin_mm);
        std::vector<ex::ContourLevel> levels;
        for (float v : contour_values(o, grid, display, report.threshold)) {
          ex::ContourLevel level{v, {}};
          for (const ex::Polyline& line : ex::iso_lines(grid, v)) {
            if (ex::length(line) * place.scale < o.min_length_mm) continue;
            level.lines.push_back(ex::simplify(line, o.tolerance_mm / place.scale));
          }
          levels.push_back(std::move(level));
        }
        std::vector<ex::Polyline> network;
        if (o.skeleton) {
          // The floor's centre lines: the same cells the cave threshold's contour encloses.
          const analysis::Mask skel =
              analysis::skeleton(analysis::network_mask(grid, nullptr, report.threshold));
          for (const ex::Polyline& line : analysis::skeleton_polylines(skel)) {
            if (ex::length(line) * place.scale < o.min_length_mm) continue;
            // Skeleton points are cell centres: anything finer than a cell is staircase, not shape.
            network.push_back(ex::simplify(line, std::max(o.tolerance_mm / place.scale, 1.0)));
          }
        }
        write_file_atomically(
            out, ex::contours_svg(levels, place, o.stroke_mm, recipe, o.skeleton ? &network : nullptr));
        break;
      }
    }
  }
  if (!o.report.empty()) write_file_atomically(o.report, ex::report_json(report));

  if (need_cave) {
    std::printf(
        "export %dx%d (field %dx%d): threshold %.6g, floor %.1f%%, regions %d -> %d, largest %.1f%% of the "
        "floor, "
        "narrowest passage %d, corridors %d\n",
        w, h, field.width, field.height, static_cast<double>(report.threshold), 100 * report.floor_fraction,
        report.regions_before, report.regions_after, 100 * report.largest_share, report.narrowest_passage,
        report.corridors);
  } else {
    std::printf("export %dx%d (field %dx%d)\n", w, h, field.width, field.height);
  }
  for (const std::string& out : o.outs) std::printf("wrote %s\n", out.c_str());
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace

CommandFn add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Grow a field (or read a .npy) and write cave masks, height maps, Tiled maps, CSV or SVG contours");
  add_sim_options(*cmd, o->sim);
  cmd->add_option("--steps", o->steps, "Steps to run before exporting (or give --field)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  cmd->add_option("--field", o->field, "Read the field from this float32 .npy, (H, W) or (S, H, W)")
      ->type_name("FILE.npy");
  cmd->add_option("--channel", o->channel, "With several species: export this one (default: their sum)")
      ->type_name("C")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 63));
  cmd->add_option(
         "--out", o->outs,
         "Output file, repeatable; format by extension: .png cave mask, .r16 raw height, .tmj Tiled map "
         "(+ FILE_tiles.png), .csv grid, .svg contours")
      ->required()
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--format", o->format,
                  "Format of every --out instead of the extension (height: 16-bit PNG)")
      ->check(CLI::IsMember({"mask", "height", "r16", "tiled", "csv", "svg"}))
      ->type_name("mask|height|r16|tiled|csv|svg");
  cmd->add_option("--resolution", o->resolution, "Output grid: WxH or a scale of the field, Nx (bicubic)")
      ->type_name("WxH|Nx")
      ->capture_default_str();
  cmd->add_option("--threshold", o->threshold, "Floor where the (interpolated) field >= V")->type_name("V");
  cmd->add_option("--floor-fraction", o->floor_fraction,
                  "Share of the map that is floor before clean-up (0.45)")
      ->type_name("F")
      ->check(CLI::Range(0.01, 0.99));
  cmd->add_option("--smooth", o->smoothing, "Passes of 3x3 majority smoothing")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 16))
      ->capture_default_str();
  cmd->add_option("--min-island", o->min_island, "Floor and rock islands smaller than K cells are removed")
      ->type_name("K")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 1 << 24))
      ->capture_default_str();
  cmd->add_option(
         "--connect", o->connect,
         "none | largest (keep the largest floor region) | corridors (join regions by shortest corridors)")
      ->check(CLI::IsMember({"none", "largest", "corridors"}))
      ->capture_default_str();
  cmd->add_option("--min-width", o->min_width, "Minimum passage width in cells (widens narrower passages)")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--report", o->report, "Write the cave statistics as JSON here")->type_name("FILE.json");
  cmd->add_option("--tile-size", o->tile_size, "Tiled: tile size in pixels")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  cmd->add_option("--bands", o->bands,
                  "Tiled and CSV: level bands instead of floor/wall, as the cave display's levels: even "
                  "(on the display mapping) or quantile (equal shares); one tile layer per band")
      ->check(CLI::IsMember({"even", "quantile"}))
      ->type_name("even|quantile");
  cmd->add_option("--levels", o->levels, "With --bands: how many (default: the preset's display levels)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(ex::kMinBands, ex::kMaxBands));
  cmd->add_option("--paper", o->paper, "SVG: a4, a3 or WxHmm (turned to the field's orientation)")
      ->capture_default_str();
  cmd->add_option("--margin", o->margin_mm, "SVG: margin in mm")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  cmd->add_option("--contours", o->contours,
                  "SVG: N levels evenly spaced in the display mapping (default: the cave threshold)")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 256));
  cmd->add_option("--contour-at", o->contour_at, "SVG: a contour at this field value (repeatable)")
      ->type_name("V")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--tolerance", o->tolerance_mm, "SVG: simplification tolerance in mm (0 keeps every point)")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--min-length", o->min_length_mm, "SVG: leave out lines shorter than this many mm")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  cmd->add_option("--stroke", o->stroke_mm, "SVG: pen width in mm")
      ->check(CLI::Range(0.01, 10.0))
      ->capture_default_str();
  cmd->add_flag(
      "--skeleton", o->skeleton,
      "SVG: add the network as a single-line drawing, the centre lines of the cells at or above the "
      "cave threshold (--threshold or --floor-fraction), in its own <g id=\"network\">");
  for (const char* name :
       {"--steps",          "--field",      "--channel",    "--format",  "--resolution", "--threshold",
        "--floor-fraction", "--smooth",     "--min-island", "--connect", "--min-width",  "--report",
        "--tile-size",      "--bands",      "--levels",     "--paper",   "--margin",     "--contours",
        "--tolerance",      "--min-length", "--stroke"}) {
    cmd->get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  return [o, cmd] { return run(*o, *cmd); };
}

}  // namespace physarum::app
