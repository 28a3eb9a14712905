// MCPM in the volume (docs/MODEL.md, "MCPM"): one step on a tiny volume redone in double from the
// text, the turn's frequency against the paper's probability, the Maxwell-Boltzmann distance, the
// trace (no feedback, conservation), thread invariance, the simple ring rule beside Jones's,
// refusals, and CUDA against the CPU bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "sim/rule.hpp"
#include "sim/rule3d.hpp"
#include "sim/volume.hpp"
#include "volume_support.hpp"

using namespace physarum;

namespace {

using test::field_of;
using test::voxel;

VolumeConfig mcpm(Size size, uint64_t agents, int threads = 1) {
  return test::small_config(size, agents, 11, threads, TurnRule::Mcpm);
}

std::vector<float> trace_of(Volume& v) {
  std::vector<float> t;
  v.read_trace(t);
  return t;
}

double unit_of(uint32_t seed, uint32_t id, uint32_t step, uint32_t stream) {
  return rule::unit(rule::hash(seed, id, step, stream));
}

// The Maxwell-Boltzmann factor of MODEL.md, in double.
double maxwell(uint32_t seed, uint32_t id, uint32_t step) {
  const double u1 = unit_of(seed, id, step, rule::kStreamMcpmDistanceA);
  const double u2 = unit_of(seed, id, step, rule::kStreamMcpmDistanceB);
  const double c = std::cos(2.0 * M_PI * unit_of(seed, id, step, rule::kStreamMcpmDistanceC));
  return std::sqrt(-2.0 * (std::log(1.0 - u1) + std::log(1.0 - u2) * c * c)) * std::sqrt(M_PI / 8.0);
}

// P(chi_3 < x), the Maxwell-Boltzmann distribution's CDF of unit scale.
double maxwell_cdf(double x) {
  return std::erf(x / std::sqrt(2.0)) - std::sqrt(2.0 / M_PI) * x * std::exp(-x * x / 2.0);
}

struct V3 {
  double x, y, z;
};
V3 operator+(V3 a, V3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
V3 operator*(double s, V3 a) {
  return {s * a.x, s * a.y, s * a.z};
}
V3 cross(V3 a, V3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
V3 unit_vec(V3 a) {
  return (1.0 / std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z)) * a;
}
double wrap(double v, double n) {
  const double r = std::fmod(v, n);
  return r < 0 ? r + n : r;
}
// The distance between two coordinates on a side of n, across the wrap.
double apart(double a, double b, double n) {
  const double d = std::fabs(a - b);
  return std::min(d, n - d);
}

// An arbitrary field with zeros in it, so the readings cover a = 0 and b = 0 too.
float field_value(int x, int y, int z) {
  return static_cast<float>((x * 7 + y * 13 + z * 29) % 17) * 0.5f;
}

}  // namespace

// Every agent of a 9 x 7 x 5 volume takes one step; its new heading and place are worked out here in
// double from MODEL.md's text (frame, azimuth, Maxwell-Boltzmann distance, readings, the probability
// b^S / (a^S + b^S), the turn by RA, the move SS xi), and the trace holds trace keep x deposit a visit.
TEST(Volume, McpmOneStepIsTheTextWorkedOutInDouble) {
  VolumeConfig c = mcpm({9, 7, 5}, 80);
  c.model.sensor_angle_deg = 40.0f;
  c.model.rotation_angle_deg = 25.0f;
  c.model.sensor_distance = 2.0f;
  c.model.step_size = 1.0f;
  c.model.sharpness = 2.5f;
  c.model.trace_decay = 0.25f;
  c.model.deposit = 1.5f;
  const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
  const Size s = c.size;
  std::vector<float> f(field_of(*v).size());
  for (int z = 0; z < s.depth; ++z)
    for (int y = 0; y < s.height; ++y)
      for (int x = 0; x < s.width; ++x) f[voxel(s, x, y, z)] = field_value(x, y, z);
  v->set_field(f);
  const Agents3 before = v->agents();
  v->step(1);
  const Agents3 after = v->agents();
  const double sa = 40.0 * M_PI / 180.0, ra = 25.0 * M_PI / 180.0;
  const auto read = [&](V3 p) {
    return static_cast<double>(field_value(static_cast<int>(wrap(p.x, s.width)),
                                           static_cast<int>(wrap(p.y, s.height)),
                                           static_cast<int>(wrap(p.z, s.depth))));
  };
  int turned = 0, kept = 0;
  for (uint32_t i = 0; i < c.agents; ++i) {
    const V3 pos{before.x[i], before.y[i], before.z[i]};
    const V3 h{before.hx[i], before.hy[i], before.hz[i]};
    const float ax = std::fabs(before.hx[i]), ay = std::fabs(before.hy[i]), az = std::fabs(before.hz[i]);
    const V3 axis = (ax <= ay && ax <= az) ? V3{1, 0, 0} : (ay <= az ? V3{0, 1, 0} : V3{0, 0, 1});
    const V3 e1 = unit_vec(cross(h, axis));
    const V3 e2 = cross(h, e1);
    const double phi = 2.0 * M_PI * unit_of(c.seed, i, 0, rule::kStreamMcpmAzimuth);
    const V3 w = std::cos(phi) * e1 + std::sin(phi) * e2;
    const double xi = maxwell(c.seed, i, 0);
    const double a = read(pos + (2.0 * xi) * h);
    const double b = read(pos + (2.0 * xi) * (std::cos(sa) * h + std::sin(sa) * w));
    const double p = b == 0 ? 0.0 : (a == 0 ? 1.0 : std::pow(b, 2.5) / (std::pow(a, 2.5) + std::pow(b, 2.5)));
    const double u = unit_of(c.seed, i, 0, rule::kStreamMcpmTurn);
    if (std::fabs(u - p) < 1e-5) continue;  // too close to call in double
    const bool turn = u < p;
    (turn ? turned : kept) += 1;
    const V3 h2 = turn ? unit_vec(std::cos(ra) * h + std::sin(ra) * w) : h;
    EXPECT_NEAR(after.hx[i], h2.x, 2e-6) << i;
    EXPECT_NEAR(after.hy[i], h2.y, 2e-6) << i;
    EXPECT_NEAR(after.hz[i], h2.z, 2e-6) << i;
    if (!turn) {
      EXPECT_TRUE(after.hx[i] == before.hx[i] && after.hy[i] == before.hy[i] && after.hz[i] == before.hz[i]);
    }
    const V3 p2 = pos + xi * h2;
    EXPECT_LT(apart(after.x[i], wrap(p2.x, s.width), s.width), 1e-4) << i;
    EXPECT_LT(apart(after.y[i], wrap(p2.y, s.height), s.height), 1e-4) << i;
    EXPECT_LT(apart(after.z[i], wrap(p2.z, s.depth), s.depth), 1e-4) << i;
  }
  EXPECT_GT(turned, 10);
  EXPECT_GT(kept, 10);
  // The trace: 0.75 x 1.5 a visit, counted where the agents stand now.
  std::vector<double> visits(f.size(), 0.0);
  for (uint32_t i = 0; i < c.agents; ++i)
    visits[voxel(s, static_cast<int>(after.x[i]), static_cast<int>(after.y[i]),
                 static_cast<int>(after.z[i]))] += 1.0;
  const std::vector<float> t = trace_of(*v);
  for (size_t k = 0; k < t.size(); ++k) EXPECT_FLOAT_EQ(t[k], 0.75 * 1.5 * visits[k]) << k;
}

// Agents heading +z with the sensing cone at 90 degrees: the sensed direction lies in their own
// plane, which holds b; every other plane holds a. The share that turns is the paper's r^S / (1 + r^S),
// r = b / a (r = 1 for an agent whose sensing distance stays inside its plane), within 4 sigma.
TEST(Volume, McpmTurnsWithTheProbabilityOfTheRatioToTheSharpness) {
  struct Case {
    float a, b, sharpness;
  };
  for (const Case k : {Case{1.0f, 2.0f, 1.0f}, Case{2.0f, 1.0f, 3.0f}, Case{1.0f, 1.5f, 4.0f},
                       Case{3.0f, 1.0f, 0.0f}, Case{1.0f, 4.0f, 0.5f}}) {
    SCOPED_TRACE(std::to_string(k.a) + " " + std::to_string(k.b) + " " + std::to_string(k.sharpness));
    VolumeConfig c = mcpm({16, 16, 64}, 20000, 2);
    c.model.sensor_angle_deg = 90.0f;
    c.model.sensor_distance = 3.0f;
    c.model.sharpness = k.sharpness;
    const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
    Agents3 a = v->agents();
    for (size_t i = 0; i < a.size(); ++i) {
      a.z[i] = 10.5f;
      a.hx[i] = a.hy[i] = 0.0f;
      a.hz[i] = 1.0f;
    }
    v->set_agents(a);
    std::vector<float> f(field_of(*v).size(), k.a);
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x) f[voxel(c.size, x, y, 10)] = k.b;
    v->set_field(f);
    v->step(1);
    const Agents3 after = v->agents();
    double expected = 0, variance = 0;
    int turned = 0;
    for (uint32_t i = 0; i < c.agents; ++i) {
      const bool inside = 10.5 + 3.0 * maxwell(c.seed, i, 0) < 11.0;  // the forward reading is b too
      const double r = inside ? 1.0 : static_cast<double>(k.b) / k.a;
      const double p = std::pow(r, k.sharpness) / (1.0 + std::pow(r, k.sharpness));
      expected += p;
      variance += p * (1 - p);
      turned += after.hz[i] != 1.0f ? 1 : 0;
    }
    EXPECT_NEAR(turned, expected, 4.0 * std::sqrt(variance));
  }
}

