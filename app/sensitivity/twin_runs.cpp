#include "sensitivity/twin_runs.hpp"

#include <algorithm>

#include "run/batch.hpp"
#include "sensitivity/distance.hpp"
#include "sensitivity/parameters.hpp"

namespace physarum::app::sensitivity {
namespace {

Record measure(run::Batch& batch, size_t a, std::vector<float>& fa, std::vector<float>& fb) {
  batch.read_field(a, fa);
  batch.read_field(a + 1, fb);
  return {static_cast<int64_t>(batch.steps_done()), relative_l2(fa, fb),
          cell_mismatch_fraction(batch.read_agents(a), batch.read_agents(a + 1))};
}

// World `w` of the batch as a perturbation reaches it.
TwinState world_state(run::Batch& batch, size_t w) {
  return {batch.size(w),
          batch.agent_count(),
          [&batch, w] { return batch.read_agents(w); },
          [&batch, w](const AgentState& a) { batch.set_agents(w, a); },
          [&batch, w](std::vector<float>& f) { batch.read_field(w, f); },
          [&batch, w](const std::vector<float>& f) { batch.set_field(w, f); }};
}

void record_all(run::Batch& batch, std::vector<TwinResult>& results) {
  for (size_t j = 0; j < results.size(); ++j)
    results[j].records.push_back(measure(batch, 2 * j, results[j].field_a, results[j].field_b));
}

}  // namespace

std::vector<TwinResult> run_twin_batch(const std::vector<TwinJob>& jobs, int steps, int every,
                                       const StopCheck& stop) {
  std::vector<TwinResult> results(jobs.size());
  std::vector<run::Recipe> recipes;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const TwinJob& job = jobs[j];
    run::Recipe b_options = job.a;
    if (job.p.kind == Perturbation::Kind::Parameter) {
      // B is A's preset with the one value changed, typed.
      Preset b = run::resolve(job.a);
      results[j].delta = perturb_preset(job.p, b);
      b_options = run::with_base(job.a, b);
    } else {
      results[j].delta = job.p.eps;
    }
    recipes.push_back(job.a);
    recipes.push_back(b_options);
  }
  run::Batch batch(recipes);
  for (size_t j = 0; j < jobs.size(); ++j) {
    perturb_state(jobs[j].p, world_state(batch, 2 * j + 1));
    results[j].backend = batch.note();
  }
  record_all(batch, results);
  // A stop is asked for between short slices, not only between records: --every may be large.
  constexpr int kSlice = 16;
  for (int done = 0; done < steps;) {
    const int n = std::min(every, steps - done);
    for (int k = 0; k < n;) {
      stop_if_asked(stop);
      const int m = std::min(kSlice, n - k);
      batch.step(static_cast<uint64_t>(m));
      k += m;
    }
    done += n;
    record_all(batch, results);
  }
  return results;
}

TwinResult run_twins(const run::Recipe& a, const Perturbation& p, int steps, int every,
                     const StopCheck& stop) {
  return std::move(run_twin_batch({TwinJob{a, p}}, steps, every, stop).front());
}

}  // namespace physarum::app::sensitivity
