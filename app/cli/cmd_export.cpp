// `physarum export`: grows a field (or reads one from .npy) and writes assets other tools open:
// cave masks, 16-bit height maps, raw R16, Tiled maps, CSV grids, SVG contours and the field itself.
// The algorithms live in app/export/; the plan and the writers in cli/export_plan.hpp and
// cli/export_writers.hpp; this file reads the options and runs plan, field and writers in turn.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/export_plan.hpp"
#include "cli/export_volume.hpp"
#include "cli/export_writers.hpp"
#include "cli/output_options.hpp"
#include "cli/sim_options.hpp"
#include "export/bands.hpp"
#include "export/cave.hpp"
#include "export/grid.hpp"
#include "export/output_budget.hpp"
#include "report/render_report.hpp"
#include "run/environment_maps.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/stop.hpp"
#include "sim/text.hpp"
#include "video/signals.hpp"

namespace physarum::app {
namespace {

namespace ex = exporter;

// The options that shaped the result, as key=value words (no "--", so it fits an XML comment);
// where the files go is left out, so equal recipes give equal bytes.
std::string recipe_of(const CLI::App& cmd) {
  std::string r = "physarum " PHYSARUM_VERSION " export";
  for (const CLI::Option* o : cmd.get_options()) {
    const std::string name = o->get_lnames().empty() ? std::string() : o->get_lnames().front();
    if (o->count() == 0 || name.empty() || name == "out" || name == "report" || name == "graph" ||
        name == "help" || name == "output-budget")
      continue;
    for (const std::string& v : o->results()) r += " " + name + "=" + v;
  }
  return r;
}

// The field `physarum run` grows from the same recipe, through the one run library (keyframes,
// environment and seed image as every surface has them).
FieldPlanes grow_field(const run::Recipe& recipe, int steps) {
  run::Run sim(recipe);
  say_chosen(sim.chosen());
  step_in_slices(static_cast<uint64_t>(steps), [&](uint64_t k) { sim.step(k); });
  Backend& b = sim.backend();
  FieldPlanes f;
  b.read_field(f.values);
  f.size = b.size();
  f.species = b.species_count();
  b.read_food(f.food);
  b.read_walls(f.walls);
  return f;
}

FieldPlanes read_field(const ExportOptions& o) {
  NpyArray a;
  try {
    a = read_npy_planes(o.field);
  } catch (const Error& e) {
    throw UsageError(std::string("--field: ") + e.what());  // a usage error (exit 2), as --merge
  }
  // A NaN or infinity would take over every range (min, max, quantiles) and blank the whole map.
  const auto bad = std::ranges::count_if(a.data, [](float v) { return !std::isfinite(v); });
  if (bad > 0) {
    throw UsageError("--field " + o.field + ": " + std::to_string(bad) + " of " +
                     std::to_string(a.data.size()) +
                     " cells are not finite numbers (NaN or infinity); a field has finite values only");
  }
  if (o.channel >= a.planes) {
    throw UsageError("--channel " + std::to_string(o.channel) + ": '" + o.field + "' has " +
                     std::to_string(a.planes) + " plane(s)");
  }
  return {std::move(a.data), {a.width, a.height}, a.planes, {}, {}};
}

// A field read from .npy grew on the preset's maps, if it names any: loaded at the field's size.
void preset_maps(const ExportOptions& o, FieldPlanes& f) {
  const size_t n = static_cast<size_t>(f.size.width) * static_cast<size_t>(f.size.height);
  f.food.assign(n, 0.0f);
  f.walls.assign(n, 0);
  const Preset preset = run::resolve(o.sim);
  if (preset.environment.food.empty() && preset.environment.walls.empty()) return;
  Environment env = run::load_environment(preset.environment, preset.species, f.size);
  if (!env.food.empty()) f.food = std::move(env.food);
  if (!env.walls.empty()) f.walls = std::move(env.walls);
}

// --graph: the network of the field (at its own size, not --resolution's) by the report's rule
// (render --report), against the run's towns. False after Ctrl-C or SIGTERM.
bool write_export_graph(const ExportOptions& o, const ExportInputs& in) {
  const std::optional<analysis::NetworkReport> r =
      measure_network(ReportOptions{}, in.field.size, in.field.values, in.field.food, in.field.walls);
  if (!r) return false;
  write_graph_file(o.graph, *r, in.recipe, o.output_budget);
  return true;
}

// --channel's plane alone, as (H, W).
FieldPlanes one_channel(FieldPlanes f, int channel) {
  const size_t n = static_cast<size_t>(f.size.width) * static_cast<size_t>(f.size.height);
  const auto first = f.values.begin() + static_cast<std::ptrdiff_t>(n * static_cast<size_t>(channel));
  return {std::vector<float>(first, first + static_cast<std::ptrdiff_t>(n)), f.size, 1, std::move(f.food),
          std::move(f.walls)};
}

ex::Grid sum_of_planes(const FieldPlanes& f) {
  ex::Grid g;
  g.width = f.size.width;
  g.height = f.size.height;
  const size_t n = static_cast<size_t>(g.width) * static_cast<size_t>(g.height);
  g.values.assign(n, 0.0f);
  for (size_t p = 0; p < static_cast<size_t>(f.species); ++p) {
    for (size_t i = 0; i < n; ++i) g.values[i] += f.values[p * n + i];
  }
  return g;
}

// The grid at the output resolution, and the cave or bands the plan's outputs need from it.
void derive(const ExportOptions& o, const ExportPlan& plan, ExportInputs& in) {
  const Size res = export_resolution(o.resolution, in.field.size);
  in.grid = ex::resample_bicubic(sum_of_planes(in.field), res.width, res.height);
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
  cave.stop = stop_on_signal();
  in.banded = !o.bands.empty();
  in.band_mode = o.bands == "quantile" ? ex::BandMode::Quantile : ex::BandMode::Even;
  if (in.banded) {
    in.bands = ex::band_map(in.grid, in.band_mode, band_count(o, plan.display), plan.display);
  }
  if (plan.needs_cave) {
    in.mask = ex::make_cave(in.grid, cave, in.report);
  } else {
    in.report.threshold = cave.threshold ? *cave.threshold : ex::quantile(in.grid, 1.0 - cave.floor_fraction);
  }
}

void print_summary(const ExportPlan& plan, const ExportInputs& in) {
  const int w = in.grid.width, h = in.grid.height;
  const Size f = in.field.size;
  const ex::CaveReport& r = in.report;
  if (plan.needs_cave) {
    std::printf(
        "export %dx%d (field %dx%d): threshold %.6g, floor %.1f%%, regions %d -> %d, largest %.1f%% of the "
        "floor, narrowest passage %d, corridors %d\n",
        w, h, f.width, f.height, static_cast<double>(r.threshold), 100 * r.floor_fraction, r.regions_before,
        r.regions_after, 100 * r.largest_share, r.narrowest_passage, r.corridors);
  } else {
    std::printf("export %dx%d (field %dx%d)\n", w, h, f.width, f.height);
  }
  for (const ExportOutput& out : plan.outputs)
    std::printf("wrote %s\n", printable(out.path.string()).c_str());
  if (!in.options.graph.empty()) std::printf("wrote %s\n", printable(in.options.graph).c_str());
  std::fflush(stdout);
}

// Writes each output in turn and then `more` (the graph). After Ctrl-C or SIGTERM, once some are
// written (each whole or untouched: written atomically), says which and returns the exit status.
template <class Write, class More>
std::optional<int> write_outputs(const ExportPlan& plan, Write&& write, More&& more) {
  size_t written = 0;
  try {
    for (const ExportOutput& out : plan.outputs) {
      throw_if_stopped();
      write(out);
      ++written;
    }
    more();
    throw_if_stopped();
  } catch (const Stopped&) {
    if (written == 0) throw;
    std::string kept;
    for (size_t k = 0; k < written; ++k) kept += (k ? ", " : "") + printable(plan.outputs[k].path.string());
    return report_stopped("export",
                          ("wrote " + kept + " before it; the other outputs were not written").c_str());
  }
  return std::nullopt;
}

int run(const ExportOptions& o, const CLI::App& cmd) {
  const ExportPlan plan = make_export_plan(o, cmd);  // everything that can be refused, before the run
  if (plan.volume) {
    const VolumeInputs in = prepare_volume(o, plan, recipe_of(cmd));
    if (auto stopped = write_outputs(
            plan, [&](const ExportOutput& out) { out.volume_writer->write(out.path, in); }, [] {})) {
      return *stopped;
    }
    print_volume_summary(plan, in);
    return kExitOk;
  }
  FieldPlanes field = o.field.empty() ? grow_field(o.sim, o.steps) : read_field(o);
  if (!o.graph.empty() && !o.field.empty()) preset_maps(o, field);
  if (o.channel >= 0) field = one_channel(std::move(field), o.channel);
  ExportInputs in{.options = o, .plan = plan, .field = std::move(field), .recipe = recipe_of(cmd)};
  derive(o, plan, in);
  const auto stopped = write_outputs(
      plan, [&](const ExportOutput& out) { out.writer->write(out.path, in); },
      [&] {
        if (!o.graph.empty() && !write_export_graph(o, in)) throw_if_stopped();
      });
  if (stopped) return *stopped;
  if (!o.report.empty()) write_file_atomically(o.report, ex::report_json(in.report));
  print_summary(plan, in);
  return kExitOk;
}

// What to grow or read, and which of its species.
void add_field_options(CLI::App& cmd, ExportOptions& o) {
  add_sim_options(cmd, o.sim);
  cmd.add_option("--steps", o.steps, "Steps to run before exporting (or give --field)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  cmd.add_option("--field", o.field,
                 "Read the field from this float32 .npy: a plane's (H, W) or (S, H, W), a volume's (D, H, W) "
                 "(D > 4, or any D with a volume's output) or (S, D, H, W)")
      ->type_name("FILE.npy");
  cmd.add_option("--channel", o.channel, "With several species: export this one (default: their sum)")
      ->type_name("C")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 63));
}

