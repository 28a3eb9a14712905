#include "atlas/worlds.hpp"

#include <algorithm>
#include <mutex>

#include "analysis/network_graph.hpp"
#include "analysis/report_maps.hpp"
#include "analysis/spectrum.hpp"
#include "run/batch.hpp"
#include "sim/backend.hpp"
#include "system/signals.hpp"

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

// The worlds through the run library's batch (one CUDA batch, or runs side by side or in turn),
// grown together, then read one by one and measured side by side on the CPU's threads.
std::vector<WorldResult> grow_worlds(const std::vector<run::Recipe>& recipes, uint64_t steps,
                                     const std::function<void(size_t)>& done, std::string* how) {
  run::Batch batch(recipes);
  if (how != nullptr) *how = batch.note();
  step_in_slices(steps, [&](uint64_t k) { batch.step(k); });
  throw_if_stopped();
  std::vector<WorldResult> out(recipes.size());
  for (size_t i = 0; i < out.size(); ++i) {
    WorldResult& w = out[i];
    w.size = batch.size(i);
    w.preset = batch.preset(i);
    w.species = batch.species(i);
    batch.read_field(i, w.planes);
    batch.read_food(i, w.food);
    batch.read_walls(i, w.walls);
  }
  std::mutex m;
  size_t finished = 0;
  const auto n = static_cast<int64_t>(out.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(default_threads())
  for (int64_t i = 0; i < n; ++i) {
    WorldResult& w = out[static_cast<size_t>(i)];
    const size_t cells = static_cast<size_t>(w.size.width) * static_cast<size_t>(w.size.height);
    w.field.assign(w.planes.begin(), w.planes.begin() + static_cast<std::ptrdiff_t>(cells));
    for (size_t c = 1; c < w.planes.size() / cells; ++c)
      for (size_t j = 0; j < cells; ++j) w.field[j] += w.planes[c * cells + j];
    w.stats = world_stats(w.size, w.field, w.walls);
    const std::lock_guard<std::mutex> lock(m);
    if (done) done(finished++);
  }
  return out;
}

}  // namespace physarum::app::atlas
