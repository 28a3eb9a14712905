// The volume model on the CPU (docs/MODEL.md, "Volume"): sizes, refusals, conservation with decay 0,
// one voxel spread over its 27 neighbours across every edge of the torus, a hand-computed turn
// toward a ring sensor (the geometry redone in double), and the same bytes at every thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "sim/params.hpp"
#include "sim/rule.hpp"
#include "sim/volume.hpp"

using namespace physarum;

namespace {

VolumeConfig small(Size3 size, uint64_t agents, int threads = 1) {
  VolumeConfig c;
  c.size = size;
  c.agents = agents;
  c.seed = 7;
  c.threads = threads;
  return c;
}

double total(const std::vector<float>& f) {
  double s = 0;
  for (float v : f) s += v;
  return s;
}

size_t voxel(Size3 s, int x, int y, int z) {
  return (static_cast<size_t>(z) * s.height + y) * s.width + x;
}

}  // namespace

TEST(Volume, SizesAreReadAsWxHxDAndBadOnesNamed) {
  EXPECT_EQ(parse_size3("256x128x64"), (Size3{256, 128, 64}));
  EXPECT_EQ(format_size3(Size3{3, 4, 5}), "3x4x5");
  for (const char* bad : {"256x256", "0x4x4", "4x4x4x4", "4x4x", "axbxc", "4x4x4 ", "70000x1x1"}) {
    try {
      (void)parse_size3(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(Volume, BadConfigsAndInputsAreRefusedByNameAndChangeNothing) {
  VolumeConfig c = small({8, 8, 8}, 10);
  c.ring = 0;
  EXPECT_THROW(CpuVolume{c}, Error);
  c.ring = 4;
  c.agents = 0;
  EXPECT_THROW(CpuVolume{c}, Error);
  c.agents = 10;
  c.model.decay = 2.0f;
  EXPECT_THROW(CpuVolume{c}, Error);
  c.model.decay = 0.1f;
  CpuVolume v(c);
  const std::vector<float> before = v.field();
  std::vector<float> wrong(10, 0.0f);
  EXPECT_THROW(v.set_field(wrong), Error);
  std::vector<float> nan(v.field().size(), 0.0f);
  nan[5] = std::nanf("");
  EXPECT_THROW(v.set_field(nan), Error);
  EXPECT_EQ(v.field(), before);
  Agents3 a = v.agents();
  a.hx[3] = 2.0f;  // not a unit heading
  EXPECT_THROW(v.set_agents(a), Error);
  EXPECT_EQ(v.agents().hx, v.agents().hx);
  EXPECT_NE(v.agents().hx[3], 2.0f);
}

TEST(Volume, SpawnedAgentsAreInsideWithUnitHeadingsSpreadOverTheSphere) {
  CpuVolume v(small({13, 11, 7}, 20'000));
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
  CpuVolume v(c);
  for (int s = 1; s <= 20; ++s) {
    v.step(1);
    EXPECT_NEAR(total(v.field()), 3000.0 * s, 3000.0 * s * 1e-5) << "step " << s;
  }
}

// A value of 27 in voxel (0, 0, 0) of a 5 x 4 x 3 torus, diffuse 1 and no decay: one step spreads it
// evenly over the 27 voxels around it, wrapping across every face (x 4, 0, 1; y 3, 0, 1; z 2, 0, 1).
TEST(Volume, OneVoxelSpreadsOverItsTwentySevenNeighboursAcrossEveryEdge) {
  VolumeConfig c = small({5, 4, 3}, 1);
  c.model.decay = 0.0f;
  c.model.diffuse = 1.0f;
  c.model.deposit = 0.0f;
  CpuVolume v(c);
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
        EXPECT_EQ(v.field()[voxel(c.size, x, y, z)], near ? each : 0.0f) << x << "," << y << "," << z;
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
  CpuVolume v(c);
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
  std::vector<float> f(v.field().size(), 0.0f);
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
  CpuVolume v(c);
  v.set_agents({{10.5f}, {10.5f}, {10.5f}, {0.0f}, {0.0f}, {1.0f}});
  std::vector<float> f(v.field().size(), 0.0f);
  f[voxel(c.size, 10, 10, 15)] = 10.0f;
  v.set_field(f);
  v.step(1);
  const Agents3 a = v.agents();
  EXPECT_EQ(a.hx[0], 0.0f);
  EXPECT_EQ(a.hy[0], 0.0f);
  EXPECT_EQ(a.hz[0], 1.0f);
  EXPECT_EQ(a.z[0], 11.5f);
}

TEST(Volume, TheThreadCountChangesNoBit) {
  std::vector<float> field[3];
  Agents3 agents[3];
  for (int t = 1; t <= 3; ++t) {
    VolumeConfig c = small({23, 19, 17}, 5000, t);
    c.model.sensor_distance = 4.0f;
    c.model.decay = 0.05f;
    CpuVolume v(c);
    v.step(30);
    field[t - 1] = v.field();
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
