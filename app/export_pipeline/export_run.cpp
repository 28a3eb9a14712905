#include "export_pipeline/export_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "export/bands.hpp"
#include "export/cave.hpp"
#include "export/grid.hpp"
#include "export_pipeline/export_plan.hpp"
#include "export_pipeline/export_volume.hpp"
#include "export_pipeline/export_writers.hpp"
#include "export_pipeline/output_formats.hpp"
#include "report/render_report.hpp"
#include "run/environment_maps.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/stop.hpp"
#include "sim/text.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

namespace ex = exporter;
using run::kExitOk;
using run::UsageError;

// The field `physarum run` grows from the same recipe, through the one run library (keyframes,
// environment and seed image as every surface has them), from the preset the plan resolved.
FieldPlanes grow_field(const ExportOptions& o, const ExportPlan& plan) {
  run::Run sim(run::with_base(o.sim, plan.preset));
  o.command.say_chosen(plan.chosen);
  step_in_slices(static_cast<uint64_t>(o.steps), [&](uint64_t k) { sim.step(k); });
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
void preset_maps(const ExportPlan& plan, FieldPlanes& f) {
  const size_t n = static_cast<size_t>(f.size.width) * static_cast<size_t>(f.size.height);
  f.food.assign(n, 0.0f);
  f.walls.assign(n, 0);
  const Preset& preset = plan.preset;
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

OutputSource plane_source(const ExportInputs& in) {
  return {.field = {in.field.values.data(), in.field.size, in.field.species}, .grid = &in};
}

OutputSource volume_source(const VolumeInputs& in) {
  return {.field = {in.values.data(), in.size, in.species}, .volume = &in};
}

}  // namespace

int run_export(const ExportOptions& o) {
  const ExportPlan plan = make_export_plan(o);  // everything that can be refused, before the run
  if (plan.volume) {
    const VolumeInputs in = prepare_volume(o, plan);
    if (auto stopped = write_outputs(
            plan, [&](const ExportOutput& out) { out.format->write(out.path, volume_source(in)); }, [] {})) {
      return *stopped;
    }
    print_volume_summary(plan, in);
    return kExitOk;
  }
  FieldPlanes field = o.field.empty() ? grow_field(o, plan) : read_field(o);
  if (!o.graph.empty() && !o.field.empty()) preset_maps(plan, field);
  if (o.channel >= 0) field = one_channel(std::move(field), o.channel);
  ExportInputs in{.options = o, .plan = plan, .field = std::move(field), .recipe = o.command.recipe};
  derive(o, plan, in);
  const auto stopped = write_outputs(
      plan, [&](const ExportOutput& out) { out.format->write(out.path, plane_source(in)); },
      [&] {
        if (!o.graph.empty() && !write_export_graph(o, in)) throw_if_stopped();
      });
  if (stopped) return *stopped;
  if (!o.report.empty()) write_file_atomically(o.report, ex::report_json(in.report));
  print_summary(plan, in);
  return kExitOk;
}

}  // namespace physarum::app
