// Several species on the CPU backend (docs/MODEL.md, "Several species"): the single-species pin, the general
// path reducing to the single-species one, hand-computed sensing through W, conservation per channel,
// thread-count invariance, live changes and the channel-aware field/brush calls.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "sim/backend.hpp"
#include "sim/rule.hpp"
#include "sim/spawn.hpp"

using namespace physarum;

namespace {

// FNV-1a over the bytes of the floats (little-endian hosts, as the recorded hashes were).
uint64_t fnv1a(const std::vector<float>& v) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(float); ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::vector<float> field_of(Backend& b) {
  std::vector<float> f;
  b.read_field(f);
  return f;
}

Species species(float share, SpawnMode spawn = SpawnMode::Random) {
  Species s;
  s.share = share;
  s.spawn = spawn;
  return s;
}

// Four species with different models, spawn modes, a negative entry and jitter.
SimConfig four_species(int threads) {
  SimConfig c;
  c.size = Size{67, 45};
  c.agents = 4001;
  c.seed = 11;
  c.threads = threads;
  c.species.list = {species(1.0f), species(2.0f, SpawnMode::Disc), species(0.5f, SpawnMode::Ring),
                    species(1.5f, SpawnMode::Point)};
  c.species.list[1].model.turn_rule = TurnRule::Jones;
  c.species.list[1].model.sensor_distance = 7.0f;
  c.species.list[2].model.jitter = 0.4f;
  c.species.list[2].model.decay = 0.05f;
  c.species.list[3].model.diffuse = 0.6f;
  c.species.list[3].model.deposit = 3.0f;
  c.species.interaction = {1.0f,  -1.5f, 0.25f, 0.0f,   //
                           0.5f,  1.0f,  -2.0f, 0.0f,   //
                           0.0f,  3.0f,  1.0f,  -0.5f,  //
                           -1.0f, 0.0f,  0.5f,  1.0f};
  return c;
}

}  // namespace

// Recorded with the program as it was before species existed (physarum run, CPU backend, FNV-1a of
// the .npy's float32 payload): one species takes exactly the path it took before species existed.
TEST(Species, SingleSpeciesHashPinnedBeforeSpecies) {
  SimConfig c;
  c.size = Size{203, 117};
  c.agents = 20000;
  c.seed = 7;
  c.threads = 2;
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(200);
  EXPECT_EQ(fnv1a(field_of(*b)), 0x287a904388604f2eULL);

  SimConfig j;
  j.size = Size{64, 48};
  j.agents = 3000;
  j.seed = 3;
  j.model.turn_rule = TurnRule::Jones;
  j.model.jitter = 0.3f;
  auto bj = create_backend(BackendKind::Cpu, j);
  bj->step(300);
  EXPECT_EQ(fnv1a(field_of(*bj)), 0x4e74467dc1aeaa3dULL);
}

// Two species, the second with no agents and W = identity: species 0 senses 1*F0 + 0*F1 = F0 exactly,
// so the general (several-species) path must give the single-species bits in channel 0 and nothing in
// channel 1.
TEST(Species, GeneralPathReducesToSingleSpecies) {
  SimConfig one;
  one.size = Size{53, 37};
  one.agents = 2500;
  one.seed = 5;
  one.model.turn_rule = TurnRule::Jones;
  one.model.jitter = 0.2f;
  one.threads = 2;
  SimConfig two = one;
  Species s0 = species(1.0f);
  s0.model = one.model;
  two.species.list = {s0, species(0.0f)};
  two.species.interaction = {1.0f, 0.0f, 0.0f, 1.0f};
  auto a = create_backend(BackendKind::Cpu, one);
  auto b = create_backend(BackendKind::Cpu, two);
  ASSERT_EQ(b->species_count(), 2);
  a->step(150);
  b->step(150);
  const std::vector<float> fa = field_of(*a);
  const std::vector<float> fb = field_of(*b);
  ASSERT_EQ(fb.size(), 2 * fa.size());
  EXPECT_EQ(std::vector<float>(fb.begin(), fb.begin() + static_cast<std::ptrdiff_t>(fa.size())), fa);
  EXPECT_TRUE(std::all_of(fb.begin() + static_cast<std::ptrdiff_t>(fa.size()), fb.end(),
                          [](float v) { return v == 0.0f; }));
  EXPECT_EQ(a->read_agents().theta, b->read_agents().theta);
}

