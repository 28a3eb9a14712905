// The volume's species, walls and closed box (docs/MODEL.md, "Volume", "Several species" and
// "Walls and the closed box"): one species through a SpeciesSet is the plain config bit for bit,
// readings through the interaction matrix and a blocked move's turn worked out in double,
// conservation per channel, walls never entered and holding no trail, refusals, thread invariance,
// and the CUDA volume against the CPU's at every step.
#include <gtest/gtest.h>

#include "volume_support.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/rule.hpp"
#include "sim/volume.hpp"

using namespace physarum;

namespace {

using test::cpu;
using test::field_of;
using test::voxel;

VolumeConfig small(Size size, uint64_t agents, int threads = 1) {
  // The ring rule with its random turn.
  VolumeConfig c = test::small_config(size, agents, 11, threads, TurnRule::Jones);
  c.model.sensor_distance = 3.5f;
  c.model.decay = 0.05f;
  c.model.diffuse = 0.3f;
  return c;
}

size_t voxel_of(Size s, float x, float y, float z) {
  return voxel(s, static_cast<int>(x), static_cast<int>(y), static_cast<int>(z));
}

Species species_with(const ModelParams& m, float share = 1.0f) {
  Species s;
  s.model = m;
  s.share = share;
  return s;
}

// S species made of the config's model, each with another sensor angle and decay, and a matrix that
// attracts to one's own channel and repels from the others.
SpeciesSet mixed(const ModelParams& m, int n) {
  SpeciesSet set;
  for (int s = 0; s < n; ++s) {
    ModelParams ms = m;
    ms.sensor_angle_deg = 25.0f + 10.0f * static_cast<float>(s);
    ms.decay = 0.02f + 0.03f * static_cast<float>(s);
    ms.diffuse = 0.2f + 0.1f * static_cast<float>(s);
    set.list.push_back(species_with(ms, 1.0f + static_cast<float>(s)));
  }
  for (int s = 0; s < n; ++s)
    for (int t = 0; t < n; ++t)
      set.interaction.push_back(s == t ? 1.0f : -0.5f - 0.25f * static_cast<float>(t));
  return set;
}

// Overlap of two channels: sum F0 F1 / sqrt(sum F0^2 sum F1^2).
double overlap(const std::vector<float>& f, size_t voxels) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t v = 0; v < voxels; ++v) {
    ab += double{f[v]} * f[voxels + v];
    aa += double{f[v]} * f[v];
    bb += double{f[voxels + v]} * f[voxels + v];
  }
  return ab / std::sqrt(aa * bb);
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(VolumeSpecies, OneSpeciesThroughASpeciesSetIsThePlainConfigBitForBit) {
  VolumeConfig plain = small({13, 11, 9}, 3000);
  VolumeConfig set = plain;
  set.species.list.push_back(species_with(plain.model));
  set.species.interaction = {1.0f};
  // W = [[1]] in the general path too: the product by 1 is exact.
  VolumeConfig general = set;
  general.species.list.push_back(species_with(plain.model, 0.0f));  // a species with no agents
  general.species.interaction = {1.0f, 0.0f, 0.0f, 1.0f};
  const std::unique_ptr<Volume> a = cpu(plain);
  const std::unique_ptr<Volume> b = cpu(set);
  const std::unique_ptr<Volume> g = cpu(general);
  for (Volume* v : {a.get(), b.get(), g.get()}) {
    v->set_food({{5, 2.0f}, {300, 1.0f}}, 1.5f);
    v->step(40);
  }
  EXPECT_EQ(field_of(*a), field_of(*b));
  const std::vector<float> fg = field_of(*g);
  ASSERT_EQ(fg.size(), 2 * field_of(*a).size());
  EXPECT_EQ(std::vector<float>(fg.begin(), fg.begin() + static_cast<std::ptrdiff_t>(fg.size() / 2)),
            field_of(*a));
  EXPECT_EQ(a->agents().x, b->agents().x);
  EXPECT_EQ(a->agents().hz, b->agents().hz);
  EXPECT_EQ(a->agents().hy, g->agents().hy);
}

