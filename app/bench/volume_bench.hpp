// `physarum bench --size WxHxD`: the volume model (docs/MODEL.md, "Volume") in steady state: warm
// up, time a run of steps, report ms a step, G agent-steps a second and the share of the streaming
// bound (24 bytes an agent for its position and heading read and written, and 16 a voxel for the
// field read and written and the counts read and cleared) over the copy bandwidth measured in the
// same run.
#pragma once

#include <string>

namespace physarum::app {

struct VolumeBenchOptions {
  std::string backend = "auto";
  std::string size;    // WxHxD
  std::string agents;  // default 1M
  int steps = 0;       // 0: 200 on the GPU, 5 on the CPU
  int warmup = 50;
  uint32_t seed = 1;
  int threads = 0;
  bool json = false;
};

// True when `size` names a volume (three sides).
bool is_volume_size(const std::string& size);

// Runs the case; returns the exit code. Throws UsageError for bad values.
int run_volume_bench(const VolumeBenchOptions& o);

}  // namespace physarum::app