void add_output_options(CLI::App& cmd, ExportOptions& o) {
  cmd.add_option(
         "--out", o.outs,
         "Output file, repeatable; format by extension. A plane: .png cave mask, .r16 raw height, .tmj Tiled "
         "map (+ FILE_tiles.png), .csv grid, .svg contours, .npy the field as `physarum run` writes it (not "
         "resampled). A volume: .npy the field, .png a stack of 16-bit (--bits) greyscale slices "
         "(FILE_0000.png, "
         "FILE_0001.png, ... one a z, or name the digits with ###: what Fiji's Import > Image Sequence and "
         "3D Slicer read), .vdb OpenVDB fog volumes (one grid a species, \"density\" for one), .ply, .obj "
         "or .glb the iso-surface mesh (closed, welded, smooth normals; x, y, z = width, height, depth in "
         "voxels times --voxel-size)")
      ->required()
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  std::vector<std::string> names;
  for (const FormatWriter& w : format_writers()) names.emplace_back(w.name);
  std::string type = format_writer_names("|");
  for (const VolumeWriter& w : volume_writers()) {
    if (std::ranges::find(names, w.name) != names.end()) continue;
    names.emplace_back(w.name);
    type += "|" + std::string(w.name);
  }
  cmd.add_option("--format", o.format,
                 "Format of every --out instead of the extension (height: 16-bit PNG; slices: a volume's PNG "
                 "stack)")
      ->check(CLI::IsMember(names))
      ->type_name(type);
  cmd.add_option("--resolution", o.resolution, "Output grid: WxH or a scale of the field, Nx (bicubic)")
      ->type_name("WxH|Nx")
      ->capture_default_str();
  add_output_budget_option(cmd, o.output_budget);
}