// Two agents at one place heading +z, species 0 and 1, W = [[1, -1], [-1, 1]]; channel 0 holds 3 and
// channel 1 holds 5 at the forward sensor's voxel. Species 1 senses 5 - 3 = 2 ahead and 0 on the
// ring: it keeps its heading exactly. Species 0 senses 3 - 5 = -2 ahead, below every ring reading:
// the valley turn toward ring sensor r of the turn stream, worked out here in double.
TEST(VolumeSpecies, AReadingThroughTheMatrixIsComputedByHand) {
  VolumeConfig c = small({32, 32, 32}, 2);
  c.model.sensor_angle_deg = 45.0f;
  c.model.rotation_angle_deg = 40.0f;
  c.model.sensor_distance = 5.0f;
  c.model.step_size = 1.0f;
  c.model.decay = 0.0f;
  c.model.diffuse = 0.0f;
  c.model.deposit = 1.0f;
  c.species.list = {species_with(c.model), species_with(c.model)};
  c.species.interaction = {1.0f, -1.0f, -1.0f, 1.0f};
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  v.set_agents({{16.5f, 16.5f}, {16.5f, 16.5f}, {16.5f, 16.5f}, {0.0f, 0.0f}, {0.0f, 0.0f}, {1.0f, 1.0f}});
  const size_t n = voxel(c.size, 31, 31, 31) + 1;
  std::vector<float> f(2 * n, 0.0f);
  f[voxel(c.size, 16, 16, 21)] = 3.0f;
  f[n + voxel(c.size, 16, 16, 21)] = 5.0f;
  v.set_field(f);
  v.step(1);
  const Agents3 a = v.agents();
  EXPECT_EQ(a.hx[1], 0.0f);
  EXPECT_EQ(a.hy[1], 0.0f);
  EXPECT_EQ(a.hz[1], 1.0f);
  EXPECT_EQ(a.z[1], 17.5f);
  // Heading +z: the helper axis is x, e1 = h x x = +y, e2 = h x e1 = -x.
  const double u = rule::unit(rule::hash(c.seed, 0, 0, rule::kStreamRing));
  const auto r = static_cast<double>(rule::hash(c.seed, 0, 0, rule::kStreamTurn) % 4U);
  const double phi = 2.0 * M_PI * (r + u) / 4.0;
  const double ra = 40.0 * M_PI / 180.0;
  const double hx = -std::sin(ra) * std::sin(phi), hy = std::sin(ra) * std::cos(phi), hz = std::cos(ra);
  EXPECT_NEAR(a.hx[0], hx, 1e-5);
  EXPECT_NEAR(a.hy[0], hy, 1e-5);
  EXPECT_NEAR(a.hz[0], hz, 1e-5);
  EXPECT_NEAR(a.x[0], 16.5 + hx, 1e-5);
  EXPECT_NEAR(a.z[0], 16.5 + hz, 1e-5);
  // Each deposits 1 into its own channel only.
  const std::vector<float> g = field_of(v);
  EXPECT_EQ(g[voxel_of(c.size, a.x[0], a.y[0], a.z[0])], 1.0f);
  EXPECT_EQ(g[n + voxel(c.size, 16, 16, 17)], 1.0f);
  double sums[2] = {0, 0};
  for (size_t i = 0; i < n; ++i) {
    sums[0] += g[i];
    sums[1] += g[n + i];
  }
  EXPECT_EQ(sums[0], 4.0);
  EXPECT_EQ(sums[1], 6.0);
}

// Two species that repel each other end up apart: their channels overlap far less than those of two
// species that ignore each other (the same agents, seeds and parameters but W = [[1, 0], [0, 1]]).
TEST(VolumeSpecies, TwoSpeciesThatRepelEachOtherSeparate) {
  double apart[2];
  for (int k = 0; k < 2; ++k) {
    VolumeConfig c = small({16, 16, 16}, 3000);
    c.model.sensor_distance = 3.0f;
    c.model.rotation_angle_deg = 45.0f;
    c.model.decay = 0.1f;
    c.model.diffuse = 0.2f;
    c.species.list = {species_with(c.model), species_with(c.model)};
    c.species.interaction = k == 0 ? std::vector<float>{1, -1, -1, 1} : std::vector<float>{1, 0, 0, 1};
    const std::unique_ptr<Volume> v = cpu(c);
    v->step(100);
    apart[k] = overlap(field_of(*v), 4096);
  }
  EXPECT_LT(apart[0], 0.6 * apart[1]) << "repelling " << apart[0] << ", ignoring " << apart[1];
}

