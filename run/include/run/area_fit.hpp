// A run made smaller or larger by its area, keeping its look: the aspect and the density (agents
// per cell) stay, so the network grows the same pattern at the same scale in cells, only over less
// or more ground. The window uses it to open a preset smoothly on the CPU; a size scale chosen by
// the user is the same function with a factor above 1.
#pragma once

#include <cstdint>
#include <string>

#include "sim/params.hpp"

namespace physarum::run {

// `run` with its area multiplied by about `area_factor` (> 0): each side by sqrt(area_factor),
// rounded, at least `min_short_side` cells on the shorter side (and never larger than kMaxSide);
// agents in proportion to the cells, at least 1. A volume's voxels are multiplied instead: each of
// its three sides by cbrt(area_factor). The seed is kept. Throws UsageError for a factor
// that is not a positive finite number.
RunParams scale_area(const RunParams& run, double area_factor, int min_short_side = 8);

// `run` at detail `scale` instead of its own run.scale K0: each side times K / K0 (rounded), the
// agents times (K / K0)^2, so the same pattern is drawn K / K0 times finer (docs/MODEL.md, "Scale").
// The command line's --scale and the panel's "detail" both go through it. Throws UsageError naming
// the value when the scale is not 1 to kMaxScale or a side would pass kMaxSide.
RunParams at_scale(const RunParams& run, int scale);

// What one frame of a run costs, in agent-step equivalents of one species, times the steps a frame
// runs: each agent's step at 1 + kSpeciesWork * (species - 1) (with several species each sensor
// reads and weighs every channel), plus each cell's field update per species channel at kCellWork.
// Measured with `physarum run` on the CPU backend of a busy two-core machine (the time of 50 steps
// less that of 10): the plain default (960x540, 250K agents) 45 ms a step, territories (2 species,
// 760x427, 235K) 66 ms, braid (4 species, 778x437, 164K) 74 ms; an agent's share grows by about
// half a single-species step per further species. In the window's Performance section a channel's
// blur and decay of a cell took about 0.025 us against 0.6 us for an agent's step.
inline constexpr double kSpeciesWork = 0.5;
inline constexpr double kCellWork = 0.1;
// A volume's agent senses a ring of sensors in 3D: 64^3 voxels with 250K agents took about 0.1 s a
// step on the same two cores, about twice a plane's agent.
inline constexpr double kVolumeAgentWork = 2.0;
double frame_work(const RunParams& run, int species, int steps_per_frame);

// The CPU backend's budget: agent-step equivalents per second it sustains with the window's
// drawing, and the frame rate to keep. Assumed for a two-core machine from the plain default,
// which opens at 960x540 with 250K agents, one species and one step a frame at about 15 frames
// per second: (250K + 0.1 * 518K) * 15 is about 4.5M per second. Faster machines run above 15.
struct FrameBudget {
  double work_per_s = 4.5e6;
  double fps = 15.0;
  int min_short_side = 270;  // smaller fields read as a few blobs, whatever the budget says
  int min_volume_side = 32;  // a volume's: its tubes are a few voxels wide
};

// A run fitted into a budget: `run` when it fits (scaled false), else scale_area() of it by the
// largest factor whose frame_work() stays within budget.work_per_s / budget.fps (or the smallest
// readable size). `full` is the run as asked.
struct AreaFit {
  RunParams full;
  RunParams run;
  bool scaled = false;
};
AreaFit fit_to_budget(const RunParams& run, int species, int steps_per_frame, const FrameBudget& budget = {});

// "960x540 with 250K agents (the preset asks 1920x1080 with 1M; same agents per cell)": one line
// for the terminal and the panel.
std::string describe_fit(const AreaFit& fit);

}  // namespace physarum::run
