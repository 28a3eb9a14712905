// The CPU backend against hand computations, double precision, conservation and itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/spawn.hpp"

using namespace physarum;

namespace {

SimConfig small_config(int threads = 1) {
  SimConfig c;
  c.size = Size{96, 64};
  c.agents = 3000;
  c.seed = 7;
  c.threads = threads;
  return c;
}

double total(const std::vector<float>& f) {
  return std::accumulate(f.begin(), f.end(), 0.0);
}

std::vector<float> pattern(Size s) {
  std::vector<float> f(static_cast<size_t>(s.width) * s.height);
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x)
      f[static_cast<size_t>(y) * s.width + x] =
          0.5f + 0.5f * std::sin(0.3f * x) * std::cos(0.2f * y) + 0.01f * ((x * 7 + y * 13) % 17);
  return f;
}

}  // namespace

TEST(CpuBackend, FieldUpdateMatchesDoubleReference) {
  // Agents with step 0 stay put, so the counts are known: one agent in each of a few cells, two in one.
  SimConfig c = small_config();
  c.size = Size{17, 13};
  c.agents = 5;
  c.model.step_size = 0;
  c.model.decay = 0.05f;
  c.model.diffuse = 0.3f;
  c.model.deposit = 2.0f;
  auto b = create_backend(BackendKind::Cpu, c);
  AgentState a;
  a.x = {0.5f, 16.5f, 8.2f, 8.7f, 3.1f};
  a.y = {0.5f, 12.5f, 6.4f, 6.9f, 11.0f};
  a.theta = {0, 1, 2, 3, 4};
  a.id = {0, 1, 2, 3, 4};
  b->set_agents(a);
  const std::vector<float> f0 = pattern(c.size);
  b->set_field(f0);
  b->step(1);
  std::vector<float> f1;
  b->read_field(f1);

  const int w = 17, h = 13;
  std::vector<double> g(f0.begin(), f0.end());
  for (size_t i = 0; i < a.x.size(); ++i)
    g[static_cast<size_t>(a.y[i]) * w + static_cast<size_t>(a.x[i])] += 2.0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          sum += g[static_cast<size_t>((y + dy + h) % h) * w + (x + dx + w) % w];
      const double want = 0.95 * (0.7 * g[static_cast<size_t>(y) * w + x] + 0.3 * sum / 9.0);
      ASSERT_NEAR(f1[static_cast<size_t>(y) * w + x], want, 2e-6 * std::max(1.0, want)) << x << "," << y;
    }
  }
}

TEST(CpuBackend, MassGrowsByDepositsWhenDecayIsZero) {
  SimConfig c = small_config(2);
  c.model.decay = 0;
  c.model.deposit = 1.5f;
  auto b = create_backend(BackendKind::Cpu, c);
  std::vector<float> f;
  for (int s = 1; s <= 50; ++s) {
    b->step(1);
    b->read_field(f);
    const double want = 1.5 * 3000.0 * s;
    ASSERT_NEAR(total(f), want, want * 1e-5) << "step " << s;
  }
}

TEST(CpuBackend, DiffusionAloneConservesMass) {
  SimConfig c = small_config(2);
  c.model.decay = 0;
  c.model.deposit = 0;
  c.model.diffuse = 0.6f;
  auto b = create_backend(BackendKind::Cpu, c);
  const std::vector<float> f0 = pattern(c.size);
  b->set_field(f0);
  b->step(200);
  std::vector<float> f;
  b->read_field(f);
  EXPECT_NEAR(total(f), total(f0), total(f0) * 1e-5);
  // ...and it did diffuse: the field is smoother than it started.
  double var0 = 0, var1 = 0;
  const double m = total(f0) / f0.size();
  for (size_t i = 0; i < f.size(); ++i) {
    var0 += (f0[i] - m) * (f0[i] - m);
    var1 += (f[i] - m) * (f[i] - m);
  }
  EXPECT_LT(var1, 0.1 * var0);
}

TEST(CpuBackend, DecayAloneShrinksGeometrically) {
  SimConfig c = small_config();
  c.model.decay = 0.1f;
  c.model.deposit = 0;
  c.model.diffuse = 0;
  auto b = create_backend(BackendKind::Cpu, c);
  const std::vector<float> f0 = pattern(c.size);
  b->set_field(f0);
  b->step(10);
  std::vector<float> f;
  b->read_field(f);
  EXPECT_NEAR(total(f), total(f0) * std::pow(0.9, 10), total(f0) * 1e-5);
}

