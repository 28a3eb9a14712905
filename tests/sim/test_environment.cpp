// The environment (docs/MODEL.md, "Environment") on the CPU backend: emission checked by hand and by
// conservation, walls that no agent ever enters and that hold no trail, the closed box, brush edits,
// refused inputs that change nothing. CPU vs CUDA is in test_cuda_environment.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "sim/backend.hpp"
#include "sim/environment.hpp"
#include "sim/rule.hpp"
#include "sim/spawn.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

size_t cells(Size s) {
  return static_cast<size_t>(s.width) * static_cast<size_t>(s.height);
}

size_t cell_of(const AgentState& a, size_t i, Size s) {
  return static_cast<size_t>(a.y[i]) * static_cast<size_t>(s.width) + static_cast<size_t>(a.x[i]);
}

// One thread: these fields are tiny, and results do not depend on the thread count (tested elsewhere).
std::unique_ptr<Backend> cpu(SimConfig c) {
  c.threads = 1;
  return create_backend(BackendKind::Cpu, c);
}

// Walls: a filled rectangle, a one-cell-thick vertical line with a gap, and a diagonal.
std::vector<uint8_t> test_walls(Size s) {
  std::vector<uint8_t> w(cells(s), 0);
  const auto set = [&](int x, int y) { w[static_cast<size_t>(y) * s.width + x] = 1; };
  for (int y = s.height / 4; y < s.height / 2; ++y)
    for (int x = s.width / 5; x < s.width / 3; ++x) set(x, y);
  for (int y = 0; y < s.height; ++y)
    if (y < s.height / 2 - 2 || y > s.height / 2 + 2) set(s.width * 2 / 3, y);
  for (int i = 0; i < std::min(s.width, s.height) / 2; ++i) set(s.width / 2 + i / 2, s.height - 1 - i);
  return w;
}

// Every agent on a free cell and every channel of every wall cell exactly +0.
void expect_walls_respected(Backend& b, const std::vector<uint8_t>& walls, const char* when) {
  const Size s = b.size();
  const AgentState a = b.read_agents();
  ASSERT_GT(a.size(), 0U) << when << ": no agents to check";
  size_t inside = 0;
  for (size_t i = 0; i < a.size(); ++i) inside += walls[cell_of(a, i, s)] != 0 ? 1 : 0;
  EXPECT_EQ(inside, 0U) << when << ": agents in walls";
  std::vector<float> f;
  b.read_field(f);
  size_t trail = 0;
  for (size_t c = 0; c < f.size(); ++c) {
    if (walls[c % cells(s)] != 0 && !(f[c] == 0.0f && !std::signbit(f[c]))) ++trail;
  }
  EXPECT_EQ(trail, 0U) << when << ": wall cells holding trail";
}

TEST(Environment, EmissionByHand) {
  // Decay 0 and diffuse 0: the field update is G = F + C * deposit exactly, so after each step every
  // cell holds what was emitted and deposited into it, which we add up here in double.
  SimConfig c;
  c.size = {7, 5};
  c.agents = 3;
  c.model.decay = 0.0f;
  c.model.diffuse = 0.0f;
  c.model.deposit = 0.25f;
  c.environment.food.assign(cells(c.size), 0.0f);
  c.environment.food[1 * 7 + 2] = 0.5f;
  c.environment.food[4 * 7 + 6] = 2.0f;
  c.environment.food[0] = 1.0f;  // under a wall: emits nothing
  c.environment.walls.assign(cells(c.size), 0);
  c.environment.walls[0] = 1;
  c.environment.food_strength = {3.0f};
  auto b = cpu(c);
  std::vector<double> expected(cells(c.size), 0.0);
  for (int step = 0; step < 4; ++step) {
    b->step(1);
    expected[1 * 7 + 2] += 3.0 * 0.5;
    expected[4 * 7 + 6] += 3.0 * 2.0;
    const AgentState a = b->read_agents();
    for (size_t i = 0; i < a.size(); ++i) expected[cell_of(a, i, c.size)] += 0.25;
    std::vector<float> f;
    b->read_field(f);
    for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(static_cast<double>(f[i]), expected[i]) << "cell " << i;
  }
  EXPECT_EQ(expected[0], 0.0);
}