// With nothing to sense the agents never turn and move SS xi: the displacements are a Maxwell-
// Boltzmann sample of mean SS (its mean, its second moment 3 pi / 8 SS^2 and its CDF within 4 sigma).
TEST(Volume, McpmDistanceIsMaxwellBoltzmannWithMeanTheSensorDistance) {
  VolumeConfig c = mcpm({8, 8, 128}, 20000, 2);
  c.model.step_size = 2.0f;
  const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
  Agents3 a = v->agents();
  for (size_t i = 0; i < a.size(); ++i) {
    a.z[i] = 0.5f;
    a.hx[i] = a.hy[i] = 0.0f;
    a.hz[i] = 1.0f;
  }
  v->set_agents(a);
  v->step(1);
  const Agents3 after = v->agents();
  const double n = static_cast<double>(c.agents);
  double sum = 0, sum2 = 0, below_mean = 0, below_half = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    ASSERT_EQ(after.hz[i], 1.0f);
    const double xi = (after.z[i] - 0.5) / 2.0;
    sum += xi;
    sum2 += xi * xi;
    below_mean += xi < 1.0 ? 1 : 0;
    below_half += xi < 0.5 ? 1 : 0;
  }
  const double mean_chi = 2.0 * std::sqrt(2.0 / M_PI);
  const double second = 3.0 * M_PI / 8.0;  // E[xi^2] of chi_3 scaled to mean 1
  EXPECT_NEAR(sum / n, 1.0, 4.0 * std::sqrt((second - 1.0) / n));
  const double fourth = 15.0 * (M_PI / 8.0) * (M_PI / 8.0);  // E[xi^4]
  EXPECT_NEAR(sum2 / n, second, 4.0 * std::sqrt((fourth - second * second) / n));
  for (const auto& [count, at] : {std::pair{below_mean, 1.0}, std::pair{below_half, 0.5}}) {
    const double p = maxwell_cdf(at * mean_chi);
    EXPECT_NEAR(count / n, p, 4.0 * std::sqrt(p * (1 - p) / n)) << at;
  }
}

