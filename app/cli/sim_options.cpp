// The options every simulating command shares, as CLI11 options filling a recipe.
#include "cli/sim_options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <limits>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/help_format.hpp"
#include "sim/backend.hpp"

namespace physarum::app {

void add_sim_options(CLI::App& cmd, run::Recipe& o) {
  cmd.add_option(
         "--preset", o.preset,
         "Preset: a shipped or saved preset's name (see 'physarum presets') or a TOML file (a regular "
         "file); default: the built-in parameters")
      ->type_name("NAME|FILE");
  cmd.add_option("--size", o.size, "Field size, e.g. 1920x1080 (overrides the preset and --set run.size)")
      ->type_name("WxH");
  cmd.add_option(
         "--agents", o.agents,
         "Number of agents, decimal and whole: 1000, 250K, 1.5M (overrides the preset and --set run.agents)")
      ->type_name("N");
  cmd.add_option_function<std::string>(
         "--seed",
         [&o](const std::string& s) {
           uint64_t v = 0;
           const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
           if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() ||
               v > std::numeric_limits<uint32_t>::max()) {
             throw CLI::ValidationError("--seed", "'" + s + "' is not an integer in [0, 4294967295]");
           }
           o.seed = static_cast<uint32_t>(v);
         },
         "Random seed, 0..4294967295, decimal (overrides the preset and --set run.seed)")
      ->type_name("S");
  cmd.add_option(
         "--scale", o.scale,
         "Detail K, 1..8: the same pattern K times finer on a field K times larger on each side, with "
         "K^2 the agents (after --size and --agents; docs/MODEL.md, Scale)")
      ->type_name("K")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, kMaxScale));
  cmd.add_option("--image", o.image, "Seed the field from this image (PNG or JPEG; a regular file)")
      ->type_name("FILE");
  cmd.add_option("--image-fit", o.image_fit, "How a seed image meets the field: fill (cover, cropped) or fit")
      ->check(CLI::IsMember({"fill", "fit"}))
      ->capture_default_str();
  cmd.add_option("--food", o.food,
                 "Food map image (PNG or JPEG): its brightness emits into the trail every step "
                 "(overrides environment.food; strength: --set environment.food_strength=K)")
      ->type_name("FILE");
  cmd.add_option("--walls", o.walls,
                 "Walls image (PNG or JPEG): cells darker than environment.walls_threshold (0.5) are walls "
                 "(overrides environment.walls; a closed box: --set environment.boundary=walls)")
      ->type_name("FILE");
  cmd.add_option(
         "--points", o.points,
         "A volume's point data (CSV x,y,z[,weight] or .npy (N, 3|4)): each point is food of its "
         "weight every step, fitted into --size WxHxD keeping the aspect (overrides environment.points)")
      ->type_name("FILE");
  cmd.add_option("--points-box", o.points_box,
                 "The box of the point data that fills the volume, in the data's units, e.g. "
                 "0:500,0:500,0:250 (overrides environment.points_box)")
      ->type_name("XMIN:XMAX,YMIN:YMAX,ZMIN:ZMAX");
  cmd.add_option("--backend", o.backend, "Simulation backend")
      ->type_name("auto|cpu|cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  cmd.add_option("--threads", o.threads, "CPU backend threads (0 = OpenMP's default: all hardware threads)")
      ->type_name("T")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, kMaxThreads));
  cmd.add_option(
         "--set", o.sets,
         "Override a preset key, e.g. --set model.decay=0 (repeatable; applied in order after --preset; "
         "--size, --agents and --seed win over run.size, run.agents and run.seed)")
      ->type_name("SECTION.KEY=VALUE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  // A single-valued option given twice: the last one wins, as in most programs.
  for (const char* name : {"--preset", "--size", "--agents", "--seed", "--scale", "--image", "--image-fit",
                           "--food", "--walls", "--points", "--points-box", "--backend", "--threads"}) {
    cmd.get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  for (const char* name :
       {"--preset", "--size", "--agents", "--seed", "--scale", "--image", "--image-fit", "--food", "--walls",
        "--points", "--points-box", "--backend", "--threads", "--set"}) {
    cmd.get_option(name)->group(kSimulationGroup);
  }
}

void say_chosen(const std::string& chosen) {
  if (!chosen.empty()) std::fprintf(stderr, "physarum: %s\n", chosen.c_str());
}

}  // namespace physarum::app
