#include "sensitivity/sensitivity_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "export/output_paths.hpp"
#include "run/batch.hpp"
#include "sensitivity/plan.hpp"
#include "sensitivity/plot.hpp"
#include "sensitivity/report.hpp"
#include "sensitivity/runs.hpp"
#include "sensitivity/twin_runs.hpp"
#include "sim/atomic_file.hpp"
#include "sim/text.hpp"
#include "system/process.hpp"
#include "system/signals.hpp"

namespace physarum::app::sensitivity {
namespace {

using run::UsageError;

std::string num(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

// The words as a command line: options and plain values as they are; anything a shell would read
// differently quoted.
std::string command_line(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& word : words) {
    if (!s.empty()) s += ' ';
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./:=,+") == std::string::npos;
    s += plain ? word : shell_quote(word);
  }
  return s;
}

// The options that decide the data, resolved, as a command line; not --backend or --threads (all
// backends give the same bits) nor where the outputs go.
std::string recipe(const SensitivityRequest& o, const Preset& p) {
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
  return command_line(w);
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
int report(const CsvFile& data, const SensitivityRequest& o, const std::string& csv_path) {
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
  return run::kExitOk;
}

void check_outputs(const SensitivityRequest& o) {
  OutputPaths paths;
  const std::pair<const char*, const std::string*> named[] = {
      {"--out", &o.out}, {"--csv", &o.csv}, {"--json", &o.json}, {"--plot", &o.plot}};
  for (const auto& [what, file] : named) {
    if (!file->empty()) paths.add(what, *file);
  }
}

int merge(const SensitivityRequest& o) {
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

// The options of a run (not a merge) checked, and the defaults of this command filled in.
void check_run(SensitivityRequest& o) {
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
}

// The jobs of the whole run and the shard the run takes; a bad spec is the user's to fix.
Plan plan_of(const SensitivityRequest& o, const Preset& base, Shard& shard) {
  Perturbation perturbation;
  SweepSpec sweep;
  try {
    if (!o.average) perturbation = parse_perturbation(o.perturb);
    if (!o.sweep.empty()) sweep = parse_sweep(o.sweep);
    if (!o.shard.empty()) shard = parse_shard(o.shard);
    const Mode mode = o.average ? Mode::Average : o.sweep.empty() ? Mode::Single : Mode::Sweep;
    return make_plan(mode, base, perturbation, sweep, o.eps, o.repeats);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// Each job's twins grown and recorded into `data`, in order.
void run_jobs(const SensitivityRequest& o, const Preset& base, const std::vector<Job>& jobs, CsvFile& data) {
  // The twins of several jobs grow together: A and B of each are two worlds of one batch.
  const size_t per = std::max<size_t>(1, run::worlds_a_batch(base) / 2);
  const int mine = static_cast<int>(jobs.size());
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
}

}  // namespace

int run_sensitivity(SensitivityRequest o) {
  if (!o.merge.empty()) return merge(o);
  check_run(o);
  std::string chosen;
  const Preset base = run::resolve(o.sim, &chosen);
  o.say_chosen(chosen);
  Shard shard;
  const Plan plan = plan_of(o, base, shard);

  CsvFile data;
  data.header = {recipe(o, base), plan.mode, plan.points, plan.repeats, o.fit_below};
  const uint64_t total = plan.job_count();
  std::vector<Job> jobs;
  for (uint64_t j = 0; j < total; ++j) {
    if (in_shard(j, shard)) jobs.push_back(plan.job(j));
  }
  std::fprintf(stderr, "physarum sensitivity: %d twin runs%s of %d steps, recording every %d\n",
               static_cast<int>(jobs.size()),
               o.shard.empty() ? "" : (" (shard " + o.shard + " of " + std::to_string(total) + ")").c_str(),
               o.steps, o.every);
  run_jobs(o, base, jobs, data);
  return report(data, o, o.csv);
}

}  // namespace physarum::app::sensitivity