// The trace never feeds back: its decay and reading it change no agent and no field value; with
// decay 0 it holds every visit, agents x steps x deposit.
TEST(Volume, McpmTraceDoesNotFeedBackAndHoldsEveryDepositWithDecayZero) {
  VolumeConfig c = mcpm({13, 11, 9}, 3000);
  c.model.deposit = 0.5f;
  c.model.trace_decay = 0.0f;
  const std::unique_ptr<Volume> a = create_volume(BackendKind::Cpu, c);
  c.model.trace_decay = 0.5f;
  const std::unique_ptr<Volume> b = create_volume(BackendKind::Cpu, c);
  for (int step = 0; step < 40; ++step) {
    a->step(1);
    (void)trace_of(*a);
  }
  b->step(40);
  EXPECT_EQ(field_of(*a), field_of(*b));
  const Agents3 aa = a->agents(), ab = b->agents();
  EXPECT_EQ(aa.x, ab.x);
  EXPECT_EQ(aa.hz, ab.hz);
  double sum_a = 0, sum_b = 0;
  for (const float t : trace_of(*a)) sum_a += t;
  for (const float t : trace_of(*b)) sum_b += t;
  EXPECT_EQ(sum_a, 3000.0 * 40 * 0.5);
  // Half fading each step: 1500 (1 - 2^-40) after 40 steps of 1500.
  EXPECT_NEAR(sum_b, 1500.0 * (1.0 - std::ldexp(1.0, -40)), 0.01);
}

