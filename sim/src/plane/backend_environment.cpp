// The environment part of the Backend interface, shared by every backend: validation, the host copy
// (what overlays read), brush edits of food and walls. Each backend makes its own state follow in
// environment_changed().
#include <algorithm>
#include <atomic>
#include <cmath>

#include "backends.hpp"
#include "sim/backend.hpp"
#include "sim/rule.hpp"

namespace physarum {

uint64_t Backend::next_environment_version() {
  static std::atomic<uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) + 1;
}

void Backend::set_environment(const Environment& e) {
  validate(e, size_, species_count());
  std::vector<uint8_t> walls = run_walls(e, size_);
  bool added = false;
  for (size_t i = 0; i < walls.size() && !added; ++i)
    added = walls[i] != 0 && (walls_.empty() || walls_[i] == 0);
  env_ = e;
  walls_ = std::move(walls);
  env_version_ = next_environment_version();
  environment_changed(added);
}

void Backend::brush_environment(const BrushStroke& b) {
  validate_brush(b, size_, species_count());
  Environment next = env_;
  const size_t cells = static_cast<size_t>(size_.width) * static_cast<size_t>(size_.height);
  if (b.mode == BrushMode::Food && next.food.empty()) next.food.assign(cells, 0.0f);
  if (b.mode != BrushMode::Food && next.walls.empty()) {
    if (b.mode == BrushMode::EraseWall) return;  // no wall map: nothing to erase
    next.walls.assign(cells, 0);
  }
  for_each_brushed_cell(b, size_, [&](size_t i) {
    switch (b.mode) {
      case BrushMode::Food:
        next.food[i] = std::min(rule::brush_apply(next.food[i], b.amount), kMaxFood);
        break;
      case BrushMode::Wall: next.walls[i] = 1; break;
      case BrushMode::EraseWall: next.walls[i] = 0; break;
      case BrushMode::Trail: break;
    }
  });
  set_environment(next);  // validates (a brush that walls in every cell is refused)
}

EnvironmentCells environment_cells(const Environment& e, const std::vector<uint8_t>& run_walls) {
  EnvironmentCells out;
  for (size_t i = 0; i < run_walls.size(); ++i) {
    if (run_walls[i] != 0) out.walls.push_back(static_cast<uint32_t>(i));
  }
  for (size_t i = 0; i < e.food.size(); ++i) {
    if (e.food[i] > 0.0f && (run_walls.empty() || run_walls[i] == 0)) {
      out.food.push_back(static_cast<uint32_t>(i));
      out.food_values.push_back(e.food[i]);
    }
  }
  return out;
}

void Backend::read_food(std::vector<float>& out) const {
  out = env_.food;
  out.resize(static_cast<size_t>(size_.width) * static_cast<size_t>(size_.height), 0.0f);
}

void Backend::read_walls(std::vector<uint8_t>& out) const {
  out = walls_;
  out.resize(static_cast<size_t>(size_.width) * static_cast<size_t>(size_.height), 0);
}

}  // namespace physarum
