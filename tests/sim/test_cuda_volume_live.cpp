// Live changes of a running volume (Volume::set_live) on CUDA give the CPU's bytes at every step: one
// species and three with a matrix, across a regrouping of the agents, with the food's strength
// changed too. Skips without a CUDA device.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/volume.hpp"
#include "volume_support.hpp"

namespace physarum {
namespace {

using test::field_of;

void expect_same(Volume& a, Volume& b, const std::string& when) {
  const std::vector<float> fa = field_of(a);
  const std::vector<float> fb = field_of(b);
  ASSERT_EQ(fa.size(), fb.size()) << when;
  EXPECT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(float)), 0) << when;
  const Agents3 aa = a.agents();
  const Agents3 ab = b.agents();
  EXPECT_EQ(aa.x, ab.x) << when;
  EXPECT_EQ(aa.hz, ab.hz) << when;
}

VolumeConfig config(int species) {
  VolumeConfig c;
  c.size = {21, 17, 13};
  c.agents = 5000;
  c.seed = 9;
  c.threads = 2;
  c.model.sensor_distance = 4.0f;
  for (int s = 0; s < species && species > 1; ++s) {
    Species sp;
    sp.name = std::string("s").append(std::to_string(s));
    sp.model = c.model;
    sp.model.sensor_angle_deg = 25.0f + 10.0f * static_cast<float>(s);
    c.species.list.push_back(sp);
  }
  for (int s = 0; s < species && species > 1; ++s)
    for (int t = 0; t < species; ++t) c.species.interaction.push_back(s == t ? 1.0f : -0.5f);
  return c;
}

TEST(CudaVolumeLive, ALiveChangeIsTheCpusBitForBit) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  for (const int species : {1, 3}) {
    VolumeConfig c = config(species);
    const auto a = create_volume(BackendKind::Cpu, c);
    const auto b = create_volume(BackendKind::Cuda, c);
    a->set_food({{5, 2.0f}, {900, 1.0f}}, 1.0f);
    b->set_food({{5, 2.0f}, {900, 1.0f}}, 1.0f);
    a->step(20);
    b->step(20);
    expect_same(*a, *b, std::string("before the change, species ").append(std::to_string(species)));
    c.model.rotation_angle_deg = 70.0f;
    c.model.decay = 0.2f;
    c.model.diffuse = 0.6f;
    c.model.ring = 6;
    for (Species& s : c.species.list) {
      s.model.ring = 6;
      s.model.deposit = 3.0f;
      s.model.sensor_distance = 6.5f;
    }
    for (float& w : c.species.interaction) w = -w;
    a->set_live(c, 4.0f);
    b->set_live(c, 4.0f);
    a->step(20);  // across the regrouping at step 32
    b->step(20);
    expect_same(*a, *b, std::string("after the change, species ").append(std::to_string(species)));
  }
}

}  // namespace
}  // namespace physarum
