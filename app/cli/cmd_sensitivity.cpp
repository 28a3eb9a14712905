// `physarum sensitivity`: how chaotic is the model? Twin runs that differ by one perturbation, the
// distance between them every K steps, the largest Lyapunov exponent fitted from it, across a
// parameter sweep or for every model parameter (--average). Shards of a sweep run anywhere and
// --merge joins their CSVs. The analysis lives in app/sensitivity/.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/sim_options.hpp"
#include "export/output_paths.hpp"
#include "run/batch.hpp"
#include "sensitivity/plot.hpp"
#include "sensitivity/report.hpp"
#include "sim/atomic_file.hpp"
#include "sim/text.hpp"
#include "system/process.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using namespace sensitivity;

struct SensitivityOptions {
  run::Recipe sim;
  int steps = 1500;
  int every = 10;
  std::string perturb;
  std::string sweep;
  bool average = false;
  double eps = 1e-3;
  int repeats = 1;
  double fit_below = kDefaultFitBelow;
  std::string shard;
  std::vector<std::string> merge;
  std::string out;
  std::string csv, json, plot;
  std::string plot_size = "1000x750";
};

constexpr const char* kDefaultPerturb = "agent:0:theta:1e-4";
constexpr const char* kDefaultSize = "256x256";
constexpr const char* kDefaultAgents = "40K";