// Decay 0: each channel holds every deposit of its own species, shares 1 : 2 : 1 of 3000 agents
// giving 750, 1500 and 750 a step.
TEST(VolumeSpecies, WithDecayZeroEachChannelHoldsItsSpeciesDeposits) {
  VolumeConfig c = small({15, 13, 11}, 3000);
  c.model.decay = 0.0f;
  c.species = mixed(c.model, 3);
  for (int s = 0; s < 3; ++s) {
    c.species.list[static_cast<size_t>(s)].model.decay = 0.0f;
    c.species.list[static_cast<size_t>(s)].model.deposit = 1.0f + static_cast<float>(s);
  }
  c.species.list[1].share = 2.0f;
  c.species.list[2].share = 1.0f;
  const std::unique_ptr<Volume> v = cpu(c);
  const size_t n = 15 * 13 * 11;
  const double per_step[3] = {750.0 * 1, 1500.0 * 2, 750.0 * 3};
  for (int step = 1; step <= 15; ++step) {
    v->step(1);
    const std::vector<float> f = field_of(*v);
    ASSERT_EQ(f.size(), 3 * n);
    for (size_t s = 0; s < 3; ++s) {
      double sum = 0;
      for (size_t i = 0; i < n; ++i) sum += f[s * n + i];
      EXPECT_NEAR(sum, per_step[s] * step, per_step[s] * step * 1e-5) << "species " << s << " step " << step;
    }
  }
}

// Food per species: species 1 gives its own strength (-0.5), species 0 takes set_food's (2).
TEST(VolumeSpecies, FoodFeedsEachChannelWithItsSpeciesStrength) {
  VolumeConfig c = small({6, 5, 4}, 2);
  c.model.decay = 0.0f;
  c.model.diffuse = 0.0f;
  c.model.deposit = 0.0f;
  c.species.list = {species_with(c.model), species_with(c.model)};
  c.species.list[1].food_strength = -0.5f;
  c.species.interaction = {1, 0, 0, 1};
  const std::unique_ptr<Volume> v = cpu(c);
  v->set_food({{7, 3.0f}}, 2.0f);
  v->step(2);
  const std::vector<float> f = field_of(*v);
  EXPECT_EQ(f[7], 12.0f);
  EXPECT_EQ(f[120 + 7], -3.0f);
}

// A walls volume (a slab at x = 7 with a hole, and scattered voxels): over many steps no agent stands
// in a wall, every wall voxel of every channel holds +0, food on a wall feeds nothing, and trail
// still passes the hole.
TEST(VolumeSpecies, NoAgentEverStandsInAWallAndWallsHoldNoTrail) {
  VolumeConfig c = small({15, 13, 11}, 3000);
  c.species = mixed(c.model, 2);
  const std::unique_ptr<Volume> v = cpu(c);
  const Size s = c.size;
  const size_t n = voxel(s, 14, 12, 10) + 1;
  std::vector<uint8_t> walls(n, 0);
  for (int z = 0; z < 11; ++z)
    for (int y = 0; y < 13; ++y)
      if (!(y >= 5 && y <= 7 && z >= 4 && z <= 6)) walls[voxel(s, 7, y, z)] = 1;
  for (size_t i = 0; i < n; i += 17) walls[i] = 2;  // any non-zero byte is a wall
  v->step(5);
  v->set_walls(walls);
  v->set_food({{voxel(s, 7, 0, 0), 100.0f}, {voxel(s, 3, 3, 3), 1.0f}});
  for (int step = 0; step < 60; ++step) {
    const Agents3 a = v->agents();
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_EQ(walls[voxel_of(s, a.x[i], a.y[i], a.z[i])], 0) << "agent " << i << " step " << step;
    const std::vector<float> f = field_of(*v);
    for (size_t c2 = 0; c2 < 2; ++c2)
      for (size_t i = 0; i < n; ++i) {
        if (walls[i] == 0) continue;
        ASSERT_EQ(f[c2 * n + i], 0.0f) << i;
        ASSERT_FALSE(std::signbit(f[c2 * n + i])) << i;
      }
    v->step(1);
  }
  ASSERT_EQ(v->walls().size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(v->walls()[i], walls[i] != 0 ? 1 : 0) << i;
  const std::vector<float> f = field_of(*v);
  EXPECT_GT(f[voxel(s, 7, 6, 5)], 0.0f);  // the hole
}

// The closed box on odd sides: the shell is wall, nothing wraps (no agent moves more than its step
// along an axis), nothing stands in or holds trail in the shell.
TEST(VolumeSpecies, TheClosedBoxOnOddSidesKeepsEverythingInside) {
  VolumeConfig c = small({9, 7, 5}, 2500);
  c.boundary = Boundary::Walls;
  c.model.step_size = 1.0f;
  c.species = mixed(c.model, 2);
  const std::unique_ptr<Volume> v = cpu(c);
  const Size s = c.size;
  ASSERT_EQ(v->walls().size(), 315U);
  Agents3 before = v->agents();
  for (int step = 0; step < 50; ++step) {
    v->step(1);
    const Agents3 a = v->agents();
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_TRUE(a.x[i] >= 1 && a.x[i] < 8 && a.y[i] >= 1 && a.y[i] < 6 && a.z[i] >= 1 && a.z[i] < 4)
          << "agent " << i << " at " << a.x[i] << "," << a.y[i] << "," << a.z[i];
      ASSERT_LE(std::fabs(a.x[i] - before.x[i]), 1.0001f);
      ASSERT_LE(std::fabs(a.y[i] - before.y[i]), 1.0001f);
      ASSERT_LE(std::fabs(a.z[i] - before.z[i]), 1.0001f);
    }
    before = a;
    const std::vector<float> f = field_of(*v);
    for (size_t ch = 0; ch < 2; ++ch)
      for (int z = 0; z < 5; ++z)
        for (int y = 0; y < 7; ++y)
          for (int x = 0; x < 9; ++x)
            if (x == 0 || x == 8 || y == 0 || y == 6 || z == 0 || z == 4) {
              ASSERT_EQ(f[ch * 315 + voxel(s, x, y, z)], 0.0f);
            }
  }
}