TEST(Volume, McpmTheThreadCountChangesNoBit) {
  std::vector<float> field[3], trace[3];
  Agents3 agents[3];
  for (int t = 1; t <= 3; ++t) {
    VolumeConfig c = mcpm({23, 19, 17}, 5000, t);
    c.model.sensor_distance = 4.0f;
    c.model.decay = 0.05f;
    c.model.sharpness = 3.5f;
    const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
    v->step(30);
    field[t - 1] = field_of(*v);
    trace[t - 1] = trace_of(*v);
    agents[t - 1] = v->agents();
  }
  for (int t = 1; t < 3; ++t) {
    EXPECT_EQ(field[t], field[0]) << t + 1;
    EXPECT_EQ(trace[t], trace[0]) << t + 1;
    EXPECT_EQ(agents[t].x, agents[0].x);
    EXPECT_EQ(agents[t].hy, agents[0].hy);
  }
}

// ln and exp of MODEL.md against the library's, over every magnitude a reading can have.
TEST(Volume, McpmLnAndExpAreCloseToTheLibrarys) {
  for (double x = 1e-44; x < 3e38; x *= 1.37) {
    const auto f = static_cast<float>(x);
    EXPECT_NEAR(rule3::ln_f(f), std::log(static_cast<double>(f)),
                3e-7 * std::max(1.0, std::fabs(std::log(x))))
        << x;
  }
  for (double y = -80; y <= 80; y += 0.173) {
    const auto f = static_cast<float>(y);
    EXPECT_NEAR(rule3::exp_f(f) / std::exp(static_cast<double>(f)), 1.0, 1e-6) << y;
  }
  EXPECT_EQ(rule3::turn_probability(2.0f, 2.0f, 7.0f), 0.5f);
  EXPECT_EQ(rule3::turn_probability(-1.0f, 0.0f, 2.0f), 0.0f);
  EXPECT_EQ(rule3::turn_probability(-1.0f, 0.5f, 2.0f), 1.0f);
}