std::string num(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

// The options that decide the data, resolved, as a command line; not --backend or --threads (all
// backends give the same bits) nor where the outputs go.
std::string recipe(const SensitivityOptions& o, const Preset& p) {
  std::vector<std::string> w = {"physarum", "sensitivity"};
  const auto add = [&w](const std::string& k, const std::string& v) {
    w.push_back(k);
    w.push_back(v);
  };
  if (!o.sim.preset.empty()) add("--preset", o.sim.preset);
  for (const std::string& s : o.sim.sets) add("--set", s);
  add("--size", format_size(p.run.size));
  add("--agents", std::to_string(p.run.agents));
  add("--seed", std::to_string(p.run.seed));
  if (!o.sim.image.empty()) {
    add("--image", o.sim.image);
    add("--image-fit", o.sim.image_fit);
  }
  add("--steps", std::to_string(o.steps));
  add("--every", std::to_string(o.every));
  if (o.average) {
    w.push_back("--average");
    add("--eps", num(o.eps));
  } else {
    add("--perturb", o.perturb);
  }
  if (!o.sweep.empty()) add("--sweep", o.sweep);
  add("--repeats", std::to_string(o.repeats));
  add("--fit-below", num(o.fit_below));
  std::string s;
  for (const std::string& word : w) {
    if (!s.empty()) s += ' ';
    // Options and plain values as they are; anything a shell would read differently quoted.
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./:=,+") == std::string::npos;
    s += plain ? word : shell_quote(word);
  }
  return s;
}

Size parse_plot_size(const std::string& s) {
  try {
    const Size size = parse_size(s);
    if (size.width < 200 || size.height < 150 || size.width > 8000 || size.height > 8000) {
      throw Error("must be 200x150 to 8000x8000");
    }
    return size;
  } catch (const Error& e) {
    throw UsageError("--plot-size " + s + ": " + e.what());
  }
}

// Summary on stdout, then the files asked for.
int report(const CsvFile& data, const SensitivityOptions& o, const std::string& csv_path) {
  const Analysis a = analyse(data.runs, data.header);
  std::fputs(summary_text(data.header, data.runs, a).c_str(), stdout);
  if (!csv_path.empty()) {
    write_file_atomically(csv_path, csv_text(data.header, data.runs), "write CSV");
    std::printf("wrote %s\n", printable(csv_path).c_str());
  }
  if (!o.json.empty()) {
    write_file_atomically(o.json, json_text(data.header, data.runs, a), "write JSON");
    std::printf("wrote %s\n", printable(o.json).c_str());
  }
  if (!o.plot.empty()) {
    const Size size = parse_plot_size(o.plot_size);
    if (!can_plot()) {
      std::fprintf(stderr,
                   "physarum: no plot: gnuplot is not installed (sudo apt-get install gnuplot-nox); "
                   "the CSV and JSON hold the same data\n");
    } else {
      plot_png(o.plot, data.header, data.runs, a, size.width, size.height);
      std::printf("wrote %s\n", printable(o.plot).c_str());
    }
  }
  std::fflush(stdout);
  return kExitOk;
}

void check_outputs(const SensitivityOptions& o) {
  OutputPaths paths;
  const std::pair<const char*, const std::string*> named[] = {
      {"--out", &o.out}, {"--csv", &o.csv}, {"--json", &o.json}, {"--plot", &o.plot}};
  for (const auto& [what, file] : named) {
    if (!file->empty()) paths.add(what, *file);
  }
}

int merge(const SensitivityOptions& o) {
  if (o.out.empty() && o.csv.empty()) throw UsageError("--merge needs --out FILE.csv for the joined CSV");
  check_outputs(o);
  CsvFile merged;
  try {
    merged = merge_csv({o.merge.begin(), o.merge.end()});
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  return report(merged, o, o.out.empty() ? o.csv : o.out);
}

// A twin run's records into the CSV data, and its line on stderr (the backend before the first).
void record_twin(CsvFile& data, const Job& job, TwinResult twin, int& done, int mine) {
  if (done == 0) std::fprintf(stderr, "backend %s\n", twin.backend.c_str());
  if (twin.delta == 0 && job.perturbation.eps != 0) {
    std::fprintf(stderr,
                 "physarum: note: %s = %s: the perturbation rounds away in float; the twins are equal\n",
                 job.parameter.c_str(), num(job.value).c_str());
  }
  data.runs.push_back(
      {job.point, job.parameter, job.value, twin.delta, job.repeat, job.seed, std::move(twin.records)});
  std::fprintf(stderr, "  run %d/%d: %s = %s, seed %u\n", ++done, mine, job.parameter.c_str(),
               num(job.value).c_str(), job.seed);
}

int run(SensitivityOptions o) {
  if (!o.merge.empty()) return merge(o);
  if (!o.out.empty())
    throw UsageError("--out names the joined CSV of --merge; use --csv FILE for a run's data");
  if (o.average && !o.sweep.empty()) throw UsageError("--average and --sweep: choose one");
  if (o.average && !o.perturb.empty()) {
    throw UsageError("--average perturbs every model parameter in turn (by --eps); leave out --perturb");
  }
  if (o.perturb.empty()) o.perturb = kDefaultPerturb;
  if (o.sim.size.empty()) o.sim.size = kDefaultSize;
  // A preset's agents follow its density to the size (run::resolve); the built-in defaults, made
  // for a GPU at 1920x1080, take the count this command was tuned with.
  if (o.sim.agents.empty() && o.sim.preset.empty()) o.sim.agents = kDefaultAgents;
  if (o.eps == 0 || !std::isfinite(o.eps)) throw UsageError("--eps must be a finite number other than 0");
  if (!o.plot.empty()) parse_plot_size(o.plot_size);
  check_outputs(o);

  std::string chosen;
  const Preset base = run::resolve(o.sim, &chosen);
  say_chosen(chosen);
  Perturbation perturbation;
  SweepSpec sweep;
  Shard shard;
  Plan plan;
  try {
    if (!o.average) perturbation = parse_perturbation(o.perturb);
    if (!o.sweep.empty()) sweep = parse_sweep(o.sweep);
    if (!o.shard.empty()) shard = parse_shard(o.shard);
    const Mode mode = o.average ? Mode::Average : o.sweep.empty() ? Mode::Single : Mode::Sweep;
    plan = make_plan(mode, base, perturbation, sweep, o.eps, o.repeats);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }

  CsvFile data;
  data.header = {recipe(o, base), plan.mode, plan.points, plan.repeats, o.fit_below};
  const uint64_t total = plan.job_count();
  int mine = 0;
  for (uint64_t j = 0; j < total; ++j) mine += in_shard(j, shard);
  std::fprintf(stderr, "physarum sensitivity: %d twin runs%s of %d steps, recording every %d\n", mine,
               o.shard.empty() ? "" : (" (shard " + o.shard + " of " + std::to_string(total) + ")").c_str(),
               o.steps, o.every);
  std::vector<Job> jobs;
  for (uint64_t j = 0; j < total; ++j) {
    if (in_shard(j, shard)) jobs.push_back(plan.job(j));
  }
  // The twins of several jobs grow together: A and B of each are two worlds of one batch.
  const size_t per = std::max<size_t>(1, run::worlds_a_batch(base) / 2);
  int done = 0;
  for (size_t first = 0; first < jobs.size(); first += per) {
    const size_t last = std::min(jobs.size(), first + per);
    std::vector<TwinJob> twins;
    for (size_t j = first; j < last; ++j) {
      run::Recipe a = o.sim;
      a.seed = jobs[j].seed;
      a.sets.insert(a.sets.end(), jobs[j].sets.begin(), jobs[j].sets.end());
      twins.push_back({a, jobs[j].perturbation});
    }
    std::vector<TwinResult> results;
    try {
      results = run_twin_batch(twins, o.steps, o.every, stop_on_signal());
    } catch (const UsageError&) {
      throw;
    } catch (const Error& e) {
      throw UsageError(e.what());  // a perturbation that does not fit this simulation
    }
    for (size_t k = 0; k < results.size(); ++k)
      record_twin(data, jobs[first + k], std::move(results[k]), done, mine);
  }
  return report(data, o, o.csv);
}

// What the twins run and what is measured: steps, the perturbation, a sweep or the average, seeds.
void add_twin_options(CLI::App& cmd, SensitivityOptions& o) {
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
void add_output_options(CLI::App& cmd, SensitivityOptions& o) {
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
  auto o = std::make_shared<SensitivityOptions>();
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
  return [o] { return run(*o); };
}

}  // namespace physarum::app
