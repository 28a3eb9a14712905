#include "analysis/report_maps.hpp"

#include <algorithm>
#include <string>

namespace physarum::app::analysis {

EnvironmentMaps environment_maps(Size size, const std::vector<float>& food,
                                 const std::vector<uint8_t>& walls) {
  const size_t n = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  if (food.size() != n || walls.size() != n) {
    throw Error("the environment maps have " + std::to_string(food.size()) + " and " +
                std::to_string(walls.size()) + " cells, the field " + std::to_string(n));
  }
  EnvironmentMaps maps;
  Grid g{size.width, size.height, std::vector<float>(n, 0.0f)};
  bool any_food = false;
  for (size_t i = 0; i < n; ++i) {
    if (food[i] >= kMinTownFood) {
      g.values[i] = food[i];
      any_food = true;
    }
  }
  if (any_food) maps.food = std::move(g);
  if (std::any_of(walls.begin(), walls.end(), [](uint8_t c) { return c != 0; })) {
    Mask m{size.width, size.height, std::vector<uint8_t>(n, 0)};
    for (size_t i = 0; i < n; ++i) m.cells[i] = walls[i] != 0 ? 1 : 0;
    maps.walls = std::move(m);
  }
  return maps;
}

NetworkReport analyse_run_field(Size size, const std::vector<float>& planes, const std::vector<float>& food,
                                const std::vector<uint8_t>& walls, const NetworkOptions& o) {
  const size_t n = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  Grid g{size.width, size.height, std::vector<float>(n, 0.0f)};
  for (size_t p = 0; n > 0 && p < planes.size() / n; ++p) {
    for (size_t i = 0; i < n; ++i) g.values[i] += planes[p * n + i];
  }
  const EnvironmentMaps maps = environment_maps(size, food, walls);
  return analyse_network(g, maps.food ? &*maps.food : nullptr, maps.walls ? &*maps.walls : nullptr, o);
}

}  // namespace physarum::app::analysis
