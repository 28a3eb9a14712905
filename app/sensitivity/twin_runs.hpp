// Twin runs: A and B built from the same recipe in one process, B perturbed once, both stepped
// alike; every K steps the distance between them is recorded. Runs are bit-exact, so any distance
// comes from the perturbation alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/recipe.hpp"
#include "sensitivity/perturbation.hpp"
#include "sim/stop.hpp"

namespace physarum::app::sensitivity {

struct Record {
  int64_t step = 0;
  double field_distance = 0;  // relative_l2 of the fields
  double agent_fraction = 0;  // cell_mismatch_fraction of the agents
};

struct TwinResult {
  double delta = 0;             // the perturbation applied (after rounding to float)
  std::vector<Record> records;  // steps 0, K, 2K, ..., and `steps` itself
  std::string backend;          // A's backend name
  // A's and B's fields after the last step, (S, H, W) planar as read_field gives them: what the
  // distances were measured on, for a caller that compares the runs with another surface's.
  std::vector<float> field_a, field_b;
};

// A and B are worlds of a run::Batch (run/batch.hpp), each grown as run::Run grows it, keyframes included, so
// A grows what `physarum run` grows from the same recipe. Throws UsageError for a bad recipe and Error for a
// perturbation that does not fit the simulation (agent id, cell, key). `stop` is asked every few
// steps; when it says yes, run_twins throws Stopped.
TwinResult run_twins(const run::Recipe& a, const Perturbation& p, int steps, int every,
                     const StopCheck& stop = {});

// Several twin runs grown together, A and B of each job two worlds of one run::Batch (one CUDA batch
// when they can share one, else side by side or in turn): each result is run_twins's for its job,
// bit for bit. `backend` says how they ran (run::Batch::note).
struct TwinJob {
  run::Recipe a;
  Perturbation p;
};
std::vector<TwinResult> run_twin_batch(const std::vector<TwinJob>& jobs, int steps, int every,
                                       const StopCheck& stop = {});

}  // namespace physarum::app::sensitivity
