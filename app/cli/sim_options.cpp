// The options every simulating command shares, and how they become a running simulation: preset
// file (or defaults), then each --set, then --size/--agents/--seed; then the backend and the seed
// image. Bad values on the command line are usage errors (exit 2); a bad file is a runtime error.
#include "cli/sim_options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <filesystem>
#include <limits>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "common/environment_maps.hpp"
#include "common/preset_library.hpp"
#include "common/seeding.hpp"
#include "sim/image.hpp"
#include "sim/preset.hpp"

namespace physarum::app {

void add_sim_options(CLI::App& cmd, SimOptions& o) {
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
  for (const char* name : {"--preset", "--size", "--agents", "--seed", "--image", "--image-fit", "--food",
                           "--walls", "--backend", "--threads"}) {
    cmd.get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
}

Preset resolve_preset(const SimOptions& o) {
  // A missing or malformed preset file is a runtime error (the Error propagates as is).
  Preset p;
  if (!o.preset.empty()) {
    const std::filesystem::path file = find_preset(o.preset);
    p = load_preset(file);
    // A preset's map images are found beside it (a preset names "towns.png", not a path from
    // wherever the program runs).
    for (std::string* path : {&p.environment.food, &p.environment.walls}) {
      if (!path->empty() && std::filesystem::path(*path).is_relative()) {
        *path = (file.parent_path() / *path).lexically_normal().string();
      }
    }
  }

  const auto usage = [](const std::string& option, const std::string& value, const Error& e) {
    return UsageError(option + " " + value + ": " + e.what());
  };
  for (const std::string& s : o.sets) {
    try {
      apply_override(p, s);
    } catch (const Error& e) {
      throw UsageError(std::string("--set ") + e.what());
    }
  }
  // Then the dedicated options, so that --size, --agents and --seed win over --set run.size,
  // run.agents and run.seed (the more specific option wins; README and --help say so).
  if (!o.size.empty()) {
    try {
      p.run.size = parse_size(o.size);
      validate(p.run);
    } catch (const Error& e) {
      throw usage("--size", o.size, e);
    }
  }
  if (!o.agents.empty()) {
    try {
      if (o.agents.front() == '-') throw Error("the number of agents cannot be negative");
      p.run.agents = parse_count(o.agents);
      validate(p.run);
    } catch (const Error& e) {
      throw usage("--agents", o.agents, e);
    }
  }
  if (o.seed) p.run.seed = *o.seed;
  if (!o.food.empty()) p.environment.food = o.food;
  if (!o.walls.empty()) p.environment.walls = o.walls;
  if (!o.species.list.empty()) p.species = o.species;
  try {
    validate(p);
  } catch (const Error& e) {
    throw UsageError(std::string("the resulting parameters are invalid: ") + e.what());
  }
  return p;
}

Simulation make_simulation(const SimOptions& o) {
  Simulation sim;
  sim.preset = resolve_preset(o);
  BackendKind kind{};
  try {
    kind = parse_backend_kind(o.backend);
  } catch (const Error& e) {
    throw UsageError("--backend " + o.backend + ": " + e.what());
  }

  // The image first: a bad file fails before anything large is allocated.
  ImageSeed seed;
  if (!o.image.empty()) {
    seed = prepare_image_seed(o.image, sim.preset, sim.preset.run.size, sim.preset.run.agents,
                              o.image_fit == "fit" ? ImageFit::Fit : ImageFit::Fill);
  }
  SimConfig config = config_from(sim.preset, o.threads);
  config.environment = load_environment(sim.preset.environment, sim.preset.species, sim.preset.run.size);
  sim.backend = create_backend(kind, config, &sim.note);
  if (!o.image.empty()) apply_image_seed(*sim.backend, seed);
  return sim;
}

}  // namespace physarum::app