TEST(Environment, EmissionPerSpeciesStrengthRepelsWithANegativeOne) {
  SimConfig c;
  c.size = {6, 4};
  c.agents = 1;
  c.species.list.resize(2);
  for (Species& s : c.species.list) {
    s.model.decay = 0.0f;
    s.model.diffuse = 0.0f;
    s.model.deposit = 0.0f;  // only emission adds trail
  }
  c.species.interaction = {1, 0, 0, 1};
  c.environment.food.assign(cells(c.size), 0.0f);
  c.environment.food[9] = 0.75f;
  c.environment.food_strength = {2.0f, -0.5f};
  auto b = cpu(c);
  b->step(3);
  std::vector<float> f;  // planes (2, H, W)
  b->read_field(f);
  EXPECT_EQ(f[9], 4.5f);                     // 3 x 2 x 0.75
  EXPECT_EQ(f[cells(c.size) + 9], -1.125f);  // 3 x -0.5 x 0.75
  double others = 0;
  for (size_t i = 0; i < f.size(); ++i) others += (i % cells(c.size) == 9) ? 0.0 : std::fabs(f[i]);
  EXPECT_EQ(others, 0.0);
}

TEST(Environment, ConservationWithEmission) {
  // Decay 0, no walls, wrap: the blur only moves trail, so each step the total grows by
  // agents x deposit plus the emitted amount (up to float rounding of the sums).
  SimConfig c;
  c.size = {41, 29};
  c.agents = 700;
  c.seed = 3;
  c.model.decay = 0.0f;
  c.model.deposit = 0.5f;
  c.environment.food.assign(cells(c.size), 0.0f);
  double emitted = 0;
  for (size_t i = 0; i < cells(c.size); i += 37) {
    c.environment.food[i] = 0.1f * static_cast<float>(i % 7);
    emitted += 1.5 * static_cast<double>(0.1f * static_cast<float>(i % 7));
  }
  c.environment.food_strength = {1.5f};
  auto b = cpu(c);
  const auto total = [&] {
    std::vector<float> f;
    b->read_field(f);
    double t = 0;
    for (float v : f) t += v;
    return t;
  };
  double before = total();
  for (int step = 0; step < 60; ++step) {
    b->step(1);
    const double after = total();
    const double grew = 700 * 0.5 + emitted;
    EXPECT_NEAR(after - before, grew, 1e-5 * std::max(after, 1.0)) << "step " << step;
    before = after;
  }
}

TEST(Environment, NoAgentEverInAWallAndWallsHoldNoTrail) {
  SimConfig c;
  c.size = {64, 48};
  c.agents = 400;
  c.seed = 9;
  c.model.turn_rule = TurnRule::Jones;
  c.model.jitter = 0.3f;
  c.environment.walls = test_walls(c.size);
  c.environment.food.assign(cells(c.size), 0.0f);
  c.environment.food[10 * 64 + 50] = 5.0f;
  auto b = cpu(c);
  const std::vector<uint8_t> walls = run_walls(c.environment, c.size);
  expect_walls_respected(*b, walls, "after spawn");
  for (int k = 0; k < 100; ++k) {
    b->step(100);
    expect_walls_respected(*b, walls, "during the run");
    if (HasFailure()) break;
  }
  EXPECT_EQ(b->steps_done(), HasFailure() ? b->steps_done() : 10000U);
}

TEST(Environment, ClosedBoxKeepsAgentsOffTheRing) {
  SimConfig c;
  c.size = {37, 23};
  c.agents = 300;
  c.model.sensor_distance = 9.0f;  // sensors reach past the edges often
  c.environment.boundary = Boundary::Walls;
  auto b = cpu(c);
  std::vector<uint8_t> walls;
  b->read_walls(walls);
  size_t ring = 0;
  for (uint8_t w : walls) ring += w;
  EXPECT_EQ(ring, 2U * 37 + 2U * 23 - 4);
  for (int k = 0; k < 30; ++k) {
    b->step(100);
    expect_walls_respected(*b, walls, "closed box");
    if (HasFailure()) break;
  }
}