// The ring rules: with every ring sensor alike and brighter than the forward one, simple turns toward
// the first while Jones draws one from the turn stream.
TEST(Volume, SimpleRingTurnsTowardTheFirstOfEqualSensorsWhereJonesDrawsOne) {
  uint32_t seed = 1;
  while (rule::hash(seed, 0, 0, rule::kStreamTurn) % 4 == 0) ++seed;  // Jones's draw is not sensor 0
  for (const TurnRule r : {TurnRule::Simple, TurnRule::Jones}) {
    VolumeConfig c;
    c.size = {32, 32, 32};
    c.agents = 1;
    c.seed = seed;
    c.model.turn_rule = r;
    c.model.sensor_distance = 5.0f;
    c.model.rotation_angle_deg = 30.0f;
    const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
    v->set_agents({{16.5f}, {16.5f}, {16.5f}, {1.0f}, {0.0f}, {0.0f}});
    std::vector<float> f(field_of(*v).size(), 1.0f);
    f[voxel(c.size, 21, 16, 16)] = 0.0f;  // the forward sensor's
    v->set_field(f);
    v->step(1);
    const uint32_t k = r == TurnRule::Simple ? 0 : rule::hash(seed, 0, 0, rule::kStreamTurn) % 4;
    const double u = rule::unit(rule::hash(seed, 0, 0, rule::kStreamRing));
    const double phi = 2.0 * M_PI * (k + u) / 4.0, ra = 30.0 * M_PI / 180.0;
    // Heading +x: e1 = +z, e2 = -y.
    const Agents3 a = v->agents();
    EXPECT_NEAR(a.hx[0], std::cos(ra), 1e-6);
    EXPECT_NEAR(a.hy[0], -std::sin(ra) * std::sin(phi), 1e-6);
    EXPECT_NEAR(a.hz[0], std::sin(ra) * std::cos(phi), 1e-6);
  }
}

TEST(Volume, McpmIsAVolumesRuleAndItsValuesAreChecked) {
  ModelParams m;
  m.turn_rule = TurnRule::Mcpm;
  try {
    (void)make_step_params(m, {64, 64}, 1, 1);
    ADD_FAILURE() << "a plane took mcpm";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"mcpm\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("volume"), std::string::npos) << e.what();
  }
  Preset p;
  apply_override(p, "model.turn_rule=mcpm");
  apply_override(p, "model.sharpness=3.5");
  apply_override(p, "model.trace_decay=0.1");
  apply_override(p, "model.ring=6");
  EXPECT_EQ(p.model.turn_rule, TurnRule::Mcpm);
  // The plane's surfaces (panel, MIDI, Explore, the timeline) offer only the plane's rules.
  const registry::Param* rule = registry::find(registry::Section::Model, "turn_rule");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(registry::choice_list(*rule), (std::vector<std::string_view>{"simple", "jones"}));
  EXPECT_EQ(p.model.sharpness, 3.5f);
  EXPECT_EQ(p.model.ring, 6);
  const Preset before = p;
  for (const char* bad : {"model.sharpness=-1", "model.trace_decay=1.5", "model.ring=17", "model.ring=0",
                          "model.turn_rule=polyphorm"}) {
    EXPECT_THROW(apply_override(p, bad), Error) << bad;
    EXPECT_EQ(p, before) << bad;
  }
  VolumeConfig c = mcpm({8, 8, 8}, 10);
  c.model.ring = 0;
  EXPECT_THROW(create_volume(BackendKind::Cpu, c), Error);
  c.model.ring = 4;
  c.model.sharpness = std::nanf("");
  EXPECT_THROW(create_volume(BackendKind::Cpu, c), Error);
  c.model.turn_rule = TurnRule::Jones;
  c.model.sharpness = 2.0f;
  const std::unique_ptr<Volume> jones = create_volume(BackendKind::Cpu, c);
  EXPECT_FALSE(jones->has_trace());
  try {
    std::vector<float> t;
    jones->read_trace(t);
    ADD_FAILURE() << "a ring rule's volume gave a trace";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mcpm"), std::string::npos) << e.what();
  }
}

