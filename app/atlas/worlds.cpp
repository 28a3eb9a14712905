#include "atlas/worlds.hpp"

#include <algorithm>
#include <exception>
#include <mutex>

#include "analysis/environment_maps.hpp"
#include "analysis/network_graph.hpp"
#include "analysis/spectrum.hpp"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "video/signals.hpp"

namespace physarum::app::atlas {

WorldStats world_stats(Size size, const std::vector<float>& field, const std::vector<uint8_t>& walls) {
  WorldStats s;
  double sum = 0;
  for (float v : field) sum += v;
  s.mean = sum / static_cast<double>(field.size());
  double sq = 0;
  for (float v : field) sq += (v - s.mean) * (v - s.mean);
  s.variance = sq / static_cast<double>(field.size());

  const analysis::EnvironmentMaps maps =
      analysis::environment_maps(size, std::vector<float>(field.size(), 0.0f), walls);
  const analysis::Mask* wall_mask = maps.walls ? &*maps.walls : nullptr;
  const analysis::Grid g{size.width, size.height, field};
  s.wavelength =
      analysis::mean_wavelength(analysis::radial_power(analysis::network_cells(g, wall_mask), size), size);

  const analysis::NetworkReport rep = analysis::analyse_network(g, nullptr, wall_mask, {});
  const auto walled =
      wall_mask ? std::count(wall_mask->cells.begin(), wall_mask->cells.end(), uint8_t{1}) : 0;
  const auto open = static_cast<int64_t>(field.size()) - walled;
  s.coverage = open > 0 ? static_cast<double>(rep.network_cells) / static_cast<double>(open) : 0.0;
  if (rep.graph) {
    std::vector<int> degree(rep.graph->nodes.size(), 0);
    for (const analysis::GraphEdge& e : rep.graph->edges) {
      ++degree[static_cast<size_t>(e.a)];
      ++degree[static_cast<size_t>(e.b)];
    }
    s.junctions = static_cast<int>(std::count_if(degree.begin(), degree.end(), [](int d) { return d >= 3; }));
  }
  return s;
}

namespace {

WorldResult grow_one(const run::Recipe& recipe, uint64_t steps) {
  run::Run sim(recipe);
  step_in_slices(steps, [&](uint64_t k) { sim.step(k); });
  throw_if_stopped();
  Backend& b = sim.backend();
  WorldResult w;
  w.size = b.size();
  w.preset = sim.preset();
  w.species = b.species();
  b.read_field(w.planes);
  b.read_food(w.food);
  b.read_walls(w.walls);
  const size_t cells = static_cast<size_t>(w.size.width) * static_cast<size_t>(w.size.height);
  w.field.assign(w.planes.begin(), w.planes.begin() + static_cast<std::ptrdiff_t>(cells));
  for (size_t c = 1; c < w.planes.size() / cells; ++c)
    for (size_t j = 0; j < cells; ++j) w.field[j] += w.planes[c * cells + j];
  w.stats = world_stats(w.size, w.field, w.walls);
  return w;
}

}  // namespace

// CPU worlds with every core (threads 0) run side by side, one thread each: a small world's step
// is too short to share among threads (on 16 threads the 24 x 24 atlas took longer than on 2), and
// a run is the same bytes at every thread count (docs/MODEL.md, "Determinism").
bool side_by_side(const std::vector<run::Recipe>& recipes) {
  if (recipes.size() < 2) return false;
  for (const run::Recipe& r : recipes) {
    const bool cpu = r.backend == "cpu" || (r.backend == "auto" && cuda_device().empty());
    if (!cpu || r.threads != 0) return false;
  }
  return default_threads() > 1;
}

// One world after another through the run library, or side by side on the CPU. A batched backend
// will replace this body: the recipes of an atlas differ only in model values, so they can share
// one allocation and one launch per stage, each world bit-identical to the same world run alone.
std::vector<WorldResult> grow_worlds(const std::vector<run::Recipe>& recipes, uint64_t steps,
                                     const std::function<void(size_t)>& done) {
  std::vector<WorldResult> out(recipes.size());
  if (!side_by_side(recipes)) {
    for (size_t i = 0; i < recipes.size(); ++i) {
      out[i] = grow_one(recipes[i], steps);
      if (done) done(i);
    }
    return out;
  }
  std::mutex m;
  std::exception_ptr failed;
  size_t finished = 0;
  const auto n = static_cast<int64_t>(recipes.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(default_threads())
  for (int64_t i = 0; i < n; ++i) {
    try {
      run::Recipe one = recipes[static_cast<size_t>(i)];
      one.threads = 1;
      WorldResult w = grow_one(one, steps);
      const std::lock_guard<std::mutex> lock(m);
      out[static_cast<size_t>(i)] = std::move(w);
      if (done) done(finished++);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(m);
      if (!failed) failed = std::current_exception();
    }
  }
  if (failed) std::rethrow_exception(failed);
  return out;
}

}  // namespace physarum::app::atlas
