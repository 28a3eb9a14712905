#include "sim/environment.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/backend.hpp"
#include "sim/rule.hpp"

namespace physarum {

namespace {

bool ring_cell(size_t i, Size size) {
  const auto w = static_cast<size_t>(size.width);
  const size_t x = i % w;
  const size_t y = i / w;
  return x == 0 || y == 0 || x + 1 == w || y + 1 == static_cast<size_t>(size.height);
}

}  // namespace

void validate(const Environment& e, Size size, int species) {
  const size_t cells = cells_of(size);
  const std::string field = std::to_string(size.width) + "x" + std::to_string(size.height);
  if (!e.food.empty() && e.food.size() != cells) {
    throw Error("environment.food: " + std::to_string(e.food.size()) + " values for a field of " + field +
                " (" + std::to_string(cells) + " cells)");
  }
  for (const float v : e.food) {
    if (!(v >= 0.0f && v <= kMaxFood)) {
      throw Error("environment.food: a value of " + std::to_string(v) +
                  " is out of range: allowed 0 to 1e6 (finite)");
    }
  }
  if (!e.walls.empty() && e.walls.size() != cells) {
    throw Error("environment.walls: " + std::to_string(e.walls.size()) + " cells for a field of " + field +
                " (" + std::to_string(cells) + " cells)");
  }
  const size_t n = e.food_strength.size();
  if (n > 1 && n != static_cast<size_t>(species)) {
    throw Error("environment.food_strength: " + std::to_string(n) + " values for " + std::to_string(species) +
                " species (give one for all, or one per species)");
  }
  for (const float k : e.food_strength) {
    if (!(std::fabs(k) <= kMaxFoodStrength)) {
      throw Error("environment.food_strength = " + std::to_string(k) +
                  " is out of range: allowed -1000 to 1000 (finite)");
    }
  }
  const std::vector<uint8_t> walls = run_walls(e, size);
  bool free_cell = walls.empty();
  for (size_t i = 0; i < walls.size() && !free_cell; ++i) free_cell = walls[i] == 0;
  if (!free_cell) {
    throw Error("environment.walls: every cell of the " + field +
                " field is a wall; agents need at least one free cell");
  }
}

float food_strength_of(const Environment& e, int s) {
  if (e.food_strength.empty()) return 1.0f;
  if (e.food_strength.size() == 1) return e.food_strength[0];
  return e.food_strength[static_cast<size_t>(s)];
}

bool has_walls(const Environment& e) {
  if (e.boundary == Boundary::Walls) return true;
  for (const uint8_t w : e.walls) {
    if (w != 0) return true;
  }
  return false;
}

std::vector<uint8_t> run_walls(const Environment& e, Size size) {
  if (!has_walls(e)) return {};
  const size_t cells = cells_of(size);
  std::vector<uint8_t> out(cells, 0);
  for (size_t i = 0; i < cells; ++i) {
    const bool map = i < e.walls.size() && e.walls[i] != 0;
    out[i] = (map || (e.boundary == Boundary::Walls && ring_cell(i, size))) ? 1 : 0;
  }
  return out;
}

uint64_t move_out_of_walls(AgentState& a, const std::vector<uint8_t>& walls, Size size, uint32_t seed) {
  if (walls.empty()) return 0;
  const auto fw = static_cast<float>(size.width);
  const auto fh = static_cast<float>(size.height);
  const float iw = 1.0f / fw;
  const float ih = 1.0f / fh;
  const auto cell = [&](float x, float y) {
    return static_cast<size_t>(rule::cell_of(y, size.height)) * static_cast<size_t>(size.width) +
           static_cast<size_t>(rule::cell_of(x, size.width));
  };
  // The fallback takes the first free cell at or after the last try, wrapping; a sorted list of the
  // free cells answers that by binary search, so a map with few free cells costs no scan per agent.
  std::vector<size_t> free_cells;
  const auto first_free_from = [&](size_t from) {
    if (free_cells.empty()) {
      for (size_t c = 0; c < walls.size(); ++c)
        if (walls[c] == 0) free_cells.push_back(c);
      if (free_cells.empty()) throw Error("environment: no free cell to move an agent out of the walls");
    }
    const auto it = std::lower_bound(free_cells.begin(), free_cells.end(), from);
    return it == free_cells.end() ? free_cells.front() : *it;
  };
  uint64_t moved = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (walls[cell(a.x[i], a.y[i])] == 0) continue;
    ++moved;
    const uint32_t id = a.id[i];
    size_t last = 0;
    bool placed = false;
    for (uint32_t k = 0; k < 16 && !placed; ++k) {
      const float x =
          rule::wrap(rule::mul(rule::unit(rule::hash(seed, id, 2 + k, rule::kStreamSpawnA)), fw), fw, iw);
      const float y =
          rule::wrap(rule::mul(rule::unit(rule::hash(seed, id, 2 + k, rule::kStreamSpawnB)), fh), fh, ih);
      last = cell(x, y);
      if (walls[last] == 0) {
        a.x[i] = x;
        a.y[i] = y;
        placed = true;
      }
    }
    if (!placed) {
      const size_t c = first_free_from(last);
      a.x[i] = static_cast<float>(c % static_cast<size_t>(size.width)) + 0.5f;
      a.y[i] = static_cast<float>(c / static_cast<size_t>(size.width)) + 0.5f;
    }
  }
  return moved;
}

std::vector<uint8_t> walls_from_brightness(const std::vector<float>& brightness, float threshold) {
  std::vector<uint8_t> out(brightness.size());
  for (size_t i = 0; i < brightness.size(); ++i) out[i] = brightness[i] < threshold ? 1 : 0;
  return out;
}

}  // namespace physarum