// Live changes: sharpness, trace decay and the ring rules change from the next step; whether a species
// is MCPM's (and so the trace) does not, and a refused change changes nothing.
TEST(Volume, McpmLiveChangesKeepTheTrace) {
  VolumeConfig c = mcpm({9, 7, 5}, 500);
  const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
  v->step(3);
  c.model.sharpness = 6.0f;
  c.model.trace_decay = 0.5f;
  v->set_live(c, 1.0f);
  EXPECT_EQ(v->params().sharpness, 6.0f);
  EXPECT_EQ(v->params().trace_keep, 0.5f);
  const std::vector<float> before = trace_of(*v);
  c.model.turn_rule = TurnRule::Jones;
  try {
    v->set_live(c, 1.0f);
    ADD_FAILURE() << "a volume dropped its trace";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mcpm"), std::string::npos) << e.what();
  }
  EXPECT_EQ(v->params().rule, rule::kTurnMcpm);
  EXPECT_EQ(trace_of(*v), before);
  VolumeConfig j = mcpm({9, 7, 5}, 500);
  j.model.turn_rule = TurnRule::Jones;
  const std::unique_ptr<Volume> w = create_volume(BackendKind::Cpu, j);
  j.model.turn_rule = TurnRule::Simple;
  w->set_live(j, 1.0f);
  EXPECT_EQ(w->params().rule, rule::kTurnSimple);
  j.model.turn_rule = TurnRule::Mcpm;
  EXPECT_THROW(w->set_live(j, 1.0f), Error);
  EXPECT_FALSE(w->has_trace());
}

// MCPM on CUDA against the CPU, every step for 70 steps (two regroupings by voxel), odd sides, the
// field, the trace and the agents; then food handed to both.
TEST(CudaVolume, McpmEveryStepIsTheCpusBitForBit) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  VolumeConfig c = mcpm({23, 19, 17}, 6000, 2);
  c.model.sensor_angle_deg = 35.0f;
  c.model.rotation_angle_deg = 20.0f;
  c.model.sensor_distance = 3.5f;
  c.model.decay = 0.05f;
  c.model.diffuse = 0.4f;
  c.model.sharpness = 2.7f;
  c.model.trace_decay = 0.03f;
  const std::unique_ptr<Volume> a = create_volume(BackendKind::Cpu, c);
  const std::unique_ptr<Volume> b = create_volume(BackendKind::Cuda, c);
  ASSERT_NE(b->name().find("cuda"), std::string::npos);
  for (int step = 0; step < 70; ++step) {
    a->step(1);
    b->step(1);
    ASSERT_EQ(field_of(*a), field_of(*b)) << "step " << step;
    ASSERT_EQ(trace_of(*a), trace_of(*b)) << "step " << step;
    const Agents3 aa = a->agents(), ab = b->agents();
    ASSERT_TRUE(aa.x == ab.x && aa.y == ab.y && aa.z == ab.z && aa.hx == ab.hx && aa.hy == ab.hy &&
                aa.hz == ab.hz)
        << "step " << step;
  }
  const std::vector<VoxelFood> food = {{17, 2.5f}, {400, 0.25f}, {7000, 1.0f}};
  a->set_food(food, 0.75f);
  b->set_food(food, 0.75f);
  a->step(5);
  b->step(5);
  EXPECT_EQ(field_of(*a), field_of(*b));
  EXPECT_EQ(trace_of(*a), trace_of(*b));
}

namespace {

// Two species, the first MCPM and the second Jones's, a matrix that follows one's own channel and
// flees the other's, and a slab of wall across x = 5.
VolumeConfig mcpm_and_jones(Size size, uint64_t agents, int threads) {
  VolumeConfig c = mcpm(size, agents, threads);
  for (int s = 0; s < 2; ++s) {
    Species sp;
    sp.model = c.model;
    sp.model.turn_rule = s == 0 ? TurnRule::Mcpm : TurnRule::Jones;
    sp.model.deposit = 1.0f + static_cast<float>(s);
    sp.model.sharpness = 3.0f;
    sp.model.sensor_distance = 3.5f;
    sp.share = 1.0f + static_cast<float>(s);
    c.species.list.push_back(sp);
  }
  c.species.interaction = {1.0f, -0.5f, -0.25f, 1.0f};
  return c;
}

std::vector<uint8_t> slab(Size s) {
  std::vector<uint8_t> walls(static_cast<size_t>(s.width) * s.height * s.depth, 0);
  for (int z = 0; z < s.depth; ++z)
    for (int y = 0; y < s.height; ++y) walls[voxel(s, 5, y, z)] = 1;
  return walls;
}

}  // namespace

