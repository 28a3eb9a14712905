// `physarum atlas`: one world per cell of a grid over two registry keys, grown headless, drawn as
// `render` draws a still and laid out as a mosaic with labelled axes (gnuplot draws the frame);
// per-world statistics as CSV and the stack of fields as .npy.
#include <glad/gl.h>

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "atlas/grid.hpp"
#include "atlas/mosaic.hpp"
#include "atlas/worlds.hpp"
#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/offscreen.hpp"
#include "cli/output_budget.hpp"
#include "cli/output_paths.hpp"
#include "cli/sim_options.hpp"
#include "render/colormap.hpp"
#include "render/egl_context.hpp"
#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "render/png.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/text.hpp"
#include "video/process.hpp"

namespace physarum::app {
namespace {

struct AtlasOptions {
  run::Recipe sim;
  std::string x, y;
  uint64_t steps = 500;
  int tile = 160;
  std::string out, csv, npy;
  std::string output_budget;
};

// The preset's own aspect at `tile` cells wide, unless --size chose the worlds' size; the run
// library keeps the preset's density when --size comes without --agents.
run::Recipe sized_recipe(const AtlasOptions& o) {
  run::Recipe r = o.sim;
  if (r.size.empty()) {
    const Size s = run::resolve(r).run.size;
    const int h =
        std::max(1, static_cast<int>(std::lround(static_cast<double>(o.tile) * s.height / s.width)));
    r.size = format_size({o.tile, h});
  }
  return r;
}

// Every output checked before a world grows: writable, distinct, the right kind, within budget.
void check_outputs(const AtlasOptions& o, const Preset& p, const atlas::Axis& x, const atlas::Axis& y) {
  if (lowercase_extension(o.out) != ".png") throw UsageError("--out " + o.out + ": the atlas is a .png");
  if (!o.npy.empty() && lowercase_extension(o.npy) != ".npy")
    throw UsageError("--npy " + o.npy + ": the stack of fields is a .npy");
  OutputPaths paths;
  paths.add("--out", o.out);
  if (!o.csv.empty()) paths.add("--csv", o.csv);
  if (!o.npy.empty()) paths.add("--npy", o.npy);
  OutputBudget budget;
  const Size s = p.run.size;
  const int worlds = x.n * y.n;
  // The canvas, the bare mosaic and every tile are in memory at once while the picture is made.
  const atlas::MosaicLayout l = atlas::layout_for(x.n, y.n, s.width, s.height);
  const uint64_t pixels =
      uint64_t{4} * static_cast<uint64_t>(l.canvas_width()) * static_cast<uint64_t>(l.canvas_height());
  const uint64_t png = png_bytes_bound(l.canvas_width(), l.canvas_height(), 4, 1);
  budget.add("--out " + o.out,
             std::to_string(x.n) + " x " + std::to_string(y.n) + " tiles of " + format_size(s),
             {png, png + 3 * pixels});
  const uint64_t fields = uint64_t{4} * static_cast<uint64_t>(worlds) * static_cast<uint64_t>(s.width) *
                          static_cast<uint64_t>(s.height);
  if (!o.npy.empty())
    budget.add("--npy " + o.npy, std::to_string(worlds) + " fields of " + format_size(s),
               {fields + 128, fields});
  budget.check(o.output_budget);
}

// The estimate from a probe: the first world made, warmed up (the first steps start threads and
// sort the agents: on 16 threads they took 50 times a later step), grown a few steps and measured,
// each part timed, so it holds on any machine and backend.
std::string estimate_line(const run::Recipe& first, const Preset& p, int worlds, uint64_t steps) {
  constexpr uint64_t kWarmSteps = 5;
  constexpr uint64_t kProbeSteps = 20;
  const auto made = std::chrono::steady_clock::now();
  run::Run probe(first);
  const double make_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - made).count();
  probe.step(kWarmSteps);
  const auto t0 = std::chrono::steady_clock::now();
  probe.step(kProbeSteps);
  std::vector<float> field;
  probe.backend().read_field(field);
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<uint8_t> walls;
  probe.backend().read_walls(walls);
  field.resize(walls.size());  // the first channel stands in for the sum: the same work
  (void)atlas::world_stats(probe.backend().size(), field, walls);
  const auto t2 = std::chrono::steady_clock::now();
  const double step_s = std::chrono::duration<double>(t1 - t0).count() / kProbeSteps;
  const double world_s =
      make_s + static_cast<double>(steps) * step_s + std::chrono::duration<double>(t2 - t1).count();
  char text[256];
  std::snprintf(text, sizeof text, "%d worlds of %s with %s agents, %llu steps: about %.0f s on %s", worlds,
                format_size(p.run.size).c_str(), format_count(p.run.agents).c_str(),
                static_cast<unsigned long long>(steps), std::ceil(worlds * world_s),
                probe.backend().name().c_str());
  return text;
}

// Each world drawn as `render` draws its still: the preset's palette and display, the field's
// own size, the environment's overlays; rows from the top.
std::vector<std::vector<uint8_t>> draw_tiles(const std::vector<atlas::WorldResult>& worlds) {
  render::EglContext egl(false);
  render::FieldRenderer renderer;
  const render::PaletteSet palettes = render::load_palettes(render::palette_dir());
  std::vector<std::vector<uint8_t>> tiles;
  for (const atlas::WorldResult& w : worlds) {
    OffscreenTarget target(w.size.width, w.size.height);
    renderer.set_palette(palette_named(palettes, w.preset.display.palette));
    renderer.set_environment_maps(w.food, w.walls, w.size);
    renderer.upload_host_field(w.planes.data(), w.size, render::channel_colours(w.species));
    renderer.draw(w.preset.display, render::View{}, w.size.width, w.size.height);
    tiles.push_back(render::read_framebuffer_rgba(w.size.width, w.size.height));
    render::check_gl("drawing an atlas tile");
  }
  return tiles;
}

void write_picture(const AtlasOptions& o, const atlas::Axis& x, const atlas::Axis& y,
                   const std::vector<atlas::WorldResult>& worlds, bool framed) {
  const Size s = worlds.front().size;
  const atlas::MosaicLayout l = atlas::layout_for(x.n, y.n, s.width, s.height);
  const std::vector<uint8_t> bare = atlas::bare_mosaic(l, draw_tiles(worlds));
  if (!framed) {
    render::write_png_rgba(o.out, bare.data(), x.n * s.width, y.n * s.height);
    return;
  }
  const std::string title = (o.sim.preset.empty() ? std::string("defaults") : o.sim.preset) + ", " +
                            std::to_string(o.steps) + " steps";
  const std::vector<uint8_t> canvas = atlas::framed_mosaic(l, bare, x, y, title);
  render::write_png_rgba(o.out, canvas.data(), l.canvas_width(), l.canvas_height());
}

std::string csv_number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

void write_csv(const std::string& file, const atlas::Axis& x, const atlas::Axis& y,
               const std::vector<atlas::WorldResult>& worlds) {
  std::string csv = "ix,iy," + x.key + "," + y.key + ",mean,variance,wavelength,coverage,junctions\n";
  for (int iy = 0; iy < y.n; ++iy) {
    for (int ix = 0; ix < x.n; ++ix) {
      const atlas::WorldStats& s = worlds[static_cast<size_t>(iy * x.n + ix)].stats;
      csv += std::to_string(ix) + "," + std::to_string(iy) + "," + csv_number(x.value(ix)) + "," +
             csv_number(y.value(iy)) + "," + csv_number(s.mean) + "," + csv_number(s.variance) + "," +
             csv_number(s.wavelength) + "," + csv_number(s.coverage) + "," + std::to_string(s.junctions) +
             "\n";
    }
  }
  write_file_atomically(file, csv);
}

void write_stack(const std::string& file, const atlas::Axis& x, const atlas::Axis& y,
                 const std::vector<atlas::WorldResult>& worlds) {
  const Size s = worlds.front().size;
  std::vector<float> stack;
  stack.reserve(worlds.size() * worlds.front().field.size());
  for (const atlas::WorldResult& w : worlds) stack.insert(stack.end(), w.field.begin(), w.field.end());
  write_npy_shape(file, stack.data(), {y.n, x.n, s.height, s.width});
}

int run_atlas(AtlasOptions o) {
  o.sim = sized_recipe(o);
  std::string chosen;
  const Preset base = run::resolve(o.sim, &chosen);
  const atlas::Axis x = atlas::parse_axis("--x", o.x, base);
  const atlas::Axis y = atlas::parse_axis("--y", o.y, base);
  atlas::check_axes(o.sim, x, y);
  const int worlds = x.n * y.n;
  check_outputs(o, base, x, y);
  say_chosen(chosen);
  const bool framed = find_on_path("gnuplot").has_value();
  if (!framed) {
    std::fprintf(stderr,
                 "physarum atlas: gnuplot is not installed, so %s is the bare mosaic without axes "
                 "(sudo apt-get install gnuplot-nox)\n",
                 o.out.c_str());
  }
  std::vector<run::Recipe> recipes;
  for (int iy = 0; iy < y.n; ++iy)
    for (int ix = 0; ix < x.n; ++ix) recipes.push_back(atlas::world_recipe(o.sim, x, ix, y, iy));
  std::fprintf(stderr, "physarum atlas: %s\n", estimate_line(recipes.front(), base, worlds, o.steps).c_str());
  const auto t0 = std::chrono::steady_clock::now();
  // A counter in place on a terminal; in a log, where each \r would be kept, only the summary.
  const bool counter = ::isatty(STDERR_FILENO) != 0;
  const std::vector<atlas::WorldResult> grown = atlas::grow_worlds(recipes, o.steps, [&](size_t i) {
    if (!counter) return;
    std::fprintf(stderr, "\rphysarum atlas: world %zu of %d", i + 1, worlds);
    if (static_cast<int>(i + 1) == worlds) std::fprintf(stderr, "\n");
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  write_picture(o, x, y, grown, framed);
  if (!o.csv.empty()) write_csv(o.csv, x, y, grown);
  if (!o.npy.empty()) write_stack(o.npy, x, y, grown);
  std::printf("physarum atlas: %d worlds in %.1f s (%.2f worlds/s); wrote %s%s%s\n", worlds, seconds,
              seconds > 0 ? worlds / seconds : 0.0, o.out.c_str(),
              o.csv.empty() ? "" : (", " + o.csv).c_str(), o.npy.empty() ? "" : (", " + o.npy).c_str());
  return kExitOk;
}

}  // namespace

CommandFn add_atlas_command(CLI::App& app) {
  auto o = std::make_shared<AtlasOptions>();
  CLI::App* cmd = app.add_subcommand(
      "atlas", "Grow one world per cell of a grid over two parameters and draw them as one labelled mosaic");
  cmd->add_option("--x", o->x,
                  "The horizontal axis, KEY=a:b:n or KEY=a:b:n:log: a numeric key (see 'physarum params', "
                  "species keys too) swept from a to b in n values (1 to 64), evenly or geometrically (log)")
      ->required()
      ->type_name("KEY=RANGE");
  cmd->add_option("--y", o->y, "The vertical axis, as --x; its lowest value is the bottom row")
      ->required()
      ->type_name("KEY=RANGE");
  cmd->add_option("--steps", o->steps, "Steps each world grows")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(uint64_t{1}, uint64_t{std::numeric_limits<int>::max()}))
      ->capture_default_str();
  cmd->add_option("--tile", o->tile,
                  "Without --size: each world's width in cells (one pixel a cell), at the preset's aspect "
                  "and density")
      ->type_name("PIXELS")
      ->transform(decimal_integer())
      ->check(CLI::Range(8, 1024))
      ->capture_default_str();
  cmd->add_option("--out", o->out, "The mosaic (.png)")->required()->type_name("FILE.png");
  cmd->add_option("--csv", o->csv,
                  "Per-world statistics: ix, iy, the two values, mean, variance, wavelength (cells), "
                  "coverage (network share of open cells), junctions")
      ->type_name("FILE.csv");
  cmd->add_option("--npy", o->npy, "The fields as float32 (ny, nx, H, W), y index 0 the lowest value")
      ->type_name("FILE.npy");
  add_output_budget_option(*cmd, o->output_budget);
  add_sim_options(*cmd, o->sim);
  for (const char* name : {"--x", "--y", "--steps", "--tile", "--out", "--csv", "--npy"})
    cmd->get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return [o] { return run_atlas(*o); };
}

}  // namespace physarum::app