TEST(Species, SensedSumsInOrderFromTheFirstProduct) {
  const float f[2] = {4.0f, 3.0f};
  const float w[2] = {1.0f, -1.0f};
  EXPECT_EQ(rule::sensed<2>(f, w), 1.0f);
  const float one[1] = {1.0f};
  const float x[1] = {-0.0f};
  EXPECT_TRUE(std::signbit(rule::sensed<1>(x, one)));  // 1 * x is x, even for -0
  // Order matters in floats: 1e8 - 1e8 + 1 is 1, 1e8 + 1 - 1e8 would be 0.
  const float g[3] = {1.0e8f, 1.0e8f, 1.0f};
  const float v[3] = {1.0f, -1.0f, 1.0f};
  EXPECT_EQ(rule::sensed<3>(g, v), 1.0f);
}

// One agent of each species; the readings are set by hand. Species 0 (row [1, -1]) at (10.5, 10.5)
// heading 0 with SA = 45, SO = 5 reads the centre (15, 10), left (14, 14) and right (14, 6) cells:
// F0 = 4, 3, 0 and F1 = 3, 0, 0 there, so it senses 1, 3, 0 and turns left (+RA), where alone (F0
// only) it would keep its heading. Species 1 (row [0.5, 1]) at (40.5, 20.5) reads (45, 20),
// (44, 24), (44, 16): F0 = 0, 0, 8 and F1 = 2, 3, 0: it senses 2, 3, 4 and turns right (-RA).
TEST(Species, HandComputedSensingWithTwoByTwoMatrix) {
  SimConfig c;
  c.size = Size{64, 32};
  c.agents = 2;
  c.seed = 1;
  c.species.list = {species(1.0f), species(1.0f)};
  c.species.interaction = {1.0f, -1.0f, 0.5f, 1.0f};
  auto b = create_backend(BackendKind::Cpu, c);
  AgentState a;
  a.x = {10.5f, 40.5f};
  a.y = {10.5f, 20.5f};
  a.theta = {0.0f, 0.0f};
  a.id = {0, 1};
  b->set_agents(a);

  const rule::StepParams p = make_step_params(c.species.list[0].model, c.size, c.seed);
  const rule::SensorCells s0 = rule::sensor_cells(rule::Agent{10.5f, 10.5f, 0.0f}, p);
  ASSERT_EQ(s0.centre, 10 * 64 + 15);
  ASSERT_EQ(s0.left, 14 * 64 + 14);
  ASSERT_EQ(s0.right, 6 * 64 + 14);

  const size_t n = 64 * 32;
  std::vector<float> planes(2 * n, 0.0f);
  const auto at = [&](int ch, int x, int y) -> float& {
    return planes[ch * n + static_cast<size_t>(y) * 64 + x];
  };
  at(0, 15, 10) = 4;
  at(0, 14, 14) = 3;
  at(1, 15, 10) = 3;
  at(0, 44, 16) = 8;
  at(1, 45, 20) = 2;
  at(1, 44, 24) = 3;
  b->set_field(planes);
  b->step(1);
  const AgentState after = b->read_agents();
  EXPECT_EQ(after.theta[0], p.rotation);                                              // 45 degrees left
  EXPECT_EQ(after.theta[1], rule::wrap(-p.rotation, rule::kTwoPi, rule::kInvTwoPi));  // right
}

// decay 0: the blur moves trail but keeps its total, so each channel gains exactly (its species'
// agents) x (its deposit) per step. Species s has ids [end[s-1], end[s]); the shares 1:2:0.5:1.5 of
// 4001 agents give 800, 1600, 400 and 1201. The totals are summed in double; each cell's value went
// through at most ~10 float roundings per step (relative 2^-24 ~ 6e-8 each), so after 40 steps the
// total is within 40 * 10 * 6e-8 ~ 2.4e-5 of the exact one relative to it: we allow 1e-4, far below
// the smallest difference a wrong channel or count would make (one agent's deposit: 1/400 relative).
TEST(Species, ConservationPerChannelWithoutDecay) {
  SimConfig c = four_species(2);
  for (Species& s : c.species.list) s.model.decay = 0.0f;
  auto b = create_backend(BackendKind::Cpu, c);
  const int steps = 40;
  b->step(steps);
  const std::vector<float> f = field_of(*b);
  const size_t n = static_cast<size_t>(c.size.width) * c.size.height;
  const double agents[4] = {800, 1600, 400, 1201};
  for (int s = 0; s < 4; ++s) {
    const double sum = std::accumulate(f.begin() + static_cast<std::ptrdiff_t>(s * n),
                                       f.begin() + static_cast<std::ptrdiff_t>((s + 1) * n), 0.0);
    const double expected = agents[s] * c.species.list[s].model.deposit * steps;
    EXPECT_NEAR(sum, expected, 1e-4 * expected) << "channel " << s;
  }
}

