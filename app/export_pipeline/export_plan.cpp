#include "export_pipeline/export_plan.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <regex>

#include "export/output_paths.hpp"
#include "export_pipeline/export_volume.hpp"
#include "export_pipeline/export_writers.hpp"
#include "export_pipeline/output_formats.hpp"
#include "report/render_report.hpp"
#include "sim/npy.hpp"
#include "sim/text.hpp"

namespace physarum::app {
namespace {

using run::UsageError;

namespace fs = std::filesystem;

const OutputFormat& format_of(const std::string& out, const std::string& forced) {
  if (!forced.empty()) {
    if (const OutputFormat* f = output_format_named(forced, kPlaneExportOffer)) return *f;
    throw UsageError("--format " + forced + ": expected one of " +
                     or_list(output_format_names(kPlaneExportOffer)));
  }
  if (const OutputFormat* f = output_format_for(out, kPlaneExportOffer)) return *f;
  throw UsageError("--out " + out + ": cannot tell the format from the extension '" +
                   lowercase_extension(out) + "' (use " + output_extensions(kPlaneExportOffer) +
                   ", or --format)");
}

// Options that contradict each other, or ask for a field both to be grown and read.
void check_option_pairs(const ExportOptions& o) {
  if (o.field.empty() && o.steps <= 0)
    throw UsageError("export needs --steps N (to grow a field) or --field FILE.npy");
  if (!o.field.empty() && o.steps > 0) throw UsageError("--steps and --field exclude each other");
  if (o.threshold && o.floor_fraction)
    throw UsageError("--threshold and --floor-fraction exclude each other");
  if (o.levels > 0 && o.bands.empty()) throw UsageError("--levels needs --bands even|quantile");
  if (o.field.empty()) return;
  // They would be silently ignored: the field is already grown.
  for (const char* name :
       {"--size", "--agents", "--seed", "--image", "--image-fit", "--backend", "--threads"}) {
    if (o.command.has(name)) {
      throw UsageError(std::string(name) +
                       " shapes a grown field; with --field only --preset and --set (its [display]) apply");
    }
  }
}

std::vector<ExportOutput> checked_outputs(const ExportOptions& o) {
  std::vector<ExportOutput> outputs;
  OutputPaths paths;
  for (const std::string& out : o.outs) {
    outputs.push_back({out, &format_of(out, o.format)});
    paths.add("--out", out);
    if (outputs.back().format->name == "tiled") paths.add("the tileset of --out " + out, tileset_path(out));
  }
  if (!o.report.empty()) paths.add("--report", o.report);
  if (!o.graph.empty()) {
    check_graph_file(o.graph);
    paths.add("--graph", o.graph);
  }
  const bool svg =
      std::ranges::any_of(outputs, [](const ExportOutput& e) { return e.format->name == "svg"; });
  if (o.skeleton && !svg)
    throw UsageError("--skeleton draws the network into an SVG: give an --out FILE.svg");
  return outputs;
}

bool needs_cave(const ExportOptions& o, const std::vector<ExportOutput>& outputs) {
  const bool banded = !o.bands.empty();
  return !o.report.empty() || std::ranges::any_of(outputs, [&](const ExportOutput& e) {
    return e.format->cave == CaveUse::Always || (!banded && e.format->cave == CaveUse::UnlessBanded);
  });
}

// A grown field's size and species are known before the run: refuse what it cannot have first.
void check_against_run(const ExportOptions& o, const Preset& preset) {
  (void)export_resolution(o.resolution, preset.run.size);
  const int species = preset.species.count();
  if (o.channel >= species) {
    throw UsageError("--channel " + std::to_string(o.channel) + ": the run has " + std::to_string(species) +
                     " species");
  }
}

// The field's size and planes before it is grown (the recipe's) or read (the .npy's header).
OutputShape field_shape(const ExportOptions& o, const Preset& preset) {
  OutputShape s{.options = &o};
  if (o.field.empty()) {
    s.field = preset.run.size;
    s.planes = preset.species.count();
  } else {
    NpyArray header;
    try {
      header = read_npy_planes_shape(o.field);
    } catch (const Error& e) {
      throw UsageError(std::string("--field: ") + e.what());
    }
    s.field = {header.width, header.height};
    s.planes = header.planes;
  }
  return s;
}

// Every output's estimate and what the field, its grid and the clean-up hold while they are
// written: the field read or grown (4 bytes a cell per plane), its sum and the resampled grid (4
// bytes a cell each), the cave clean-up's arrays (about 20 bytes a cell) and the band map with
// the sorted copy quantile bands take (5 bytes a cell).
void check_output_budget(const ExportOptions& o, const ExportPlan& plan, const Preset& preset) {
  OutputShape s = field_shape(o, preset);
  s.grid = export_resolution(o.resolution, s.field);
  s.grid_text = "a " + format_size(s.grid) + " grid (--resolution " + o.resolution + " of the " +
                format_size(s.field) + " field)";
  s.bands = band_count(o, plan.display);
  s.paper_mm = std::max(plan.paper.width_mm, plan.paper.height_mm);
  const uint64_t field = static_cast<uint64_t>(s.field.width) * static_cast<uint64_t>(s.field.height);
  const uint64_t grid = static_cast<uint64_t>(s.grid.width) * static_cast<uint64_t>(s.grid.height);
  OutputBudget budget;
  budget.add("the field and its grid", s.grid_text,
             {0, 4 * field * static_cast<uint64_t>(s.planes + 1) + 4 * grid +
                     (plan.needs_cave ? 20 * grid : 0) + (s.bands > 0 ? 5 * grid : 0)});
  if (o.channel >= 0) s.planes = 1;
  for (const ExportOutput& out : plan.outputs) {
    OutputEstimate e = out.format->estimate(s);
    budget.add("--out " + out.path.string(), std::move(e.because), e.cost);
  }
  if (!o.graph.empty()) {
    const uint64_t graph = graph_framing_bound(o.command.options);
    budget.add("--graph " + o.graph, "its framing; its nodes and edges are checked once measured",
               {graph, graph});
  }
  budget.check(o.output_budget);
}

}  // namespace

bool ExportCommand::has(std::string_view name) const {
  return std::ranges::find(given, name) != given.end();
}

int band_count(const ExportOptions& o, const DisplayParams& display) {
  if (o.bands.empty()) return 0;
  return o.levels > 0 ? o.levels : display.levels;
}

ExportPlan make_export_plan(const ExportOptions& o) {
  check_option_pairs(o);
  ExportPlan plan;
  plan.preset = run::resolve(o.sim, &plan.chosen);
  const Preset& preset = plan.preset;
  plan.display = preset.display;
  if (exports_volume(o, preset)) {
    plan_volume(o, preset, plan);
    return plan;
  }
  for (const char* name : {"--iso", "--triangles", "--voxel-size", "--bits", "--vdb-cutoff"}) {
    if (o.command.has(name)) {
      throw UsageError(
          std::string(name) +
          " shapes a volume's export; this field is a plane (a volume has a 3-D --size, a volume "
          "preset, or is read from a (D, H, W) or (S, D, H, W) .npy)");
    }
  }
  plan.outputs = checked_outputs(o);
  plan.needs_cave = needs_cave(o, plan.outputs);
  try {
    plan.paper = exporter::parse_paper(o.paper);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  if (o.field.empty()) check_against_run(o, preset);
  check_output_budget(o, plan, preset);
  return plan;
}

Size export_resolution(const std::string& s, Size field) {
  static const std::regex scale(R"(([0-9]+(\.[0-9]+)?)x)");
  std::smatch m;
  int w = 0, h = 0;
  if (std::regex_match(s, m, scale)) {
    const std::string digits = m[1].str();
    double f = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), f).ec != std::errc()) {
      // Too many digits for a double: far too large, unless the whole part is zero (far too small).
      f = digits.substr(0, digits.find('.')).find_first_not_of('0') == std::string::npos
              ? 0
              : std::numeric_limits<double>::infinity();
    }
    // Checked in doubles: a large scale must not wrap an int into a negative size.
    const double wd = std::round(field.width * f), hd = std::round(field.height * f);
    if (wd > kMaxSide || hd > kMaxSide) {
      throw UsageError("--resolution " + s + ": gives more than " + std::to_string(kMaxSide) +
                       " on a side, expected sides 2.." + std::to_string(kMaxSide));
    }
    w = static_cast<int>(wd);
    h = static_cast<int>(hd);
  } else if (s.find_first_not_of("0123456789xX") == std::string::npos) {
    try {
      const Size size = parse_size(s);
      w = size.width;
      h = size.height;
    } catch (const Error& e) {
      throw UsageError("--resolution " + s + ": " + e.what());
    }
  } else {
    throw UsageError("--resolution " + s + ": expected WxH (e.g. 2048x1024) or a scale Nx (e.g. 4x)");
  }
  const std::string gives = "--resolution " + s + ": gives " + std::to_string(w) + "x" + std::to_string(h);
  if (w < 2 || h < 2 || w > kMaxSide || h > kMaxSide) {
    throw UsageError(gives + ", expected sides 2.." + std::to_string(kMaxSide));
  }
  // The clean-up keeps several arrays of this many cells (labels, search parents): ~20 B a cell.
  constexpr int64_t kMaxCells = int64_t{8192} * 8192;
  if (int64_t{w} * h > kMaxCells) throw UsageError(gives + ", more than 8192x8192 cells");
  return {w, h};
}

}  // namespace physarum::app