void add_cave_options(CLI::App& cmd, ExportOptions& o) {
  cmd.add_option("--threshold", o.threshold, "Floor where the (interpolated) field >= V")
      ->type_name("V")
      ->check(finite_number());
  cmd.add_option("--floor-fraction", o.floor_fraction,
                 "Share of the map that is floor before clean-up (0.45); a volume: of the voxels inside its "
                 "mesh (0.1)")
      ->check(finite_number())
      ->type_name("F")
      ->check(CLI::Range(0.01, 0.99));
  cmd.add_option("--smooth", o.smoothing, "Passes of 3x3 majority smoothing")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 16))
      ->capture_default_str();
  cmd.add_option("--min-island", o.min_island,
                 "Floor and rock islands smaller than K cells are removed (a volume: inside blobs and "
                 "enclosed voids of fewer than K voxels)")
      ->type_name("K")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 1 << 24))
      ->capture_default_str();
  cmd.add_option(
         "--connect", o.connect,
         "none | largest (keep the largest floor region) | corridors (join regions by shortest corridors); a "
         "volume's inside likewise, by face-connected voxels, corridors --min-width voxels square")
      ->check(CLI::IsMember({"none", "largest", "corridors"}))
      ->capture_default_str();
  cmd.add_option("--min-width", o.min_width, "Minimum passage width in cells (widens narrower passages)")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd.add_option("--report", o.report, "Write the cave statistics as JSON here")->type_name("FILE.json");
  cmd.add_option("--graph", o.graph,
                 "Write the network as a graph, measured as render --report measures it (towns from the "
                 "run's food map): GraphML (.graphml) or node-link JSON (.json)")
      ->type_name("FILE");
}