TEST(CpuBackend, ThreadCountDoesNotChangeABit) {
  std::vector<float> ref_field;
  AgentState ref_agents;
  for (int threads : {1, 2, 7}) {
    SimConfig c = small_config(threads);
    c.size = Size{131, 77};
    c.agents = 6000;
    c.model.turn_rule = TurnRule::Jones;
    c.model.jitter = 0.2f;
    auto b = create_backend(BackendKind::Cpu, c);
    b->set_field(pattern(c.size));
    b->step(1000);
    std::vector<float> f;
    b->read_field(f);
    AgentState a = b->read_agents();
    if (threads == 1) {
      ref_field = f;
      ref_agents = a;
      continue;
    }
    ASSERT_EQ(f.size(), ref_field.size());
    EXPECT_EQ(0, std::memcmp(f.data(), ref_field.data(), f.size() * sizeof(float))) << threads << " threads";
    EXPECT_EQ(a.x, ref_agents.x);
    EXPECT_EQ(a.y, ref_agents.y);
    EXPECT_EQ(a.theta, ref_agents.theta);
    EXPECT_EQ(a.id, ref_agents.id);
  }
}

// The agent stages are built twice (baseline x86-64 and AVX2, picked at run time;
// PHYSARUM_CPU_AVX2=0 keeps the baseline): both must give the same bits, with agents crossing the
// torus edges, headings far outside [0, 2pi) and a partial last block, for the simple rule and for
// the Jones rule with jitter (whose hashes the eight-lane path computes in its lanes).
TEST(CpuBackend, Avx2AndBaselineAgentStagesAgreeBitForBit) {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this CPU has no AVX2: only the baseline path runs";
#else
  GTEST_SKIP() << "AVX2 is an x86-64 path";
#endif
  const auto run = [](bool avx2, int threads, bool jones) {
    if (avx2) {
      unsetenv("PHYSARUM_CPU_AVX2");
    } else {
      setenv("PHYSARUM_CPU_AVX2", "0", 1);
    }
    SimConfig c = small_config(threads);
    c.size = Size{131, 77};
    c.agents = 64 * 97 + 13;
    c.model.sensor_distance = 23.0f;
    if (jones) {
      c.model.turn_rule = TurnRule::Jones;
      c.model.jitter = 0.3f;
    }
    auto b = create_backend(BackendKind::Cpu, c);
    unsetenv("PHYSARUM_CPU_AVX2");
    AgentState a = b->read_agents();
    for (size_t i = 0; i < a.theta.size(); i += 5)
      a.theta[i] = (i % 2 == 0 ? 1.0f : -1.0f) * 90.0f + 0.001f * i;
    b->set_agents(a);
    b->set_field(pattern(c.size));
    b->step(300);
    std::vector<float> f;
    b->read_field(f);
    return std::make_pair(f, b->read_agents());
  };
  for (bool jones : {false, true}) {
    for (int threads : {1, 3}) {
      const auto [base_field, base_agents] = run(false, threads, jones);
      const auto [avx2_field, avx2_agents] = run(true, threads, jones);
      ASSERT_EQ(base_field.size(), avx2_field.size());
      EXPECT_EQ(0, std::memcmp(base_field.data(), avx2_field.data(), base_field.size() * sizeof(float)))
          << threads << " threads, jones " << jones;
      EXPECT_EQ(base_agents.x, avx2_agents.x);
      EXPECT_EQ(base_agents.y, avx2_agents.y);
      EXPECT_EQ(base_agents.theta, avx2_agents.theta);
    }
  }
}

// Each thread counts into the rows of its band and queues the rest: agents that jump many rows a
// step (most deposits queued, some into other bands) must give the single thread's counts.
TEST(CpuBackend, LongStepsAcrossRowBandsDoNotChangeABit) {
  std::vector<float> ref_field;
  AgentState ref_agents;
  for (int threads : {1, 2, 5}) {
    SimConfig c = small_config(threads);
    c.size = Size{64, 90};
    c.agents = 5000;
    c.model.step_size = 37.0f;
    c.model.sensor_distance = 29.0f;
    auto b = create_backend(BackendKind::Cpu, c);
    b->set_field(pattern(c.size));
    b->step(100);
    std::vector<float> f;
    b->read_field(f);
    AgentState a = b->read_agents();
    if (threads == 1) {
      ref_field = f;
      ref_agents = a;
      continue;
    }
    EXPECT_EQ(0, std::memcmp(f.data(), ref_field.data(), f.size() * sizeof(float))) << threads << " threads";
    EXPECT_EQ(a.x, ref_agents.x);
    EXPECT_EQ(a.theta, ref_agents.theta);
  }
}