TEST(Environment, ClosedBoxNothingCrossesTheEdgesEvenWithLongSteps) {
  // Step size 2.5 could jump the one-cell ring on a torus; the closed box refuses moves that leave
  // the field, so every agent stays inside the ring.
  SimConfig c;
  c.size = {30, 20};
  c.agents = 200;
  c.model.step_size = 2.5f;
  c.environment.boundary = Boundary::Walls;
  auto b = cpu(c);
  std::vector<uint8_t> walls;
  b->read_walls(walls);
  for (int k = 0; k < 20; ++k) {
    b->step(50);
    expect_walls_respected(*b, walls, "long steps");
    if (HasFailure()) break;
  }
}

TEST(Environment, SpawnIsMovedOutOfWallsDeterministically) {
  SimConfig c;
  c.size = {50, 40};
  c.agents = 3000;
  c.seed = 4;
  c.environment.walls.assign(cells(c.size), 1);
  for (int x = 20; x < 25; ++x) c.environment.walls[static_cast<size_t>(13) * 50 + x] = 0;  // 5 free cells
  auto a = cpu(c);
  auto b = cpu(c);
  const AgentState sa = a->read_agents();
  const AgentState sb = b->read_agents();
  EXPECT_EQ(sa.x, sb.x);
  EXPECT_EQ(sa.y, sb.y);
  const AgentState spawned = spawn_agents(c.spawn.mode, c.size, c.agents, c.seed);
  ASSERT_EQ(sa.size(), 3000u);
  ASSERT_EQ(spawned.size(), 3000u);
  for (size_t i = 0; i < sa.size(); ++i) {
    ASSERT_EQ(c.environment.walls[cell_of(sa, i, c.size)], 0) << "agent " << i;
    EXPECT_EQ(sa.theta[i], spawned.theta[i]) << "headings are kept";
    if (c.environment.walls[cell_of(spawned, i, c.size)] == 0) {
      EXPECT_EQ(sa.x[i], spawned.x[i]) << "an agent on a free cell stays";
    }
  }
  // One free cell: the hash tries miss it almost always; the scan puts agents at its centre.
  SimConfig one = c;
  one.environment.walls.assign(cells(c.size), 1);
  one.environment.walls[static_cast<size_t>(7) * 50 + 31] = 0;
  const AgentState so = cpu(one)->read_agents();
  ASSERT_EQ(so.size(), 3000u);
  size_t at_centre = 0;
  for (size_t i = 0; i < so.size(); ++i) {
    ASSERT_EQ(cell_of(so, i, c.size), static_cast<size_t>(7) * 50 + 31);
    at_centre += (so.x[i] == 31.5f && so.y[i] == 7.5f) ? 1 : 0;
  }
  EXPECT_GT(at_centre, so.size() * 9 / 10);
}

// The placement as docs/MODEL.md words it, one agent at a time: sixteen hashed tries, then the first
// free cell at or after the last try in row-major order, wrapping.
void place_by_scan(AgentState& a, size_t i, const std::vector<uint8_t>& walls, Size s, uint32_t seed) {
  const auto fw = static_cast<float>(s.width);
  const auto fh = static_cast<float>(s.height);
  const auto at = [&](float x, float y) {
    return static_cast<size_t>(rule::cell_of(y, s.height)) * s.width +
           static_cast<size_t>(rule::cell_of(x, s.width));
  };
  if (walls[at(a.x[i], a.y[i])] == 0) return;
  size_t last = 0;
  for (uint32_t k = 0; k < 16; ++k) {
    const float x = rule::wrap(
        rule::mul(rule::unit(rule::hash(seed, a.id[i], 2 + k, rule::kStreamSpawnA)), fw), fw, 1.0f / fw);
    const float y = rule::wrap(
        rule::mul(rule::unit(rule::hash(seed, a.id[i], 2 + k, rule::kStreamSpawnB)), fh), fh, 1.0f / fh);
    last = at(x, y);
    if (walls[last] == 0) {
      a.x[i] = x;
      a.y[i] = y;
      return;
    }
  }
  for (size_t j = 0; j < walls.size(); ++j) {
    const size_t c = (last + j) % walls.size();
    if (walls[c] != 0) continue;
    a.x[i] = static_cast<float>(c % s.width) + 0.5f;
    a.y[i] = static_cast<float>(c / s.width) + 0.5f;
    return;
  }
}

