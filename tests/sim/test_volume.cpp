// The volume model on the CPU (docs/MODEL.md, "Volume"): sizes, refusals, conservation with decay 0,
// one voxel spread over its 27 neighbours across every edge of the torus, a hand-computed turn
// toward a ring sensor (the geometry redone in double), and the same bytes at every thread count.
#include <gtest/gtest.h>

#include "volume_support.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/points.hpp"
#include "sim/rule.hpp"
#include "sim/volume.hpp"

using namespace physarum;

namespace {

using test::cpu;
using test::field_of;
using test::total;
using test::voxel;

VolumeConfig small(Size size, uint64_t agents, int threads = 1) {
  return test::small_config(size, agents, 7, threads, TurnRule::Jones);
}

}  // namespace

TEST(Volume, SizesAreReadAsWxHxDAndBadOnesNamed) {
  EXPECT_EQ(parse_size("256x128x64"), (Size{256, 128, 64}));
  EXPECT_TRUE(parse_size("256x128x64").volume());
  EXPECT_EQ(format_size(Size{3, 4, 5}), "3x4x5");
  // A depth of 1 is the plane, written as two sides.
  EXPECT_EQ(parse_size("256x128x1"), (Size{256, 128}));
  EXPECT_FALSE(parse_size("256x128").volume());
  EXPECT_EQ(format_size(Size{256, 128, 1}), "256x128");
  for (const char* bad :
       {"0x4x4", "4x4x4x4", "4x4x", "axbxc", "4x4x4 ", "70000x1x1", "4x0x4", "4x4x-4", "x4x4"}) {
    try {
      (void)parse_size(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(Volume, BadConfigsAndInputsAreRefusedByNameAndChangeNothing) {
  VolumeConfig c = small({8, 8, 8}, 10);
  c.model.ring = 0;
  EXPECT_THROW(cpu(c), Error);
  c.model.ring = 4;
  c.agents = 0;
  EXPECT_THROW(cpu(c), Error);
  c.agents = 10;
  c.model.decay = 2.0f;
  EXPECT_THROW(cpu(c), Error);
  c.model.decay = 0.1f;
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  const std::vector<float> before = field_of(v);
  std::vector<float> wrong(10, 0.0f);
  EXPECT_THROW(v.set_field(wrong), Error);
  std::vector<float> nan(field_of(v).size(), 0.0f);
  nan[5] = std::nanf("");
  EXPECT_THROW(v.set_field(nan), Error);
  EXPECT_EQ(field_of(v), before);
  Agents3 a = v.agents();
  a.hx[3] = 2.0f;  // not a unit heading
  EXPECT_THROW(v.set_agents(a), Error);
  EXPECT_EQ(v.agents().hx, v.agents().hx);
  EXPECT_NE(v.agents().hx[3], 2.0f);
}

TEST(Volume, SpawnedAgentsAreInsideWithUnitHeadingsSpreadOverTheSphere) {
  const std::unique_ptr<Volume> vp = cpu(small({13, 11, 7}, 20'000));
  Volume& v = *vp;
  const Agents3 a = v.agents();
  double mean[3] = {0, 0, 0};
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(a.x[i] >= 0 && a.x[i] < 13 && a.y[i] >= 0 && a.y[i] < 11 && a.z[i] >= 0 && a.z[i] < 7);
    const double len =
        std::sqrt(double{a.hx[i]} * a.hx[i] + double{a.hy[i]} * a.hy[i] + double{a.hz[i]} * a.hz[i]);
    ASSERT_NEAR(len, 1.0, 1e-6);
    mean[0] += a.hx[i];
    mean[1] += a.hy[i];
    mean[2] += a.hz[i];
  }
  // Uniform on the sphere: each component's mean is 0 within a few standard errors (1 / sqrt(3 n)).
  for (double m : mean) EXPECT_LT(std::fabs(m / a.size()), 5.0 / std::sqrt(3.0 * a.size()));
}

TEST(Volume, WithDecayZeroTheFieldHoldsEveryDeposit) {
  VolumeConfig c = small({17, 13, 11}, 3000);
  c.model.decay = 0.0f;
  c.model.diffuse = 0.3f;
  c.model.deposit = 1.0f;
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  for (int s = 1; s <= 20; ++s) {
    v.step(1);
    EXPECT_NEAR(total(field_of(v)), 3000.0 * s, 3000.0 * s * 1e-5) << "step " << s;
  }
}

// A value of 27 in voxel (0, 0, 0) of a 5 x 4 x 3 torus, diffuse 1 and no decay: one step spreads it
// evenly over the 27 voxels around it, wrapping across every face (x 4, 0, 1; y 3, 0, 1; z 2, 0, 1).
TEST(Volume, OneVoxelSpreadsOverItsTwentySevenNeighboursAcrossEveryEdge) {
  VolumeConfig c = small({5, 4, 3}, 1);
  c.model.decay = 0.0f;
  c.model.diffuse = 1.0f;
  c.model.deposit = 0.0f;
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  std::vector<float> f(60, 0.0f);
  f[0] = 27.0f;
  v.set_field(f);
  v.step(1);
  const float w = 1.0f / 27.0f;  // neighbour_w, rounded as the host rounds it
  const float each = 1.0f * (0.0f * 27.0f + w * 27.0f);
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 5; ++x) {
        const bool near = (x == 4 || x <= 1) && (y == 3 || y <= 1);
        EXPECT_EQ(field_of(v)[voxel(c.size, x, y, z)], near ? each : 0.0f) << x << "," << y << "," << z;
      }
}

// One agent heading along +x, a bright voxel where ring sensor 2 reads: the agent turns toward it by
// the rotation angle, in the plane of its heading and that sensor, and moves one step. The sensor's
// place and the new heading are worked out here in double from the rule's definition.
TEST(Volume, AnAgentTurnsTowardItsBrightestRingSensorByTheRotationAngle) {
  VolumeConfig c = small({32, 32, 32}, 1);
  c.model.sensor_angle_deg = 45.0f;
  c.model.rotation_angle_deg = 30.0f;
  c.model.sensor_distance = 5.0f;
  c.model.step_size = 1.0f;
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  const double x0 = 16.5, y0 = 16.5, z0 = 16.5;
  v.set_agents({{16.5f}, {16.5f}, {16.5f}, {1.0f}, {0.0f}, {0.0f}});
  // Heading +x: the frame's helper axis is y (x leans most), e1 = h x y = +z, e2 = h x e1 = -y.
  const double u = rule::unit(rule::hash(c.seed, 0, 0, rule::kStreamRing));
  const double sa = 45.0 * M_PI / 180.0, ra = 30.0 * M_PI / 180.0;
  const int k = 2;
  const double phi = 2.0 * M_PI * (k + u) / 4.0;
  const double wx = 0.0, wy = -std::sin(phi), wz = std::cos(phi);  // cos(phi) e1 + sin(phi) e2
  const double sx = x0 + 5.0 * std::cos(sa), sy = y0 + 5.0 * std::sin(sa) * wy,
               sz = z0 + 5.0 * std::sin(sa) * wz;
  std::vector<float> f(field_of(v).size(), 0.0f);
  f[voxel(c.size, static_cast<int>(sx), static_cast<int>(sy), static_cast<int>(sz))] = 10.0f;
  v.set_field(f);
  v.step(1);
  const double hx = std::cos(ra), hy = std::sin(ra) * wy, hz = std::sin(ra) * wz;
  const Agents3 a = v.agents();
  EXPECT_NEAR(a.hx[0], hx, 1e-5);
  EXPECT_NEAR(a.hy[0], hy, 1e-5);
  EXPECT_NEAR(a.hz[0], hz, 1e-5);
  EXPECT_NEAR(a.x[0], x0 + hx, 1e-5);
  EXPECT_NEAR(a.y[0], y0 + hy, 1e-5);
  EXPECT_NEAR(a.z[0], z0 + hz, 1e-5);
  (void)wx;
}

// The forward sensor brightest: the heading is kept, exactly.
TEST(Volume, AnAgentWhoseForwardSensorIsBrightestKeepsItsHeading) {
  VolumeConfig c = small({32, 32, 32}, 1);
  c.model.sensor_distance = 5.0f;
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  v.set_agents({{10.5f}, {10.5f}, {10.5f}, {0.0f}, {0.0f}, {1.0f}});
  std::vector<float> f(field_of(v).size(), 0.0f);
  f[voxel(c.size, 10, 10, 15)] = 10.0f;
  v.set_field(f);
  v.step(1);
  const Agents3 a = v.agents();
  EXPECT_EQ(a.hx[0], 0.0f);
  EXPECT_EQ(a.hy[0], 0.0f);
  EXPECT_EQ(a.hz[0], 1.0f);
  EXPECT_EQ(a.z[0], 11.5f);
}

// Point data as food: with no decay, no diffusion and no deposit, a voxel of weight 2 at strength 1.5
// holds 3 per step, exactly, and nothing else; bad lists are refused by name and change nothing.
TEST(Volume, PointFoodAddsStrengthTimesWeightEveryStepAndBadListsAreRefused) {
  VolumeConfig c = small({6, 5, 4}, 1);
  c.model.decay = 0.0f;
  c.model.diffuse = 0.0f;
  c.model.deposit = 0.0f;
  const std::unique_ptr<Volume> vp = cpu(c);
  Volume& v = *vp;
  v.set_food({{5, 2.0f}, {77, 0.5f}}, 1.5f);
  v.step(4);
  const std::vector<float> f = field_of(v);
  EXPECT_EQ(f[5], 12.0f);
  EXPECT_EQ(f[77], 3.0f);
  EXPECT_EQ(total(f), 15.0);
  for (const auto& bad :
       {std::vector<VoxelFood>{{7, 1.0f}, {7, 1.0f}}, std::vector<VoxelFood>{{9, 1.0f}, {3, 1.0f}},
        std::vector<VoxelFood>{{120, 1.0f}}, std::vector<VoxelFood>{{3, -1.0f}}}) {
    EXPECT_THROW(v.set_food(bad), Error);
  }
  EXPECT_THROW(v.set_food({{3, 1.0f}}, 2000.0f), Error);
  v.step(1);  // the refused lists left the food as it was
  EXPECT_EQ(field_of(v)[5], 15.0f);
}

// From a file to the field: a CSV of points read, fitted into the volume and fed to it; the voxels
// that hold points gain, and with decay they settle where emission meets decay.
TEST(Volume, PointsFromAFileFeedTheVoxelsTheyAreFittedInto) {
  const std::filesystem::path file = std::filesystem::path(::testing::TempDir()) / "volume-points.csv";
  {
    std::ofstream out(file);
    out << "x,y,z,weight\n0,0,0,1\n10,10,10,2\n";
  }
  VolumeConfig c = small({11, 11, 11}, 50);
  c.model.diffuse = 0.0f;
  c.model.deposit = 0.0f;
  c.model.decay = 0.5f;
  const std::unique_ptr<Volume> vp = cpu(c);
  const FittedPoints fit = fit_points(read_points(file), c.size);
  ASSERT_EQ(fit.food.size(), 2U);
  vp->set_food(fit.food);
  vp->step(40);
  const std::vector<float> f = field_of(*vp);
  // F = (F + E) / 2 each step converges to E: 1 and 2 at the two corners the fit chose.
  EXPECT_NEAR(f[fit.food[0].voxel], 1.0f, 1e-5);
  EXPECT_NEAR(f[fit.food[1].voxel], 2.0f, 1e-5);
  EXPECT_NEAR(total(f), 3.0, 1e-4);
}

TEST(Volume, TheThreadCountChangesNoBit) {
  std::vector<float> field[3];
  Agents3 agents[3];
  for (int t = 1; t <= 3; ++t) {
    VolumeConfig c = small({23, 19, 17}, 5000, t);
    c.model.sensor_distance = 4.0f;
    c.model.decay = 0.05f;
    const std::unique_ptr<Volume> vp = cpu(c);
    Volume& v = *vp;
    v.step(30);
    field[t - 1] = field_of(v);
    agents[t - 1] = v.agents();
  }
  for (int t = 1; t < 3; ++t) {
    ASSERT_EQ(field[t].size(), field[0].size());
    EXPECT_EQ(std::memcmp(field[t].data(), field[0].data(), field[0].size() * sizeof(float)), 0) << t + 1;
    EXPECT_EQ(agents[t].x, agents[0].x);
    EXPECT_EQ(agents[t].hz, agents[0].hz);
  }
  EXPECT_GT(total(field[0]), 0.0);
}

// The CUDA volume against the CPU's, bit for bit: odd sides, rings of 3 (the simple rule), 4 and 6
// sensors (Jones's), a field and agents handed in, across steps.
TEST(CudaVolume, EveryStepIsTheCpusBitForBit) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  for (const int ring : {3, 4, 6}) {
    VolumeConfig c = small({23, 19, 17}, 6000, 2);
    c.model.ring = ring;
    c.model.turn_rule = ring == 3 ? TurnRule::Simple : TurnRule::Jones;
    c.model.sensor_angle_deg = 20.0f + 10.0f * static_cast<float>(ring);
    c.model.rotation_angle_deg = 35.0f;
    c.model.sensor_distance = 4.5f;
    c.model.decay = 0.05f;
    c.model.diffuse = 0.4f;
    const std::unique_ptr<Volume> a = create_volume(BackendKind::Cpu, c);
    const std::unique_ptr<Volume> b = create_volume(BackendKind::Cuda, c);
    for (int round = 0; round < 3; ++round) {
      a->step(15);
      b->step(15);
      const std::vector<float> fa = field_of(*a);
      const std::vector<float> fb = field_of(*b);
      ASSERT_EQ(fa.size(), fb.size());
      EXPECT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(float)), 0)
          << "ring " << ring << " round " << round;
      const Agents3 aa = a->agents();
      const Agents3 ab = b->agents();
      EXPECT_EQ(aa.x, ab.x);
      EXPECT_EQ(aa.y, ab.y);
      EXPECT_EQ(aa.z, ab.z);
      EXPECT_EQ(aa.hx, ab.hx);
      EXPECT_EQ(aa.hz, ab.hz);
    }
    // The same field and food handed to both go on alike.
    std::vector<float> f = field_of(*a);
    f[100] += 3.0f;
    a->set_field(f);
    b->set_field(f);
    const std::vector<VoxelFood> food = {{17, 2.5f}, {400, 0.25f}, {7000, 1.0f}};
    a->set_food(food, 0.75f);
    b->set_food(food, 0.75f);
    a->step(5);
    b->step(5);
    EXPECT_EQ(field_of(*a), field_of(*b));
  }
  EXPECT_NE(create_volume(BackendKind::Auto, small({8, 8, 8}, 10))->name().find("cuda"), std::string::npos);
}
