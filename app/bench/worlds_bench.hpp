// `physarum bench --worlds`: many small worlds at once (docs/MODEL.md, "Batches"). Each case grows
// B worlds of one size, each with its own sensor and rotation angles and seed (as an atlas's), as
// run::Batch grows them (one CUDA batch, or side by side on the CPU), and the same worlds one after
// another, each alone on the whole backend; it reports both rates in agent-steps a second and the
// batch's share of the streaming bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace physarum::app {

struct WorldsBenchOptions {
  std::string backend = "auto";
  std::string preset;       // the worlds' model; empty: the defaults, as bench's other cases
  std::vector<int> worlds;  // one case per count at `size`/`agents`; empty: the default sweep
  std::string size;         // default 256x256
  std::string agents;       // default 20K
  int steps = 0;            // timed steps; 0: 1000 on the GPU, 64 on the CPU
  int warmup = 300;
  uint32_t seed = 1;
  bool json = false;
};

// Runs every case; returns the exit code. Throws UsageError for bad values.
int run_worlds_bench(const WorldsBenchOptions& o);

}  // namespace physarum::app