// An agent facing the closed box's face one voxel away: every sensor lies outside and reads the
// wall, so it keeps its heading h = +x; the move would leave the free voxels, so it stays and turns
// by RA toward phi = 2 pi unit(hash(seed, 0, 0, 6)) across h (frame: the helper axis is y,
// e1 = h x y = +z, e2 = h x e1 = -y), worked out here in double.
TEST(VolumeSpecies, ABlockedAgentStaysAndTurnsByTheRotationAngle) {
  VolumeConfig c = small({9, 9, 9}, 1);
  c.boundary = Boundary::Walls;
  c.model.rotation_angle_deg = 30.0f;
  c.model.sensor_distance = 5.0f;
  c.model.step_size = 1.0f;
  const std::unique_ptr<Volume> v = cpu(c);
  v->set_agents({{7.5f}, {4.5f}, {4.5f}, {1.0f}, {0.0f}, {0.0f}});
  v->step(1);
  const Agents3 a = v->agents();
  const double phi = 2.0 * M_PI * rule::unit(rule::hash(c.seed, 0, 0, rule::kStreamWallTurn));
  const double ra = 30.0 * M_PI / 180.0;
  EXPECT_EQ(a.x[0], 7.5f);
  EXPECT_EQ(a.y[0], 4.5f);
  EXPECT_EQ(a.z[0], 4.5f);
  EXPECT_NEAR(a.hx[0], std::cos(ra), 1e-6);
  EXPECT_NEAR(a.hy[0], -std::sin(ra) * std::sin(phi), 1e-6);
  EXPECT_NEAR(a.hz[0], std::sin(ra) * std::cos(phi), 1e-6);
}

