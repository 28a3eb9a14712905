// `physarum render --report FILE --seeds A..B`: the recipe run once per seed, each run measured as
// `render --report` measures one, and one file with every measure's mean and 95% interval over the
// seeds and each seed's report (report/ensemble_report.hpp). `--shard K/N` runs every N-th seed, so an
// ensemble spreads over machines; `--merge` joins the shards' files into the whole ensemble's.
// Pictures and videos are of one run, so with --seeds no --out is taken: render the seed to look at
// with --seed S. Ctrl-C or SIGTERM ends an ensemble with 128 + signal and writes nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "report/render_report.hpp"
#include "run/recipe.hpp"

namespace physarum::app {

struct EnsembleOptions {
  std::string seeds;               // "A..B"; empty: no ensemble
  std::string shard;               // "K/N"; empty: every seed
  std::vector<std::string> merge;  // shards' reports to join into the report
  bool any() const { return !seeds.empty() || !shard.empty() || !merge.empty(); }
};

struct EnsembleRun {
  run::Recipe sim;
  uint64_t steps = 0;
  ReportOptions report;
  EnsembleOptions ensemble;
  std::string output_budget;
  bool quiet = false;
  // The command that makes the run of `p` (a resolved preset) again, as render's single report
  // names it; with `seed_words` ("--seeds 1..8") in place of p's seed.
  std::function<std::string(const Preset& p, const std::string& seed_words)> remake;
};

// Runs the shard's seeds (or merges shards' reports) and writes the report; returns the exit code.
// Throws UsageError for a bad range, shard or combination of options, before any run.
int run_ensemble(const EnsembleRun& e);

}  // namespace physarum::app
