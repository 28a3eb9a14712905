// `physarum run`: a headless run of N steps that writes the field as a float32 .npy of shape (H, W)
// (one species), (S, H, W) (S species) or (D, H, W) (a volume) and prints one summary line.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/sim_options.hpp"
#include "export/output_paths.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

struct RunOptions {
  run::Recipe sim;
  int steps = 0;
  std::string out;
  std::string trace;  // a volume's MCPM trace, written like --out
};

// What a run grew: its field, the field's shape as the .npy has it, and what the summary names.
struct Grown {
  std::vector<float> field;
  std::vector<int> shape;  // (H, W), (S, H, W) or (D, H, W)
  std::string backend;
  std::string size;
  uint64_t agents = 0;
};

// Reads the field (waiting for the last step on asynchronous backends).
Grown read_grown(World& world) {
  Grown g;
  world.read_field(g.field);
  g.shape = world.field_shape();
  g.backend = world.name();
  g.size = format_size(world.size());
  g.agents = world.agent_count();
  return g;
}

int run(const RunOptions& r) {
  // Refuse an output path that cannot work before spending time on the run.
  OutputPaths paths;
  paths.add("--out", r.out);
  if (!r.trace.empty()) paths.add("--trace", r.trace);

  run::Run sim(r.sim);
  const Volume* volume = sim.world().volume();
  if (!r.trace.empty() && !(volume && volume->has_trace())) {
    throw run::UsageError("--trace " + r.trace +
                          ": only a volume with a species whose turn_rule is mcpm keeps a trace");
  }
  say_chosen(sim.chosen());
  if (!sim.food_note().empty()) std::fprintf(stderr, "physarum: food: %s\n", sim.food_note().c_str());

  const auto t0 = std::chrono::steady_clock::now();
  step_in_slices(static_cast<uint64_t>(r.steps), [&](uint64_t k) { sim.step(k); });
  const Grown g = read_grown(sim.world());
  throw_if_stopped();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  double sum = 0;
  for (float v : g.field) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  write_npy_shape(r.out, g.field.data(), g.shape);
  if (!r.trace.empty()) {
    std::vector<float> trace;
    sim.volume().read_trace(trace);
    write_npy_shape(r.trace, trace.data(), g.shape);  // shaped as the field, a channel a species
  }

  const double steps_per_s = seconds > 0 ? r.steps / seconds : 0;
  const double agent_steps_per_s = steps_per_s * static_cast<double>(g.agents);
  std::printf(
      "backend %s, %s, %llu agents, %d steps in %.3f s: %.1f steps/s, %.3g agent-steps/s; "
      "field min %.6g max %.6g sum %.9g; wrote %s\n",
      g.backend.c_str(), g.size.c_str(), static_cast<unsigned long long>(g.agents), r.steps, seconds,
      steps_per_s, agent_steps_per_s, static_cast<double>(lo), static_cast<double>(hi), sum, r.out.c_str());
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace

CommandFn add_run_command(CLI::App& app) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Run headless for N steps and write the field as a .npy file");
  cmd->add_option("--steps", opts->steps, "Number of steps to run (>= 1)")
      ->required()
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  add_sim_options(*cmd, opts->sim);
  cmd->add_option(
         "--out", opts->out,
         "Output file: float32 NumPy array of shape (H, W), (S, H, W) for S species, (D, H, W) for a "
         "volume, (S, D, H, W) for a volume of S species")
      ->required()
      ->type_name("FILE")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cmd->add_option("--trace", opts->trace,
                  "A volume's MCPM trace (what its mcpm species deposit, never sensed; docs/MODEL.md): "
                  "float32 of the field's shape")
      ->type_name("FILE")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return [opts] { return run(*opts); };
}

}  // namespace physarum::app
