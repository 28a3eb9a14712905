// `physarum sensitivity`: how chaotic is the model? Twin runs that differ by one perturbation, the
// distance between them, the largest Lyapunov exponent, across a sweep or for every model parameter
// (--average); shards and --merge. This file reads the options; the run and the analysis live in
// app/sensitivity/ (sensitivity_run.hpp).
#include <CLI/CLI.hpp>

#include <limits>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/sim_options.hpp"
#include "sensitivity/fit.hpp"
#include "sensitivity/sensitivity_run.hpp"

namespace physarum::app {
namespace {

using namespace sensitivity;

// What the twins run and what is measured: steps, the perturbation, a sweep or the average, seeds.
void add_twin_options(CLI::App& cmd, SensitivityRequest& o) {
  const auto last = CLI::MultiOptionPolicy::TakeLast;
  cmd.add_option("--steps", o.steps, "Steps of each twin run")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 100'000'000))
      ->multi_option_policy(last)
      ->capture_default_str();
  cmd.add_option("--every", o.every, "Record the distance every K steps")
      ->type_name("K")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 100'000'000))
      ->multi_option_policy(last)
      ->capture_default_str();
  cmd.add_option(
         "--perturb", o.perturb,
         std::string(
             "What differs in twin B: agent:ID:theta|x|y:EPS (radians, cells), field:X,Y:EPS (added to "
             "the cell), or KEY:REL_EPS for a numeric preset key (model.sensor_angle_deg:1e-4, "
             "species.1.decay:1e-3, display.exposure:0.1); default ") +
             kDefaultPerturb)
      ->type_name("SPEC")
      ->multi_option_policy(last);
  cmd.add_option("--sweep", o.sweep,
                 "Repeat across COUNT values of a parameter from FROM to TO; prints lambda against it")
      ->type_name("KEY=FROM:TO:COUNT")
      ->multi_option_policy(last);
  cmd.add_flag("--average", o.average,
               "The average sensitivity: each model parameter in turn moved by a relative --eps, its "
               "finite-difference "
               "derivative norm at the last step, ranked; their sum");
  cmd.add_option("--eps", o.eps, "--average: the relative change of each parameter (absolute for one at 0)")
      ->check(finite_number())
      ->type_name("REL")
      ->multi_option_policy(last)
      ->capture_default_str();
  cmd.add_option("--repeats", o.repeats, "Seeds per point (seed, seed+1, ...): mean and 95% interval")
      ->type_name("R")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 100000))
      ->multi_option_policy(last)
      ->capture_default_str();
  cmd.add_option("--fit-below", o.fit_below,
                 "The exponential phase ends where the distance passes this fraction of its saturation level")
      ->check(finite_number())
      ->type_name("F")
      ->check(CLI::Range(kMinFitBelow, kMaxFitBelow))
      ->multi_option_policy(last)
      ->capture_default_str();
}

// Where the runs go: a shard of them, the merge of shards, and the files written.
void add_output_options(CLI::App& cmd, SensitivityRequest& o) {
  const auto last = CLI::MultiOptionPolicy::TakeLast;
  cmd.add_option("--shard", o.shard,
                 "Run only slice K of N of the runs (round robin); join the CSVs with --merge")
      ->type_name("K/N")
      ->multi_option_policy(last);
  cmd.add_option("--merge", o.merge,
                 "Join the CSVs of shards (same recipe) into --out; then report as one run would")
      ->type_name("CSV...")
      ->expected(1, std::numeric_limits<int>::max());
  cmd.add_option("--out", o.out, "--merge: the joined CSV (the same bytes as one run's --csv)")
      ->type_name("FILE")
      ->multi_option_policy(last);
  cmd.add_option("--csv", o.csv, "Write every record (one row per run and step; the recipe in the header)")
      ->type_name("FILE")
      ->multi_option_policy(last);
  cmd.add_option("--json", o.json, "Write the recipe, each run's fit and series, and the summary as JSON")
      ->type_name("FILE")
      ->multi_option_policy(last);
  cmd.add_option("--plot", o.plot,
                 "Draw distance against steps and lambda against the sweep as a PNG (needs gnuplot)")
      ->type_name("FILE.png")
      ->multi_option_policy(last);
  cmd.add_option("--plot-size", o.plot_size, "Size of the plot in pixels")
      ->type_name("WxH")
      ->multi_option_policy(last)
      ->capture_default_str();
}

}  // namespace

CommandFn add_sensitivity_command(CLI::App& app) {
  auto o = std::make_shared<SensitivityRequest>();
  o->say_chosen = say_chosen;
  o->sim.backend = "cpu";
  CLI::App* cmd = app.add_subcommand("sensitivity",
                                     "Twin runs that differ by one tiny perturbation: their distance over "
                                     "time, the largest Lyapunov exponent "
                                     "(slope of ln distance in the exponential phase) and when the start is "
                                     "forgotten; across a --sweep of a "
                                     "parameter, or --average over every model parameter. Default size here "
                                     "256x256 with 40K agents on the CPU");
  add_sim_options(*cmd, o->sim);
  add_twin_options(*cmd, *o);
  add_output_options(*cmd, *o);
  return [o] { return run_sensitivity(*o); };
}

}  // namespace physarum::app