TEST(Environment, MovingOutOfWallsPicksTheCellsOfTheScan) {
  const Size s{61, 37};
  for (const int free_cells : {1, 3, 40, 900}) {
    std::vector<uint8_t> walls(cells(s), 1);
    for (int k = 0; k < free_cells; ++k) walls[(static_cast<size_t>(k) * 7919u + 13u) % walls.size()] = 0;
    const AgentState spawned = spawn_agents(SpawnMode::Random, s, 4000, 9);
    AgentState fast = spawned;
    AgentState slow = spawned;
    const uint64_t moved = move_out_of_walls(fast, walls, s, 9);
    uint64_t expected_moved = 0;
    for (size_t i = 0; i < slow.size(); ++i) {
      expected_moved += walls[cell_of(slow, i, s)] != 0 ? 1 : 0;
      place_by_scan(slow, i, walls, s, 9);
    }
    EXPECT_EQ(moved, expected_moved) << free_cells << " free cells";
    EXPECT_EQ(fast.x, slow.x) << free_cells << " free cells";
    EXPECT_EQ(fast.y, slow.y) << free_cells << " free cells";
  }
}

// A walls map with one free cell: every agent misses it with its hashed tries and falls back to the
// scan. Scanning the field per agent took minutes here; a few seconds is a generous bound.
TEST(Environment, MovingManyAgentsToOneFreeCellIsFast) {
  const Size s{1024, 1024};
  std::vector<uint8_t> walls(cells(s), 1);
  walls[5] = 0;
  AgentState a = spawn_agents(SpawnMode::Random, s, 20000, 3);
  const double start = test::process_cpu_seconds();
  EXPECT_EQ(move_out_of_walls(a, walls, s, 3), 20000u);
  EXPECT_LT(test::process_cpu_seconds() - start, 5.0);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(cell_of(a, i, s), 5u) << "agent " << i;
}

TEST(Environment, NoEnvironmentAndAnEmptyOneGiveTheSameBits) {
  // Zero food everywhere, a wall map without walls, wrap: no food cell, no wall: the path without an
  // environment.
  SimConfig c;
  c.size = {45, 33};
  c.agents = 900;
  c.seed = 12;
  c.model.turn_rule = TurnRule::Jones;
  SimConfig e = c;
  e.environment.food.assign(cells(c.size), 0.0f);
  e.environment.walls.assign(cells(c.size), 0);
  e.environment.food_strength = {4.0f};
  auto a = cpu(c);
  auto b = cpu(e);
  a->step(150);
  b->step(150);
  std::vector<float> fa, fb;
  a->read_field(fa);
  b->read_field(fb);
  EXPECT_EQ(fa, fb);
  EXPECT_EQ(a->read_agents().theta, b->read_agents().theta);
}

TEST(Environment, WallsWithOneSpeciesMatchTheWeightedPath) {
  // With walls the backend takes the weighted species path even for one species; W = [[1]] and
  // W = [[1]] given explicitly as a species set must agree (a product by 1 is exact).
  SimConfig c;
  c.size = {40, 30};
  c.agents = 500;
  c.environment.walls = test_walls(c.size);
  SimConfig s = c;
  s.species.list.resize(1);
  s.species.interaction = {1.0f};
  auto a = cpu(c);
  auto b = cpu(s);
  a->step(200);
  b->step(200);
  std::vector<float> fa, fb;
  a->read_field(fa);
  b->read_field(fb);
  EXPECT_EQ(fa, fb);
  EXPECT_EQ(a->read_agents().x, b->read_agents().x);
}

TEST(Environment, SeedAndTrailBrushNeverWriteIntoWalls) {
  SimConfig c;
  c.size = {32, 24};
  c.agents = 50;
  c.environment.walls = test_walls(c.size);
  auto b = cpu(c);
  b->set_field(std::vector<float>(cells(c.size), 2.0f));
  BrushStroke s;
  s.x = 9;
  s.y = 9;
  s.radius = 6;
  s.amount = 3;
  b->brush(s);
  expect_walls_respected(*b, c.environment.walls, "after set_field and the brush");
  std::vector<float> f;
  b->read_field(f);
  EXPECT_EQ(f[static_cast<size_t>(9) * 32 + 3], 2.0f + 3.0f) << "a free cell in the brush";
}