TEST(CpuBackend, SeedDecidesTheRun) {
  auto run = [](uint32_t seed) {
    SimConfig c = small_config(2);
    c.seed = seed;
    auto b = create_backend(BackendKind::Cpu, c);
    b->step(100);
    std::vector<float> f;
    b->read_field(f);
    return f;
  };
  const auto a = run(1), b = run(1), c = run(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(CpuBackend, LiveParameterChangeTakesEffectAndBadOnesChangeNothing) {
  SimConfig c = small_config();
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(10);
  ModelParams bad = c.model;
  bad.decay = std::nanf("");
  EXPECT_THROW(b->set_model(bad), Error);
  EXPECT_EQ(b->model().decay, c.model.decay);
  ModelParams frozen = c.model;
  frozen.decay = 0;
  frozen.deposit = 0;
  frozen.diffuse = 0;
  b->set_model(frozen);
  std::vector<float> before, after;
  b->read_field(before);
  b->step(5);
  b->read_field(after);
  EXPECT_EQ(before, after);  // nothing deposits, diffuses or decays any more
}

TEST(CpuBackend, BrushAddsAndErasesInADisc) {
  SimConfig c = small_config();
  auto b = create_backend(BackendKind::Cpu, c);
  b->set_field(std::vector<float>(96 * 64, 1.0f));
  b->brush(BrushStroke{10.5f, 20.5f, 3.0f, 4.0f});
  std::vector<float> f;
  b->read_field(f);
  int changed = 0;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 96; ++x) {
      const bool inside = (x - 10) * (x - 10) + (y - 20) * (y - 20) <= 9;
      EXPECT_EQ(f[static_cast<size_t>(y) * 96 + x], inside ? 5.0f : 1.0f) << x << "," << y;
      changed += inside;
    }
  EXPECT_EQ(changed, 29);
  // Erase across the wrap at the corner: never below zero.
  b->brush(BrushStroke{0.5f, 0.5f, 1.0f, -100.0f});
  b->read_field(f);
  EXPECT_EQ(f[0], 0.0f);
  EXPECT_EQ(f[95], 0.0f);            // (-1, 0) wrapped
  EXPECT_EQ(f[63 * 96], 0.0f);       // (0, -1) wrapped
  EXPECT_EQ(f[63 * 96 + 95], 1.0f);  // (-1, -1) is outside radius 1
  EXPECT_THROW(b->brush(BrushStroke{std::nanf(""), 1, 1, 1}), Error);
}

TEST(CpuBackend, RejectsBadFieldsAndAgents) {
  auto b = create_backend(BackendKind::Cpu, small_config());
  std::vector<float> f0;
  b->read_field(f0);
  EXPECT_THROW(b->set_field(std::vector<float>(10, 0.0f)), Error);
  std::vector<float> nan_field(96 * 64, 0.0f);
  nan_field[5] = std::nanf("");
  EXPECT_THROW(b->set_field(nan_field), Error);
  AgentState a = b->read_agents();
  a.id[1] = a.id[0];
  EXPECT_THROW(b->set_agents(a), Error);
  std::vector<float> f1;
  b->read_field(f1);
  EXPECT_EQ(f0, f1);
}

TEST(CpuBackend, RefusesHeadingsBeyondTheBoundAndChangesNothing) {
  // |theta| > ~3.4e9 would make the rule's float->int quadrant undefined on the host; 1e4 is the
  // documented bound, and a refused set_agents leaves the agents as they were.
  auto b = create_backend(BackendKind::Cpu, small_config());
  b->step(3);
  const AgentState before = b->read_agents();
  for (const float theta : {4.0e9f, -4.0e9f, 10001.0f, INFINITY, std::nanf("")}) {
    AgentState a = before;
    a.theta[17] = theta;
    EXPECT_THROW(b->set_agents(a), Error) << theta;
  }
  const AgentState after = b->read_agents();
  EXPECT_EQ(after.theta, before.theta);
  EXPECT_EQ(after.x, before.x);
  // The bound itself is allowed and behaves like any heading.
  AgentState edge = before;
  edge.theta[17] = -1.0e4f;
  EXPECT_NO_THROW(b->set_agents(edge));
  EXPECT_EQ(b->read_agents().theta[17], -1.0e4f);
  EXPECT_NO_THROW(b->step(2));
}

TEST(CpuBackend, RefusesOutOfRangeBrushStrokesAndChangesNothing) {
  auto b = create_backend(BackendKind::Cpu, small_config());  // 96 x 64
  const std::vector<float> f0 = pattern(Size{96, 64});
  b->set_field(f0);
  const BrushStroke bad[] = {
      {3.0e9f, 1, 2, 1},     // floor(x) beyond int
      {1, -1.5e6f, 2, 1},    // beyond 1e6 cells
      {1, 1, 96.5f, 1},      // radius beyond the longer side
      {1, 1, -1, 1},         // negative radius
      {1, 1, 2, 2.0e30f},    // amount beyond 1e30
      {1, 1, 2, -INFINITY},  // not finite
  };
  for (const BrushStroke& s : bad)
    EXPECT_THROW(b->brush(s), Error) << s.x << " " << s.y << " " << s.radius << " " << s.amount;
  std::vector<float> f;
  b->read_field(f);
  EXPECT_EQ(f, f0);
  try {
    b->brush(BrushStroke{1, 1, 1000, 1});
    FAIL() << "radius 1000 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0 to 96"), std::string::npos) << e.what();
  }
  // At the bounds: accepted. Radius 96 covers all of a 96 x 64 field; far positions wrap in.
  EXPECT_NO_THROW(b->brush(BrushStroke{-1.0e6f, 1.0e6f, 2, 1}));
  b->set_field(std::vector<float>(96 * 64, 0.0f));
  EXPECT_NO_THROW(b->brush(BrushStroke{1, 1, 96, 1.0e30f}));
  b->read_field(f);
  EXPECT_TRUE(std::all_of(f.begin(), f.end(), [](float v) { return v >= 1.0e30f; }));
}