// New walls move the agents standing in them out, by the first of sixteen tries from the spawn
// streams at slots 2 to 17 whose voxel is free, else to the centre of the first free voxel from the
// last try; headings are kept and agents elsewhere do not move.
TEST(VolumeSpecies, AgentsInNewWallsAreMovedOutByTheRule) {
  VolumeConfig c = small({7, 5, 3}, 400);
  const std::unique_ptr<Volume> v = cpu(c);
  const Size s = c.size;
  const Agents3 before = v->agents();
  std::vector<uint8_t> walls(105, 0);
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 4; ++x) walls[voxel(s, x, y, z)] = 1;
  v->set_walls(walls);
  const Agents3 after = v->agents();
  int moved = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(after.hx[i], before.hx[i]);
    if (walls[voxel_of(s, before.x[i], before.y[i], before.z[i])] == 0) {
      EXPECT_EQ(after.x[i], before.x[i]);
      continue;
    }
    ++moved;
    const auto id = static_cast<uint32_t>(i);
    bool found = false;
    for (uint32_t k = 0; k < 16 && !found; ++k) {
      const float x = rule::unit(rule::hash(c.seed, id, 2 + k, rule::kStreamSpawnA)) * 7.0f;
      const float y = rule::unit(rule::hash(c.seed, id, 2 + k, rule::kStreamSpawnB)) * 5.0f;
      const float z = rule::unit(rule::hash(c.seed, id, 2 + k, rule::kStreamSpawnC)) * 3.0f;
      if (walls[voxel_of(s, x, y, z)] == 0) {
        found = true;
        EXPECT_EQ(after.x[i], x);
        EXPECT_EQ(after.y[i], y);
        EXPECT_EQ(after.z[i], z);
      }
    }
    if (!found) {
      EXPECT_EQ(after.x[i] - std::floor(after.x[i]), 0.5f);
    }
  }
  EXPECT_GT(moved, 100);
  // One free voxel: everyone ends up in it.
  std::vector<uint8_t> all(105, 1);
  all[voxel(s, 3, 2, 1)] = 0;
  v->set_walls(all);
  const Agents3 in = v->agents();
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(voxel_of(s, in.x[i], in.y[i], in.z[i]), voxel(s, 3, 2, 1));
}

TEST(VolumeSpecies, BadSpeciesWallsAndFieldsAreRefusedByNameAndChangeNothing) {
  VolumeConfig c = small({7, 5, 3}, 100);
  c.species = mixed(c.model, 4);
  c.species.list.push_back(species_with(c.model));
  c.species.interaction.assign(25, 1.0f);
  EXPECT_NE(refusal([&] { cpu(c); }).find("5 species"), std::string::npos);
  c.species = mixed(c.model, 2);
  c.species.list[1].spawn = SpawnMode::Disc;
  EXPECT_NE(refusal([&] { cpu(c); }).find("species.1.spawn"), std::string::npos);
  c.species = mixed(c.model, 2);
  c.species.interaction.pop_back();
  EXPECT_NE(refusal([&] { cpu(c); }).find("interaction"), std::string::npos);
  c.species = mixed(c.model, 2);
  VolumeConfig box = c;
  box.boundary = Boundary::Walls;
  box.size = {7, 2, 5};
  EXPECT_NE(refusal([&] { cpu(box); }).find("7x2x5"), std::string::npos);
  const std::unique_ptr<Volume> v = cpu(c);
  std::vector<uint8_t> walls(105, 0);
  walls[3] = 1;
  v->set_walls(walls);
  const std::vector<float> field = field_of(*v);
  const Agents3 agents = v->agents();
  EXPECT_NE(refusal([&] { v->set_walls(std::vector<uint8_t>(104, 0)); }).find("104 values"),
            std::string::npos);
  EXPECT_NE(refusal([&] { v->set_walls(std::vector<uint8_t>(105, 1)); }).find("every voxel"),
            std::string::npos);
  EXPECT_NE(refusal([&] { v->set_field(std::vector<float>(106, 0.0f)); }).find("210"), std::string::npos);
  EXPECT_EQ(v->walls(), walls);
  EXPECT_EQ(field_of(*v), field);
  EXPECT_EQ(v->agents().x, agents.x);
  // In a closed box, walls that cover the inside leave nothing free.
  box.size = {5, 5, 5};
  const std::unique_ptr<Volume> b = cpu(box);
  std::vector<uint8_t> inside(125, 0);
  for (int z = 1; z < 4; ++z)
    for (int y = 1; y < 4; ++y)
      for (int x = 1; x < 4; ++x) inside[voxel(box.size, x, y, z)] = 1;
  EXPECT_NE(refusal([&] { b->set_walls(inside); }).find("every voxel"), std::string::npos);
  // One plane goes into every channel; the walls' voxels stay 0.
  std::vector<float> one(105, 2.0f);
  v->set_field(one);
  const std::vector<float> both = field_of(*v);
  EXPECT_EQ(both[105 + 4], 2.0f);
  EXPECT_EQ(both[105 + 3], 0.0f);
  EXPECT_EQ(both[3], 0.0f);
}

