// `physarum export`: grows a field (or reads one from .npy) and writes assets other tools open:
// cave masks, 16-bit height maps, raw R16, Tiled maps, CSV grids, SVG contours and the field itself.
// The algorithms live in app/export/; the plan, the writers and the run in app/export_pipeline/
// (export_run.hpp); this file reads the options and hands them over.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/output_options.hpp"
#include "cli/sim_options.hpp"
#include "export/bands.hpp"
#include "export_pipeline/export_plan.hpp"
#include "export_pipeline/export_run.hpp"
#include "export_pipeline/output_formats.hpp"

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

// Every option's name and values: at least as long as the recipe the graph file carries.
std::string options_text(const CLI::App& cmd) {
  std::string t = "physarum " PHYSARUM_VERSION " export";
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const std::string& v : opt->results()) {
      // Appended piece by piece: GCC 12 sees a false overlap (-Wrestrict) in " " + name + ...
      t.append(" ").append(opt->get_name()).append("=").append(v);
    }
  }
  return t;
}

// What the command line said beyond the values: the options given (by each of their names), the
// recipe words and how the run's choice is said.
ExportCommand command_of(const CLI::App& cmd) {
  ExportCommand c;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->count() == 0) continue;
    for (const std::string& name : opt->get_lnames()) c.given.push_back("--" + name);
    for (const std::string& name : opt->get_snames()) c.given.push_back("-" + name);
  }
  c.recipe = recipe_of(cmd);
  c.options = options_text(cmd);
  c.say_chosen = say_chosen;
  return c;
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
         "Output file, repeatable; format by extension. A plane: " + output_formats_help(kPlaneExportOffer) +
             ". A volume: " + output_formats_help(kVolumeExportOffer) +
             "; a mesh is closed and welded, with smooth normals; x, y, z = width, height, depth in "
             "voxels times --voxel-size")
      ->required()
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  std::vector<std::string> names = output_format_names(kPlaneExportOffer);
  for (const std::string& name : output_format_names(kVolumeExportOffer)) {
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  }
  std::string type;
  for (const std::string& name : names) type += (type.empty() ? "" : "|") + name;
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
  return [o, cmd] {
    o->command = command_of(*cmd);
    return run_export(*o);
  };
}

}  // namespace physarum::app
