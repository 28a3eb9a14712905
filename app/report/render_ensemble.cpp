#include "report/render_ensemble.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>

#include "export/output_budget.hpp"
#include "export/output_paths.hpp"
#include "report/ensemble_report.hpp"
#include "report/ensemble_summary.hpp"
#include "run/batch.hpp"
#include "sim/atomic_file.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using run::UsageError;

// A seed's report holds a few dozen numbers and the texts that name the run (its command and the
// maps'), which JSON escaping can make up to six times longer.
uint64_t seed_report_bound(const std::string& recipe, const Preset& p) {
  return 16384 + 6 * (recipe.size() + p.environment.food.size() + p.environment.walls.size());
}

void write_ensemble(const std::string& file, const Ensemble& e) {
  const std::vector<MeasureSummary> summary = summarise(e.runs);
  write_file_atomically(file, ensemble_json(e, summary_json(summary)));
  std::fputs(summary_table(summary).c_str(), stdout);
  std::printf(
      "physarum render: wrote %s (%zu seeds of %s%s)\n", printable(file).c_str(), e.runs.size(),
      e.seeds.text().c_str(),
      e.shard ? (", shard " + std::to_string(e.shard->index) + "/" + std::to_string(e.shard->count)).c_str()
              : "");
}

int merge(const EnsembleRun& r) {
  const std::string& out = r.report.file;
  OutputPaths paths;
  paths.add("--report", out);
  std::vector<Ensemble> shards;
  uint64_t bytes = 0;
  for (const std::string& f : r.ensemble.merge) {
    std::error_code ec;
    if (std::filesystem::equivalent(out, f, ec)) {
      throw UsageError("--report " + out +
                       " is also a report given to --merge; write the joined report elsewhere");
    }
    shards.push_back(read_ensemble(f));
    bytes += std::filesystem::file_size(f, ec);
  }
  OutputBudget budget;
  budget.add("--report " + out, "the seed reports of " + std::to_string(shards.size()) + " files",
             {bytes, 2 * bytes});
  budget.check(r.output_budget);
  Ensemble all;
  try {
    all = merge_ensembles(shards, r.ensemble.merge);
  } catch (const Error& e) {
    throw UsageError(std::string("--merge: ") + e.what());
  }
  write_ensemble(out, all);
  return run::kExitOk;
}

// The seeds grown together as one run::Batch (one CUDA batch, or side by side on the CPU), then each
// measured; their reports, parsed, in order. nullopt when a stop request ended them.
std::optional<std::vector<SeedReport>> run_seeds(const EnsembleRun& r, const std::vector<uint32_t>& seeds) {
  std::vector<run::Recipe> recipes;
  for (uint32_t seed : seeds) {
    recipes.push_back(r.sim);
    recipes.back().seed = seed;
  }
  run::Batch batch(recipes);
  step_in_slices(r.steps, [&](uint64_t k) { batch.step(k); });
  std::vector<SeedReport> out;
  for (size_t i = 0; i < seeds.size(); ++i) {
    std::vector<float> field;
    batch.read_field(i, field);
    RunMaps maps{batch.size(i), {}, {}};
    batch.read_food(i, maps.food);
    batch.read_walls(i, maps.walls);
    const std::optional<std::string> text =
        render_report_json(r.report, maps, batch.preset(i).environment, field, r.steps,
                           "physarum " PHYSARUM_VERSION "; " + r.remake(batch.preset(i), ""));
    if (!text) return std::nullopt;
    out.push_back(SeedReport{seeds[i], parse_json(*text, "the report of seed " + std::to_string(seeds[i]))});
  }
  return out;
}

}  // namespace

int run_ensemble(const EnsembleRun& r) {
  const EnsembleOptions& o = r.ensemble;
  if (r.report.file.empty()) {
    throw UsageError(o.merge.empty() ? "--seeds writes one report over the seeds: give --report FILE.json"
                                     : "--merge joins shards' reports into --report FILE.json: give it");
  }
  if (!o.merge.empty()) {
    if (!o.seeds.empty() || !o.shard.empty())
      throw UsageError(
          "--merge joins reports already made, which name their seeds: leave out --seeds and --shard");
    return merge(r);
  }
  if (o.seeds.empty())
    throw UsageError("--shard " + o.shard + " shares out the runs of --seeds A..B: give --seeds");
  if (r.sim.seed) throw UsageError("--seed and --seeds " + o.seeds + ": choose one");
  Ensemble e;
  try {
    e.seeds = parse_seed_range(o.seeds);
    if (!o.shard.empty()) e.shard = sensitivity::parse_shard(o.shard);
  } catch (const Error& x) {
    throw UsageError(x.what());
  }
  run::Recipe first = r.sim;
  first.seed = e.seeds.first;
  const Preset preset = run::resolve(first);
  e.recipe = "physarum " PHYSARUM_VERSION "; " + r.remake(preset, "--seeds " + e.seeds.text()) +
             (r.report.threshold ? " --report-threshold " + json_number(*r.report.threshold, 9)
                                 : " --report-fraction " + json_number(r.report.fraction, 9));
  std::vector<uint32_t> mine;
  for (uint64_t s = e.seeds.first; s <= e.seeds.last; ++s) {
    if (!e.shard || seed_in_shard(e.seeds, static_cast<uint32_t>(s), *e.shard))
      mine.push_back(static_cast<uint32_t>(s));
  }
  OutputPaths paths;
  paths.add("--report", r.report.file);
  OutputBudget budget;
  const uint64_t bound = seed_report_bound(e.recipe, preset) * mine.size();
  budget.add("--report " + r.report.file, std::to_string(mine.size()) + " seed reports", {bound, 2 * bound});
  budget.check(r.output_budget);

  install_signal_handlers();
  const char* left = "the report is not written";
  try {
    const size_t per = run::worlds_a_batch(preset);
    for (size_t i = 0; i < mine.size(); i += per) {
      const std::vector<uint32_t> group(
          mine.begin() + static_cast<std::ptrdiff_t>(i),
          mine.begin() + static_cast<std::ptrdiff_t>(std::min(mine.size(), i + per)));
      if (!r.quiet) {
        std::fprintf(stderr, "physarum render: seed%s %u%s (%zu of %zu)\n", group.size() > 1 ? "s" : "",
                     group.front(), group.size() > 1 ? (" to " + std::to_string(group.back())).c_str() : "",
                     i + group.size(), mine.size());
      }
      std::optional<std::vector<SeedReport>> reports = run_seeds(r, group);
      if (!reports) return report_stopped("render", left);
      for (SeedReport& s : *reports) e.runs.push_back(std::move(s));
    }
  } catch (const Stopped&) {
    return report_stopped("render", left);
  }
  if (stop_requested()) return report_stopped("render", left);
  write_ensemble(r.report.file, e);
  return run::kExitOk;
}

}  // namespace physarum::app