// With several species the trace has a channel a species, each holding its species' visits times its
// deposit (decay 0 here), whatever its rule; no agent stands in a wall, so no wall voxel holds trace;
// and 1 and 3 threads give the same bytes.
TEST(Volume, McpmWithSpeciesAndWallsKeepsATraceChannelASpecies) {
  std::vector<float> trace[2];
  for (const int threads : {1, 3}) {
    VolumeConfig c = mcpm_and_jones({15, 11, 9}, 3000, threads);
    for (Species& s : c.species.list) s.model.trace_decay = 0.0f;
    const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
    ASSERT_TRUE(v->has_trace());
    v->set_walls(slab(c.size));
    v->step(25);
    trace[threads == 1 ? 0 : 1] = trace_of(*v);
    const std::vector<float>& t = trace[threads == 1 ? 0 : 1];
    const size_t voxels = t.size() / 2;
    double sums[2] = {0, 0};
    for (size_t k = 0; k < t.size(); ++k) sums[k / voxels] += t[k];
    EXPECT_EQ(sums[0], 1000.0 * 25 * 1.0);  // a third of the agents, deposit 1
    EXPECT_EQ(sums[1], 2000.0 * 25 * 2.0);  // two thirds, deposit 2
    for (int z = 0; z < c.size.depth; ++z)
      for (int y = 0; y < c.size.height; ++y)
        for (size_t ch = 0; ch < 2; ++ch) EXPECT_EQ(t[ch * voxels + voxel(c.size, 5, y, z)], 0.0f);
  }
  EXPECT_EQ(trace[0], trace[1]);
  // Each agent moves by its species' rule: MCPM's SS xi, Jones's SS.
  const VolumeConfig c = mcpm_and_jones({15, 11, 9}, 3000, 2);
  const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
  const Agents3 before = v->agents();
  v->step(1);
  const Agents3 after = v->agents();
  for (uint32_t i = 0; i < c.agents; i += 7) {
    const double dx = apart(after.x[i], before.x[i], 15), dy = apart(after.y[i], before.y[i], 11),
                 dz = apart(after.z[i], before.z[i], 9);
    EXPECT_NEAR(std::sqrt(dx * dx + dy * dy + dz * dz), i < 1000 ? maxwell(c.seed, i, 0) : 1.0, 1e-4) << i;
  }
}

// Two species (MCPM and Jones's) through the matrix, on CUDA against the CPU at every step across a
// regrouping: on the torus with a walls volume, and in the closed box.
TEST(CudaVolume, McpmWithSpeciesAndWallsEveryStepIsTheCpus) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  for (const Boundary b : {Boundary::Wrap, Boundary::Walls}) {
    VolumeConfig c = mcpm_and_jones({17, 13, 11}, 5000, 2);
    c.boundary = b;
    const std::unique_ptr<Volume> cpu = create_volume(BackendKind::Cpu, c);
    const std::unique_ptr<Volume> gpu = create_volume(BackendKind::Cuda, c);
    if (b == Boundary::Wrap) {
      cpu->set_walls(slab(c.size));
      gpu->set_walls(slab(c.size));
    }
    for (int step = 0; step < 40; ++step) {
      cpu->step(1);
      gpu->step(1);
      ASSERT_EQ(field_of(*cpu), field_of(*gpu)) << "step " << step;
      ASSERT_EQ(trace_of(*cpu), trace_of(*gpu)) << "step " << step;
      const Agents3 a = cpu->agents(), g = gpu->agents();
      ASSERT_TRUE(a.x == g.x && a.y == g.y && a.z == g.z && a.hx == g.hx && a.hy == g.hy && a.hz == g.hz)
          << "step " << step;
    }
  }
}
