// `physarum run`: a headless run of N steps that writes the field as a float32 .npy of shape (H, W)
// (one species) or (S, H, W) (S species)
// and prints one summary line.
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
#include "cli/output_paths.hpp"
#include "cli/sim_options.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "video/signals.hpp"

namespace physarum::app {
namespace {

struct RunOptions {
  run::Recipe sim;
  int steps = 0;
  std::string out;
};

int run(const RunOptions& r) {
  // Refuse an output path that cannot work before spending time on the run.
  OutputPaths().add("--out", r.out);

  run::Run sim(r.sim);
  say_chosen(sim.chosen());
  Backend& b = sim.backend();

  const auto t0 = std::chrono::steady_clock::now();
  step_in_slices(static_cast<uint64_t>(r.steps), [&](uint64_t k) { sim.step(k); });
  std::vector<float> field;
  b.read_field(field);  // waits for the last step on asynchronous backends
  throw_if_stopped();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  double sum = 0;
  for (float v : field) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  const Size size = b.size();
  write_npy(r.out, field.data(), size.height, size.width, b.species_count());  // (S, H, W) for several

  const double steps_per_s = seconds > 0 ? r.steps / seconds : 0;
  const double agent_steps_per_s = steps_per_s * static_cast<double>(b.agent_count());
  std::printf(
      "backend %s, %dx%d, %llu agents, %d steps in %.3f s: %.1f steps/s, %.3g agent-steps/s; "
      "field min %.6g max %.6g sum %.9g; wrote %s\n",
      b.name().c_str(), size.width, size.height, static_cast<unsigned long long>(b.agent_count()), r.steps,
      seconds, steps_per_s, agent_steps_per_s, static_cast<double>(lo), static_cast<double>(hi), sum,
      r.out.c_str());
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
  cmd->add_option("--out", opts->out,
                  "Output file: float32 NumPy array of shape (H, W), or (S, H, W) for S species")
      ->required()
      ->type_name("FILE")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return [opts] { return run(*opts); };
}

}  // namespace physarum::app
