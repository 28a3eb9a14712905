#include "run/area_fit.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "run/recipe.hpp"

namespace physarum::run {
namespace {

double cells(Size s) {
  return static_cast<double>(cells_of(s));
}

}  // namespace

RunParams at_scale(const RunParams& run, int scale) {
  if (scale < 1 || scale > kMaxScale) {
    throw UsageError("detail " + std::to_string(scale) + " is out of range: allowed 1 to " +
                     std::to_string(kMaxScale));
  }
  if (scale == run.scale) return run;
  const double k = static_cast<double>(scale) / run.scale;
  const auto side = [&](int n) { return static_cast<int>(std::lround(n * k)); };
  const Size size{side(run.size.width), side(run.size.height)};
  if (size.width > kMaxSide || size.height > kMaxSide || size.width < 1 || size.height < 1) {
    throw UsageError("detail " + std::to_string(scale) + " makes the field " + format_size(size) +
                     ": allowed 1 to " + std::to_string(kMaxSide) + " cells on a side");
  }
  RunParams out = run;
  out.size = size;
  out.scale = scale;
  const double agents = std::round(static_cast<double>(run.agents) * k * k);
  out.agents = static_cast<uint64_t>(std::clamp(agents, 1.0, static_cast<double>(kMaxAgents)));
  out.density.reset();  // the same agents per cell: the count above says it
  return out;
}

RunParams scale_area(const RunParams& run, double area_factor, int min_short_side) {
  if (!std::isfinite(area_factor) || area_factor <= 0.0) {
    std::ostringstream m;
    m << "an area factor must be a positive number, not " << area_factor;
    throw UsageError(m.str());
  }
  const bool volume = run.size.volume();
  const double side = volume ? std::cbrt(area_factor) : std::sqrt(area_factor);
  const int shorter = std::min({run.size.width, run.size.height, volume ? run.size.depth : run.size.width});
  // The shorter side's floor, as a factor of the sides; never above 1 for the floor alone, so a
  // field already smaller than the floor keeps its size.
  const double floor_side = std::min(1.0, static_cast<double>(min_short_side) / shorter);
  const double k = std::max(side, floor_side);
  const auto scaled = [&](int n) { return std::clamp(static_cast<int>(std::lround(n * k)), 1, kMaxSide); };
  RunParams out = run;
  out.size = {scaled(run.size.width), scaled(run.size.height), volume ? scaled(run.size.depth) : 1};
  out.agents = agents_for_density(density_of(run), out.size);
  return out;
}

double frame_work(const RunParams& run, int species, int steps_per_frame) {
  const double s = std::max(species, 1);
  const double agent = (1.0 + kSpeciesWork * (s - 1.0)) * (run.size.volume() ? kVolumeAgentWork : 1.0);
  return (static_cast<double>(run.agents) * agent + kCellWork * cells(run.size) * s) *
         std::max(steps_per_frame, 1);
}

AreaFit fit_to_budget(const RunParams& run, int species, int steps_per_frame, const FrameBudget& budget) {
  AreaFit fit{run, run, false};
  const double limit = budget.work_per_s / budget.fps;
  const double work = frame_work(run, species, steps_per_frame);
  if (work <= limit) return fit;
  // Work is proportional to the area at a fixed density: the factor follows directly.
  fit.run = scale_area(run, limit / work, run.size.volume() ? budget.min_volume_side : budget.min_short_side);
  fit.scaled = fit.run.size != run.size || fit.run.agents != run.agents;
  return fit;
}

std::string describe_fit(const AreaFit& fit) {
  const auto both = [](const RunParams& r) {
    return format_size(r.size) + " with " + format_count(r.agents) + " agents";
  };
  if (!fit.scaled) return both(fit.run);
  return both(fit.run) + " (the preset asks " + both(fit.full) + "; same agents per cell)";
}

}  // namespace physarum::run
