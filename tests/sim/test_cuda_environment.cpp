// The environment (docs/MODEL.md, "Environment") on the CUDA backend against the CPU backend, bit for
// bit: food, walls, both boundaries, odd sizes, one and three species, and live edits of food and
// walls mid-run. Every test skips, saying why, without a CUDA build or device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "backends.hpp"
#include "cuda_pair.hpp"
#include "sim/backend.hpp"
#include "sim/spawn.hpp"

namespace physarum {
namespace {

#if defined(PHYSARUM_HAS_CUDA)

using test::Pair;
using test::same_bits;
using test::step_both;
// Both backends from the same spawned agents (each moves them out of walls itself).
const auto make_pair = test::make_species_pair;

void expect_identical(Pair& p, const char* when) {
  SCOPED_TRACE(when);
  AgentState ag;
  test::expect_same_field_and_agents(p, &ag);
  if (::testing::Test::HasFatalFailure()) return;
  std::vector<uint8_t> wc, wg;
  p.cpu->read_walls(wc);
  p.gpu->read_walls(wg);
  EXPECT_TRUE(same_bits(wc, wg, "walls"));
  // No agent in a wall on either side.
  const Size s = p.cpu->size();
  ASSERT_GT(ag.size(), 0U) << "no agents to check";
  size_t inside = 0;
  for (size_t i = 0; i < ag.size(); ++i)
    inside += wg[static_cast<size_t>(ag.y[i]) * static_cast<size_t>(s.width) + static_cast<size_t>(ag.x[i])];
  EXPECT_EQ(inside, 0U) << "CUDA agents in walls";
}

size_t cells(Size s) {
  return static_cast<size_t>(s.width) * static_cast<size_t>(s.height);
}

// Walls: blobs and a thin line with gaps; food: a few dozen points of varied strength.
Environment test_environment(Size s, Boundary boundary) {
  Environment e;
  e.boundary = boundary;
  e.walls.assign(cells(s), 0);
  e.food.assign(cells(s), 0.0f);
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      const size_t i = static_cast<size_t>(y) * s.width + x;
      const double dx = x - 0.3 * s.width, dy = y - 0.6 * s.height;
      if (dx * dx + dy * dy < 0.01 * s.width * s.height) e.walls[i] = 1;
      if (x == s.width / 2 && y % 9 != 0) e.walls[i] = 1;
    }
  }
  for (int k = 0; k < 40; ++k) {
    const size_t i = (static_cast<size_t>(k) * 7919U + 13U) % cells(s);
    e.food[i] = 0.05f * static_cast<float>(1 + k % 9);
  }
  return e;
}

void run_and_compare(const SimConfig& c) {
  Pair p = make_pair(c);
  expect_identical(p, "after spawn");
  step_both(p, 1);
  step_both(p, 37);  // single steps, graph chunks and their boundaries
  expect_identical(p, "38 steps");
  step_both(p, 562);
  expect_identical(p, "600 steps");
}

TEST(CudaEnvironment, FoodAndWallsOnTheTorusOddSizeLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = {257, 131};
  c.agents = 20000;
  c.seed = 5;
  c.model.sensor_distance = 9.0f;
  c.environment = test_environment(c.size, Boundary::Wrap);
  c.environment.food_strength = {2.0f};
  run_and_compare(c);
}

TEST(CudaEnvironment, ClosedBoxOddSizeJonesJitterLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = {199, 101};
  c.agents = 15000;
  c.seed = 8;
  c.model.turn_rule = TurnRule::Jones;
  c.model.jitter = 0.2f;
  c.model.step_size = 1.7f;
  c.environment = test_environment(c.size, Boundary::Walls);
  run_and_compare(c);
}

TEST(CudaEnvironment, ClosedBoxWithoutMapsLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = {97, 61};
  c.agents = 5000;
  c.environment.boundary = Boundary::Walls;
  run_and_compare(c);
}

TEST(CudaEnvironment, ThreeSpeciesFoodAndWallsBothBoundariesLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  for (const Boundary b : {Boundary::Wrap, Boundary::Walls}) {
    SimConfig c;
    c.size = {211, 97};
    c.agents = 30000;
    c.seed = 21;
    c.species.list.resize(3);
    c.species.list[1].model.sensor_angle_deg = 30.0f;
    c.species.list[2].model.turn_rule = TurnRule::Jones;
    c.species.list[2].model.decay = 0.05f;
    c.species.interaction = {1, -0.5f, 0, 0.25f, 1, -1, -2, 0.5f, 1};
    c.environment = test_environment(c.size, b);
    c.environment.food_strength = {1.0f, -0.5f, 3.0f};
    SCOPED_TRACE(b == Boundary::Wrap ? "wrap" : "walls");
    run_and_compare(c);
  }
}

TEST(CudaEnvironment, FoodOnlyTakesTheWalllessAgentKernelLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  SimConfig c;
  c.size = {160, 90};
  c.agents = 8000;
  c.environment.food = test_environment(c.size, Boundary::Wrap).food;
  run_and_compare(c);
}

TEST(CudaEnvironment, LiveBrushEditsOfFoodAndWallsLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  for (const int species : {1, 3}) {
    SCOPED_TRACE(species == 1 ? "one species" : "three species");
    SimConfig c;
    c.size = {173, 89};
    c.agents = 12000;
    c.seed = 2;
    if (species == 3) {
      c.species.list.resize(3);
      c.species.interaction = {1, -1, 0, 0, 1, -1, -1, 0, 1};
    }
    Pair p = make_pair(c);
    step_both(p, 40);
    const auto both = [&](auto&& f) {
      f(*p.cpu);
      f(*p.gpu);
    };
    BrushStroke food;
    food.mode = BrushMode::Food;
    food.x = 30.5f;
    food.y = 20.5f;
    food.radius = 3;
    food.amount = 0.7f;
    both([&](Backend& b) { b.brush(food); });
    step_both(p, 33);
    expect_identical(p, "after a food stroke");
    BrushStroke wall;
    wall.mode = BrushMode::Wall;
    wall.x = 100;
    wall.y = 45;
    wall.radius = 12;  // over many agents and much trail
    both([&](Backend& b) { b.brush(wall); });
    expect_identical(p, "right after a wall stroke");
    step_both(p, 64);
    expect_identical(p, "64 steps after a wall stroke");
    BrushStroke erase = wall;
    erase.mode = BrushMode::EraseWall;
    erase.radius = 5;
    both([&](Backend& b) { b.brush(erase); });
    BrushStroke trail;
    trail.x = 100;
    trail.y = 45;
    trail.radius = 9;
    trail.amount = 4;
    both([&](Backend& b) { b.brush(trail); });  // over the remaining walls, which stay 0
    step_both(p, 31);
    expect_identical(p, "after erasing and a trail stroke");
    Environment next = test_environment(c.size, Boundary::Walls);
    next.food_strength = {species == 1 ? 1.5f : -1.0f};
    both([&](Backend& b) { b.set_environment(next); });
    expect_identical(p, "right after set_environment (closed box)");
    step_both(p, 100);
    expect_identical(p, "100 steps in the closed box");
    both([&](Backend& b) { b.set_environment(Environment{}); });
    step_both(p, 50);
    expect_identical(p, "50 steps with the environment removed");
  }
}

#endif

}  // namespace
}  // namespace physarum