TEST(Environment, BrushEditsFoodAndWallsLive) {
  SimConfig c;
  c.size = {40, 30};
  c.agents = 2000;  // many agents stand under the wall stroke
  auto b = cpu(c);
  b->step(5);
  const uint64_t v0 = b->environment_version();
  BrushStroke food;
  food.mode = BrushMode::Food;
  food.x = 10.5f;
  food.y = 10.5f;
  food.radius = 2;
  food.amount = 0.5f;
  b->brush(food);
  b->brush(food);
  std::vector<float> e;
  b->read_food(e);
  EXPECT_EQ(e[static_cast<size_t>(10) * 40 + 10], 1.0f);
  EXPECT_EQ(e[static_cast<size_t>(12) * 40 + 10], 1.0f);  // dx^2 + dy^2 = 4 <= r^2
  EXPECT_EQ(e[static_cast<size_t>(13) * 40 + 10], 0.0f);
  food.amount = -5;
  food.radius = 0;
  b->brush(food);  // erases one cell; never below 0
  b->read_food(e);
  EXPECT_EQ(e[static_cast<size_t>(10) * 40 + 10], 0.0f);
  EXPECT_GT(b->environment_version(), v0);

  BrushStroke wall;
  wall.mode = BrushMode::Wall;
  wall.x = 25;
  wall.y = 15;
  wall.radius = 6;
  b->brush(wall);
  std::vector<uint8_t> walls;
  b->read_walls(walls);
  EXPECT_EQ(walls[static_cast<size_t>(15) * 40 + 25], 1);
  EXPECT_EQ(walls[static_cast<size_t>(15) * 40 + 31], 1);
  EXPECT_EQ(walls[static_cast<size_t>(15) * 40 + 32], 0);
  expect_walls_respected(*b, walls, "after the wall stroke");
  b->step(300);
  expect_walls_respected(*b, walls, "300 steps after the wall stroke");

  BrushStroke erase = wall;
  erase.mode = BrushMode::EraseWall;
  erase.radius = 2;
  b->brush(erase);
  b->read_walls(walls);
  EXPECT_EQ(walls[static_cast<size_t>(15) * 40 + 25], 0);
  EXPECT_EQ(walls[static_cast<size_t>(15) * 40 + 29], 1);
}

TEST(Environment, RefusedEnvironmentsChangeNothing) {
  SimConfig c;
  c.size = {20, 10};
  c.agents = 10;
  c.environment.food.assign(cells(c.size), 0.25f);
  auto b = cpu(c);
  const Environment before = b->environment();
  const uint64_t version = b->environment_version();
  std::vector<Environment> bad(7, before);
  bad[0].food.assign(5, 1.0f);                // wrong size
  bad[1].food[3] = -1.0f;                     // negative food
  bad[2].food[3] = std::nanf("");             // NaN food
  bad[3].walls.assign(cells(c.size) + 1, 0);  // wrong size
  bad[4].walls.assign(cells(c.size), 1);      // no free cell
  bad[5].food_strength = {std::nanf("")};     // NaN strength
  bad[6].food_strength = {1.0f, 2.0f, 3.0f};  // three strengths for one species
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_THROW(b->set_environment(bad[i]), Error) << "case " << i;
    EXPECT_EQ(b->environment(), before) << "case " << i;
    EXPECT_EQ(b->environment_version(), version) << "case " << i;
  }
  // A closed box of 2 x 2 cells is all ring: no free cell.
  SimConfig tiny;
  tiny.size = {2, 2};
  tiny.agents = 1;
  tiny.environment.boundary = Boundary::Walls;
  EXPECT_THROW(cpu(tiny), Error);
  // A wall stroke over every cell is refused the same way.
  BrushStroke all;
  all.mode = BrushMode::Wall;
  all.x = 10;
  all.y = 5;
  all.radius = 20;
  EXPECT_THROW(b->brush(all), Error);
  EXPECT_EQ(b->environment(), before);
}

}  // namespace
}  // namespace physarum