void add_volume_options(CLI::App& cmd, ExportOptions& o) {
  cmd.add_option("--iso", o.iso,
                 "A volume's mesh: the surface where the field is V, voxels >= V inside (default: the level "
                 "with --floor-fraction of the voxels inside, 0.1 for a volume); --min-island and --connect "
                 "clean the inside as they clean a cave's floor, in 3-D")
      ->type_name("V")
      ->check(finite_number());
  cmd.add_option(
         "--triangles", o.triangles,
         "A volume's mesh: simplify to at most N triangles (meshoptimizer), kept closed and manifold: "
         "a simplification that would break the surface is tried with fewer collapses, or left out; "
         "0 keeps every triangle")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 32))
      ->capture_default_str();
  cmd.add_option("--voxel-size", o.voxel_size, "A volume's mesh and .vdb: world units a voxel")
      ->type_name("S")
      ->check(finite_number())
      ->check(CLI::Range(1e-6, 1e6))
      ->capture_default_str();
  cmd.add_option("--bits", o.bits,
                 "A volume's PNG slices: 8 or 16 bits a sample, the volume's minimum to its maximum")
      ->check(CLI::IsMember({8, 16}))
      ->capture_default_str();
  cmd.add_option("--vdb-cutoff", o.vdb_cutoff,
                 "A volume's .vdb: voxels at most this share of the largest value stay inactive (read as 0), "
                 "which keeps the file sparse; 0 keeps every non-zero voxel")
      ->type_name("F")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
}

void add_tiled_options(CLI::App& cmd, ExportOptions& o) {
  cmd.add_option("--tile-size", o.tile_size, "Tiled: tile size in pixels")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  cmd.add_option("--bands", o.bands,
                 "Tiled and CSV: level bands instead of floor/wall, as the cave display's levels: even "
                 "(on the display mapping) or quantile (equal shares); one tile layer per band")
      ->check(CLI::IsMember({"even", "quantile"}))
      ->type_name("even|quantile");
  cmd.add_option("--levels", o.levels, "With --bands: how many (default: the preset's display levels)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(ex::kMinBands, ex::kMaxBands));
}

void add_svg_options(CLI::App& cmd, ExportOptions& o) {
  cmd.add_option("--paper", o.paper, "SVG: a4, a3 or WxHmm (turned to the field's orientation)")
      ->capture_default_str();
  cmd.add_option("--margin", o.margin_mm, "SVG: margin in mm")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  cmd.add_option("--contours", o.contours,
                 "SVG: N levels evenly spaced in the display mapping (default: the cave threshold)")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 256));
  cmd.add_option("--contour-at", o.contour_at, "SVG: a contour at this field value (repeatable)")
      ->check(finite_number())
      ->type_name("V")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd.add_option("--tolerance", o.tolerance_mm, "SVG: simplification tolerance in mm (0 keeps every point)")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd.add_option("--min-length", o.min_length_mm, "SVG: leave out lines shorter than this many mm")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  cmd.add_option("--stroke", o.stroke_mm, "SVG: pen width in mm")
      ->check(finite_number())
      ->check(CLI::Range(0.01, 10.0))
      ->capture_default_str();
  cmd.add_flag("--skeleton", o.skeleton,
               "SVG: add the network as a single-line drawing, the centre lines of the cells at or above the "
               "cave threshold (--threshold or --floor-fraction), in its own <g id=\"network\">");
}

}  // namespace

CommandFn add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand("export",
                                     "Grow a field (or read a .npy) and write cave masks, height maps, Tiled "
                                     "maps, CSV, SVG contours or the field itself; a volume as slices, "
                                     "OpenVDB or an iso-surface mesh");
  add_field_options(*cmd, *o);
  add_output_options(*cmd, *o);
  add_cave_options(*cmd, *o);
  add_tiled_options(*cmd, *o);
  add_svg_options(*cmd, *o);
  add_volume_options(*cmd, *o);
  for (const char* name :
       {"--steps",          "--field",      "--channel",    "--format",    "--resolution",    "--threshold",
        "--floor-fraction", "--smooth",     "--min-island", "--connect",   "--min-width",     "--report",
        "--graph",          "--tile-size",  "--bands",      "--levels",    "--paper",         "--margin",
        "--contours",       "--tolerance",  "--min-length", "--stroke",    "--output-budget", "--iso",
        "--triangles",      "--voxel-size", "--bits",       "--vdb-cutoff"}) {
    cmd->get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  return [o, cmd] { return run(*o, *cmd); };
}

}  // namespace physarum::app