TEST(VolumeSpecies, TheThreadCountChangesNoBit) {
  std::vector<float> field[3];
  Agents3 agents[3];
  for (int t = 1; t <= 3; ++t) {
    VolumeConfig c = small({17, 13, 11}, 4000, t);
    c.boundary = Boundary::Walls;
    c.species = mixed(c.model, 3);
    const std::unique_ptr<Volume> v = cpu(c);
    std::vector<uint8_t> walls(17 * 13 * 11, 0);
    for (size_t i = 0; i < walls.size(); i += 7) walls[i] = 1;
    v->set_walls(walls);
    v->set_food({{voxel(c.size, 5, 5, 5), 3.0f}});
    v->step(30);
    field[t - 1] = field_of(*v);
    agents[t - 1] = v->agents();
  }
  for (int t = 1; t < 3; ++t) {
    ASSERT_EQ(field[t].size(), field[0].size());
    EXPECT_EQ(std::memcmp(field[t].data(), field[0].data(), field[0].size() * sizeof(float)), 0) << t + 1;
    EXPECT_EQ(agents[t].x, agents[0].x);
    EXPECT_EQ(agents[t].hz, agents[0].hz);
  }
}

// The CUDA volume against the CPU's at every step, across a regrouping (every 32 steps): 1 to 4
// species on odd sides, a walls volume, the closed box, and a field handed in mid-run.
TEST(CudaVolumeSpecies, EveryStepIsTheCpusBitForBit) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  struct Case {
    std::string name;
    int species;
    Boundary boundary;
    bool walls;
    bool set_field;
  };
  const std::vector<Case> cases = {{"one plain", 0, Boundary::Wrap, false, false},
                                   {"1 species", 1, Boundary::Wrap, false, false},
                                   {"2 species", 2, Boundary::Wrap, false, true},
                                   {"3 species", 3, Boundary::Wrap, false, false},
                                   {"4 species", 4, Boundary::Wrap, true, false},
                                   {"walls volume", 0, Boundary::Wrap, true, true},
                                   {"closed box", 0, Boundary::Walls, false, false},
                                   {"closed box, 3 species, walls", 3, Boundary::Walls, true, true}};
  for (const Case& k : cases) {
    VolumeConfig c = small({23, 19, 17}, 6000, 2);
    c.boundary = k.boundary;
    if (k.species > 0) c.species = mixed(c.model, k.species);
    if (k.species == 1) c.species.interaction = {0.75f};
    const std::unique_ptr<Volume> a = create_volume(BackendKind::Cpu, c);
    const std::unique_ptr<Volume> b = create_volume(BackendKind::Cuda, c);
    const size_t n = 23 * 19 * 17;
    for (Volume* v : {a.get(), b.get()}) {
      v->set_food({{voxel(c.size, 5, 6, 7), 4.0f}, {voxel(c.size, 11, 9, 8), 2.0f}}, 0.5f);
      if (k.walls) {
        std::vector<uint8_t> walls(n, 0);
        for (int z = 0; z < 17; ++z)
          for (int y = 0; y < 19; ++y)
            if (y < 8 || y > 11) walls[voxel(c.size, 12, y, z)] = 1;
        v->set_walls(walls);
      }
    }
    for (int step = 0; step < 40; ++step) {
      if (k.set_field && step == 20) {
        std::vector<float> f(n);
        for (size_t i = 0; i < n; ++i) f[i] = static_cast<float>(i % 13) * 0.25f;
        a->set_field(f);
        b->set_field(f);
      }
      a->step(1);
      b->step(1);
      const std::vector<float> fa = field_of(*a);
      const std::vector<float> fb = field_of(*b);
      ASSERT_EQ(fa.size(), fb.size());
      ASSERT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(float)), 0)
          << k.name << " step " << step;
    }
    const Agents3 ga = a->agents();
    const Agents3 gb = b->agents();
    EXPECT_EQ(ga.x, gb.x) << k.name;
    EXPECT_EQ(ga.y, gb.y) << k.name;
    EXPECT_EQ(ga.z, gb.z) << k.name;
    EXPECT_EQ(ga.hx, gb.hx) << k.name;
    EXPECT_EQ(ga.hz, gb.hz) << k.name;
  }
}
