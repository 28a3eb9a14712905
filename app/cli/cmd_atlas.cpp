// `physarum atlas`: one world per cell of a grid over two registry keys, drawn as one labelled
// mosaic (a video with a third key). This file reads the options; the run is atlas/atlas_run.hpp.
#include <CLI/CLI.hpp>

#include <limits>
#include <memory>

#include "atlas/atlas_run.hpp"
#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/output_options.hpp"
#include "cli/sim_options.hpp"

namespace physarum::app {

CommandFn add_atlas_command(CLI::App& app) {
  auto o = std::make_shared<atlas::AtlasRequest>();
  o->say_chosen = say_chosen;
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
  cmd->add_option("--t", o->t,
                  "A third axis, as --x, for a video: frame i is the whole mosaic grown with this key at its "
                  "i-th value, named in the title")
      ->type_name("KEY=RANGE");
  cmd->add_option("--fps", o->fps, "With --t: the video's frames per second (default 4)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 120));
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
  cmd->add_option("--out", o->out, "The mosaic (.png), or with --t its video (.mp4, .webm or .gif)")
      ->required()
      ->type_name("FILE");
  cmd->add_option(
         "--csv", o->csv,
         "Per-world statistics: (it,) ix, iy, the (three) values, mean, variance, wavelength (cells), "
         "coverage (network share of open cells), junctions")
      ->type_name("FILE.csv");
  cmd->add_option(
         "--npy", o->npy,
         "The fields as float32 (ny, nx, H, W), y index 0 the lowest value; with --t (nt, ny, nx, H, W)")
      ->type_name("FILE.npy");
  add_output_budget_option(*cmd, o->output_budget);
  add_sim_options(*cmd, o->sim);
  for (const char* name : {"--x", "--y", "--t", "--fps", "--steps", "--tile", "--out", "--csv", "--npy"})
    cmd->get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return [o] { return atlas::run_atlas(*o); };
}

}  // namespace physarum::app