TEST(CpuBackend, RefusesFieldValuesBeyondTheBound) {
  auto b = create_backend(BackendKind::Cpu, small_config());
  const std::vector<float> f0 = pattern(Size{96, 64});
  b->set_field(f0);
  for (const float v : {2.0e30f, -2.0e30f, 3.0e38f, INFINITY}) {
    std::vector<float> f = f0;
    f[100] = v;
    EXPECT_THROW(b->set_field(f), Error) << v;
  }
  std::vector<float> f;
  b->read_field(f);
  EXPECT_EQ(f, f0);
  std::vector<float> edge = f0;
  edge[100] = 1.0e30f;
  EXPECT_NO_THROW(b->set_field(edge));
  b->step(1);
  b->read_field(f);
  EXPECT_TRUE(std::all_of(f.begin(), f.end(), [](float v) { return std::isfinite(v); }));
}

TEST(CpuBackend, ReadAgentsSortsById) {
  auto b = create_backend(BackendKind::Cpu, small_config());
  AgentState a = b->read_agents();
  AgentState shuffled = a;
  std::reverse(shuffled.x.begin(), shuffled.x.end());
  std::reverse(shuffled.y.begin(), shuffled.y.end());
  std::reverse(shuffled.theta.begin(), shuffled.theta.end());
  std::reverse(shuffled.id.begin(), shuffled.id.end());
  b->set_agents(shuffled);
  AgentState back = b->read_agents();
  EXPECT_EQ(back.id, a.id);
  EXPECT_EQ(back.x, a.x);
  EXPECT_EQ(back.theta, a.theta);
}