TEST(Species, FourSpeciesIndependentOfThreadCount) {
  std::vector<float> ref;
  AgentState ref_agents;
  for (int threads : {1, 2, 3}) {
    auto b = create_backend(BackendKind::Cpu, four_species(threads));
    b->step(120);
    SpeciesSet live = b->species();  // a live change mid-run
    live.interaction[1] = 2.0f;
    live.list[0].model.sensor_angle_deg = 30.0f;
    b->set_species(live);
    b->step(80);
    const std::vector<float> f = field_of(*b);
    const AgentState a = b->read_agents();
    if (threads == 1) {
      ref = f;
      ref_agents = a;
      ASSERT_EQ(f.size(), 4u * 67u * 45u);
      for (int s = 0; s < 4; ++s) {  // every channel has trail
        EXPECT_GT(std::accumulate(f.begin() + s * 67 * 45, f.begin() + (s + 1) * 67 * 45, 0.0), 0.0) << s;
      }
    } else {
      EXPECT_EQ(f, ref) << threads << " threads";
      EXPECT_EQ(a.x, ref_agents.x) << threads << " threads";
      EXPECT_EQ(a.theta, ref_agents.theta) << threads << " threads";
    }
  }
}

TEST(Species, SpawnUsesEachSpeciesMode) {
  SimConfig c = four_species(1);
  auto b = create_backend(BackendKind::Cpu, c);
  const AgentState a = b->read_agents();
  // Species 3 (ids 2800..4000) spawns at the centre point.
  for (uint32_t id = 2800; id < 4001; ++id) {
    ASSERT_EQ(a.x[id], 33.5f) << id;
    ASSERT_EQ(a.y[id], 22.5f) << id;
  }
  EXPECT_NE(a.x[2799], 33.5f);
}

TEST(Species, LiveChangesRefuseAnotherCountAndBadValues) {
  auto b = create_backend(BackendKind::Cpu, four_species(1));
  SpeciesSet fewer = b->species();
  fewer.list.pop_back();
  fewer.interaction.resize(9);
  EXPECT_THROW(b->set_species(fewer), Error);
  SpeciesSet bad = b->species();
  bad.interaction[5] = 11.0f;
  try {
    b->set_species(bad);
    FAIL() << "accepted an out-of-range entry";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("interaction.matrix[1][1]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b->species(), four_species(1).species);  // nothing changed
  ModelParams m = b->model();
  m.decay = 0.5f;
  b->set_model(m);  // species 0 only
  EXPECT_EQ(b->species().list[0].model.decay, 0.5f);
  EXPECT_EQ(b->species().list[1].model.decay, 0.01f);
}

TEST(Species, FieldAndBrushByChannel) {
  SimConfig c = four_species(1);
  auto b = create_backend(BackendKind::Cpu, c);
  const size_t n = 67 * 45;
  std::vector<float> planes(4 * n);
  for (size_t i = 0; i < planes.size(); ++i) planes[i] = static_cast<float>(i % 97);
  b->set_field(planes);
  EXPECT_EQ(field_of(*b), planes);
  b->set_field(std::vector<float>(n, 2.0f), 2);  // one channel
  std::vector<float> f = field_of(*b);
  EXPECT_TRUE(std::all_of(f.begin() + 2 * n, f.begin() + 3 * n, [](float v) { return v == 2.0f; }));
  EXPECT_TRUE(std::equal(f.begin(), f.begin() + 2 * n, planes.begin()));
  b->set_field(std::vector<float>(n, 1.0f));  // one plane: every channel
  EXPECT_EQ(field_of(*b), std::vector<float>(4 * n, 1.0f));
  b->brush(BrushStroke{10, 10, 0.5f, 4.0f, 1});
  f = field_of(*b);
  const size_t cell = 10 * 67 + 10;
  EXPECT_EQ(f[n + cell], 5.0f);
  EXPECT_EQ(f[cell], 1.0f);
  EXPECT_EQ(f[3 * n + cell], 1.0f);
  EXPECT_THROW(b->brush(BrushStroke{10, 10, 1, 1, 4}), Error);
  EXPECT_THROW(b->set_field(std::vector<float>(n), 4), Error);
  EXPECT_THROW(b->set_field(std::vector<float>(2 * n)), Error);
}
