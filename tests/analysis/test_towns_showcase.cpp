// The towns showcase as a test: assets/presets/towns.toml grows a network that links every
// town of the map, and no agent ever stands in the sea. Measured here with a flood fill of its own
// (independent of app/analysis): towns are the 8-connected blobs of the run's food map, the network
// is the trail at or above the value that 15% of the land cells reach (the report's default), and
// every town's centre must lie in one 8-connected component of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "sim/backend.hpp"

namespace physarum {
namespace {

// Growing: 3/4 of the map's own 640 x 360, at the preset's density (60K agents on 960x540 is
// ~0.116 per cell); at 320x180 the two halves round the bay did not join (lengths are in cells).
constexpr Size kGrowSize{480, 270};
constexpr const char* kGrowAgents = "15000";
constexpr int kGrowSteps = 2000;
// Walking 10,000 steps: a small field (the walls are the same map), so it stays quick on 2 busy cores.
constexpr Size kWalkSize{160, 90};
constexpr const char* kWalkAgents = "1700";

// The size of the run a helper below measures (the fields are row-major, W x H).
Size measured{};  // set by towns_run

run::Run towns_run(const char* backend, Size size, const char* agents) {
  measured = size;
  run::Recipe o;
  o.preset = (std::filesystem::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / "towns.toml").string();
  o.size = std::to_string(size.width) + "x" + std::to_string(size.height);
  o.agents = agents;
  o.backend = backend;
  return run::Run(o);
}

size_t cell(int x, int y) {
  return static_cast<size_t>(y) * measured.width + static_cast<size_t>(x);
}

// Labels the 8-connected components of `on` (0 = off, else on) by flood fill; -1 where off.
std::vector<int> components(const std::vector<uint8_t>& on) {
  std::vector<int> label(on.size(), -1);
  int next = 0;
  std::vector<size_t> stack;
  for (size_t start = 0; start < on.size(); ++start) {
    if (!on[start] || label[start] >= 0) continue;
    label[start] = next;
    stack.assign(1, start);
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      const int x0 = static_cast<int>(i % measured.width), y0 = static_cast<int>(i / measured.width);
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int x = x0 + dx, y = y0 + dy;
          if (x < 0 || y < 0 || x >= measured.width || y >= measured.height) continue;
          const size_t j = cell(x, y);
          if (on[j] && label[j] < 0) {
            label[j] = next;
            stack.push_back(j);
          }
        }
      }
    }
    ++next;
  }
  return label;
}

struct TownCentre {
  int x = 0, y = 0;
};

// One centre per 8-connected food blob (food at or above half an 8-bit grey level: below is the
// resize filter's ringing), the blob cell nearest its mean position.
std::vector<TownCentre> town_centres(const std::vector<float>& food) {
  std::vector<uint8_t> on(food.size());
  for (size_t i = 0; i < food.size(); ++i) on[i] = food[i] >= 0.5f / 255.0f ? 1 : 0;
  const std::vector<int> label = components(on);
  const int n = label.empty() ? 0 : *std::max_element(label.begin(), label.end()) + 1;
  std::vector<double> sx(n), sy(n), count(n);
  for (size_t i = 0; i < label.size(); ++i) {
    if (label[i] < 0) continue;
    sx[label[i]] += static_cast<double>(i % measured.width);
    sy[label[i]] += static_cast<double>(i / measured.width);
    count[label[i]] += 1;
  }
  std::vector<TownCentre> out(n);
  std::vector<double> best(n, 1e300);
  for (size_t i = 0; i < label.size(); ++i) {
    if (label[i] < 0) continue;
    const int t = label[i];
    const double x = static_cast<double>(i % measured.width), y = static_cast<double>(i / measured.width);
    const double d = std::hypot(x - sx[t] / count[t], y - sy[t] / count[t]);
    if (d < best[t]) {
      best[t] = d;
      out[t] = {static_cast<int>(x), static_cast<int>(y)};
    }
  }
  return out;
}

void expect_every_town_linked(Backend& b) {
  b.step(kGrowSteps);
  std::vector<float> field, food;
  std::vector<uint8_t> walls;
  b.read_field(field);
  b.read_food(food);
  b.read_walls(walls);
  const std::vector<TownCentre> towns = town_centres(food);
  ASSERT_EQ(towns.size(), 24u) << "the map's towns";

  // The threshold: 15% of the land cells hold at least this much trail.
  std::vector<float> land;
  for (size_t i = 0; i < field.size(); ++i) {
    if (!walls[i]) land.push_back(field[i]);
  }
  const size_t k = land.size() - static_cast<size_t>(0.15 * static_cast<double>(land.size()));
  std::nth_element(land.begin(), land.begin() + static_cast<std::ptrdiff_t>(k), land.end());
  const float threshold = land[k];
  std::vector<uint8_t> network(field.size());
  for (size_t i = 0; i < field.size(); ++i) network[i] = !walls[i] && field[i] >= threshold ? 1 : 0;

  const std::vector<int> label = components(network);
  const int first = label[cell(towns[0].x, towns[0].y)];
  for (const TownCentre& t : towns) {
    EXPECT_GE(label[cell(t.x, t.y)], 0) << "town at " << t.x << "," << t.y << " is off the network";
    EXPECT_EQ(label[cell(t.x, t.y)], first) << "town at " << t.x << "," << t.y << " is not linked to town 0";
  }
}

void expect_never_in_a_wall(Backend& b) {
  std::vector<uint8_t> walls;
  b.read_walls(walls);
  ASSERT_GT(std::count(walls.begin(), walls.end(), uint8_t{1}), 0) << "the map has no sea";
  for (int s = 0; s <= 10'000; s += 100) {
    if (s > 0) b.step(100);
    const AgentState a = b.read_agents();
    ASSERT_GT(a.size(), 0u) << "no agents to check";
    uint64_t inside = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const int x = static_cast<int>(std::floor(a.x[i])), y = static_cast<int>(std::floor(a.y[i]));
      ASSERT_TRUE(x >= 0 && y >= 0 && x < measured.width && y < measured.height) << a.x[i] << "," << a.y[i];
      inside += walls[cell(x, y)] ? 1 : 0;
    }
    ASSERT_EQ(inside, 0u) << "agents in a wall after " << s << " steps";
  }
}

TEST(TownsShowcase, EveryTownLinkedIntoOneNetwork) {
  run::Run sim = towns_run("cpu", kGrowSize, kGrowAgents);
  expect_every_town_linked(sim.backend());
}

TEST(TownsShowcase, NoAgentEverInTheSea) {
  run::Run sim = towns_run("cpu", kWalkSize, kWalkAgents);
  expect_never_in_a_wall(sim.backend());
}

TEST(TownsShowcase, CudaEveryTownLinkedAndNoAgentInTheSea) {
  if (!cuda_built()) GTEST_SKIP() << "built without the CUDA backend (no nvcc at configure)";
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  run::Run grow = towns_run("cuda", kGrowSize, kGrowAgents);
  expect_every_town_linked(grow.backend());
  run::Run walk = towns_run("cuda", kWalkSize, kWalkAgents);
  expect_never_in_a_wall(walk.backend());
}

}  // namespace
}  // namespace physarum