TEST(Spawn, ModesPlaceAgentsAsDescribed) {
  const Size s{200, 100};
  for (SpawnMode m : {SpawnMode::Random, SpawnMode::Disc, SpawnMode::Ring, SpawnMode::Point}) {
    const AgentState a = spawn_agents(m, s, 5000, 3);
    ASSERT_EQ(a.size(), 5000u);
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_GE(a.x[i], 0.0f);
      ASSERT_LT(a.x[i], 200.0f);
      ASSERT_GE(a.y[i], 0.0f);
      ASSERT_LT(a.y[i], 100.0f);
      ASSERT_EQ(a.id[i], i);
      const double dx = a.x[i] - 100.0, dy = a.y[i] - 50.0, r = std::hypot(dx, dy);
      if (m == SpawnMode::Disc) {
        ASSERT_LE(r, 30.0 + 1e-3);
      }
      if (m == SpawnMode::Point) {
        ASSERT_LT(r, 1e-4);
      }
      if (m == SpawnMode::Ring) {
        ASSERT_NEAR(r, 40.0 * 0.975, 40.0 * 0.026);
        // Facing the centre: the heading is the direction from the agent to the centre.
        ASSERT_GT(-(std::cos(a.theta[i]) * dx + std::sin(a.theta[i]) * dy) / r, 0.999);
      }
    }
  }
  EXPECT_EQ(spawn_agents(SpawnMode::Random, s, 100, 1).x, spawn_agents(SpawnMode::Random, s, 100, 1).x);
  EXPECT_NE(spawn_agents(SpawnMode::Random, s, 100, 1).x, spawn_agents(SpawnMode::Random, s, 100, 2).x);
}

TEST(Spawn, FromImageFollowsBrightness) {
  const Size s{40, 20};
  std::vector<float> img(800, 0.0f);
  for (int y = 0; y < 20; ++y)
    for (int x = 30; x < 40; ++x)
      img[static_cast<size_t>(y) * 40 + x] = 1.0f;  // only the right quarter is bright
  const AgentState a = spawn_from_image(img, s, 2000, 1);
  ASSERT_EQ(a.size(), 2000u);
  // Uniform over the bright quarter: each of its 10 columns gets about a tenth of the agents.
  std::vector<int> per_column(10, 0);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.id[i], i);
    ASSERT_GE(a.x[i], 30.0f);
    ASSERT_LT(a.x[i], 40.0f);
    ASSERT_GE(a.y[i], 0.0f);
    ASSERT_LT(a.y[i], 20.0f);
    ++per_column[static_cast<size_t>(a.x[i]) - 30];
  }
  for (int c = 0; c < 10; ++c)
    EXPECT_NEAR(per_column[static_cast<size_t>(c)], 200, 60) << "column " << 30 + c;
}

TEST(Backend, AutoFallsBackToTheCpuAndSaysWhy) {
  if (!cuda_device().empty()) GTEST_SKIP() << "a CUDA device is present: auto picks CUDA here";
  std::string note;
  auto b = create_backend(BackendKind::Auto, small_config(), &note);
  EXPECT_NE(b->name().find("cpu"), std::string::npos);
  EXPECT_NE(note.find("cpu"), std::string::npos) << note;
  EXPECT_THROW(create_backend(BackendKind::Cuda, small_config()), Error);
}

TEST(Backend, ThreadLimitsAndDefault) {
  SimConfig c = small_config(kMaxThreads + 1);
  EXPECT_THROW(create_backend(BackendKind::Cpu, c), Error);
  c.threads = -1;
  EXPECT_THROW(create_backend(BackendKind::Cpu, c), Error);
  c.threads = 0;
  const auto b = create_backend(BackendKind::Cpu, c);
  const int t = default_threads();
  EXPECT_GE(t, 1);
  EXPECT_EQ(b->name(), "cpu (" + std::to_string(t) + (t == 1 ? " thread)" : " threads)"));
}

TEST(Backend, RefusesARunThatCannotFitInMemoryWithNumbers) {
  // 1e9 agents need 32 GB on the CPU backend (state + sort scratch). Where that much is free the
  // allocation would succeed, so this checks the refusal only on smaller machines.
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  double kib = 0, available = 0;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") available = kib * 1024.0;
  }
  if (available == 0 || available > 30e9) GTEST_SKIP() << "this machine could hold 1e9 agents";
  SimConfig c = small_config();
  c.agents = kMaxAgents;
  try {
    create_backend(BackendKind::Cpu, c);
    FAIL() << "1e9 agents accepted";
  } catch (const OutOfMemoryError& e) {  // its own type: bench skips such a size and goes on
    EXPECT_NE(std::string(e.what()).find("GB of host memory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("96x64 (1 thread)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("smaller field"), std::string::npos) << e.what();
  }
}
