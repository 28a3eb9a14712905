// `physarum bench`: steady-state speed of a backend. For each case: warm up (agents crowd onto
// trails), time a run of steps, and take per-stage times; report ms/step, steps/s, G agent-steps/s,
// per-stage ms and the effective bandwidth against the streaming bound (24 B per agent + 12 B per
// cell per step) over the copy bandwidth measured in the same run. On the CPU the stages are those
// of the timed steps themselves (they partition the step; "other" is the rest), on CUDA they come
// from sampled steps timed stage by stage. Without --size/--agents the GPU runs a sweep up to
// 4096x4096 with 16M agents and a volume; the CPU one case sized for it (sweep "full" asks for the
// GPU's sweep).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace physarum::app {

struct StepBenchOptions {
  std::string backend = "auto";
  std::string size;
  std::string agents;
  std::optional<int> steps;  // none: 1000 on the GPU, 64 on the CPU, 2000 for the steps sweep
  int warmup = 300;
  bool json = false;
  std::string sweep;  // "", steps, size, agents, full
  uint32_t seed = 1;
  int threads = 0;  // CPU backend; 0 = all
  int species = 1;  // 1..kMaxSpecies
};

// Runs every case; returns the exit code (kExitRuntime when none could run). Throws UsageError for
// a bad size, agent count or backend.
int run_step_bench(const StepBenchOptions& o);

}  // namespace physarum::app
