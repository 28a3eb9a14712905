#include "atlas/worlds.hpp"

#include <algorithm>

#include "analysis/environment_maps.hpp"
#include "analysis/network_graph.hpp"
#include "analysis/spectrum.hpp"
#include "run/run.hpp"
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

// One world after another through the run library. A batched backend will replace this body:
// the recipes of an atlas differ only in model values, so they can share one allocation and one
// launch per stage, each world bit-identical to the same world run alone.
std::vector<WorldResult> grow_worlds(const std::vector<run::Recipe>& recipes, uint64_t steps,
                                     const std::function<void(size_t)>& done) {
  std::vector<WorldResult> out;
  out.reserve(recipes.size());
  for (size_t i = 0; i < recipes.size(); ++i) {
    run::Run sim(recipes[i]);
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
    out.push_back(std::move(w));
    if (done) done(i);
  }
  return out;
}

}  // namespace physarum::app::atlas
