// `physarum bench --frame`: the window's per-frame path, headless through EGL, timed. Each frame:
// N simulation steps, the field published into the registered texture (CUDA-GL interop, or a copy
// through the host for backends that cannot publish), and a draw with the palette shader into an
// offscreen framebuffer of the field's size; no swap and no glFinish per frame, so the GPU runs
// ahead as it does in the window. Reports frames per second over many frames and the split of a
// frame into sim, publish and draw (CUDA events, a GL timer query; host wall time where the work
// is the host's).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/value.hpp"

namespace physarum::app {

struct FrameBenchOptions {
  std::string backend = "auto";
  // One case with --agents; default: on the GPU 3840x2160 with 10M and 100M agents, on the CPU
  // 1024x1024 with 1M.
  std::string size;
  std::string agents;
  std::vector<int> steps_per_frame = {1, 5};
  int frames = 0;    // timed frames per case; 0: 600 on the GPU, 30 on the CPU
  int warmup = 300;  // steps before timing (agents crowd onto trails)
  uint32_t seed = 1;
  int threads = 0;
  bool json = false;
};

// A volume's frames (--size WxHxD): its agents (default: 100M in 512^3, as many a voxel), the ray
// marcher's draw at 1920 x 1080, one case per steps-per-frame (volume_frame_bench.cpp).
int run_volume_frame_bench(const FrameBenchOptions& o, Size size);

// Runs every case (a volume's when --size has a depth); returns the exit code (kExitRuntime when none could
// run). Throws UsageError for bad sizes or counts, Error when no GL context can be had.
int run_frame_bench(const FrameBenchOptions& o);

}  // namespace physarum::app
