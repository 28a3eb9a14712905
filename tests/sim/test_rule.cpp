// The shared rule, checked by hand and against double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/params.hpp"
#include "sim/rule.hpp"

using namespace physarum;
namespace r = physarum::rule;

TEST(Rule, SinCosMatchesDoublePrecision) {
  double worst = 0;
  for (int i = -200000; i <= 200000; ++i) {
    const float a = static_cast<float>(i) * 1.0e-4f;  // [-20, 20]
    const r::SinCos sc = r::sin_cos(a);
    worst = std::max(worst, std::abs(sc.s - std::sin(static_cast<double>(a))));
    worst = std::max(worst, std::abs(sc.c - std::cos(static_cast<double>(a))));
  }
  EXPECT_LT(worst, 4.0e-7);
}

TEST(Rule, WrapStaysInRange) {
  const float n = 10.0f;
  const float inv = 1.0f / n;
  EXPECT_EQ(r::wrap(3.5f, n, inv), 3.5f);
  EXPECT_EQ(r::wrap(10.0f, n, inv), 0.0f);
  EXPECT_EQ(r::wrap(13.5f, n, inv), 3.5f);
  EXPECT_EQ(r::wrap(-0.5f, n, inv), 9.5f);
  EXPECT_EQ(r::wrap(-10.0f, n, inv), 0.0f);
  EXPECT_EQ(r::wrap(-25.0f, n, inv), 5.0f);
  const float tiny = r::wrap(-1.0e-9f, n, inv);  // n - 1e-9 rounds to n: must still land inside
  EXPECT_GE(tiny, 0.0f);
  EXPECT_LT(tiny, n);
  for (float v = -1000.0f; v < 1000.0f; v += 0.37f) {
    const float w = r::wrap(v, 7.0f, 1.0f / 7.0f);
    ASSERT_GE(w, 0.0f) << v;
    ASSERT_LT(w, 7.0f) << v;
  }
  EXPECT_EQ(r::wrap_index(-1, 5), 4);
  EXPECT_EQ(r::wrap_index(5, 5), 0);
  EXPECT_EQ(r::cell_of(6.999f, 7), 6);
}

TEST(Rule, HashIsDeterministicAndSpread) {
  EXPECT_EQ(r::hash(1, 2, 3, 4), r::hash(1, 2, 3, 4));
  EXPECT_NE(r::hash(1, 2, 3, 4), r::hash(2, 2, 3, 4));
  EXPECT_NE(r::hash(1, 2, 3, 4), r::hash(1, 3, 3, 4));
  EXPECT_NE(r::hash(1, 2, 3, 4), r::hash(1, 2, 4, 4));
  EXPECT_NE(r::hash(1, 2, 3, 4), r::hash(1, 2, 3, 5));
  double mean = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const float u = r::unit(r::hash(7, static_cast<uint32_t>(i), 0, 1));
    ASSERT_GE(u, 0.0f);
    ASSERT_LT(u, 1.0f);
    mean += u;
  }
  EXPECT_NEAR(mean / n, 0.5, 0.005);
}

namespace {

// A small field for hand-made cases: zeros, with values placed by (x, y).
struct Grid {
  int w, h;
  std::vector<float> f;
  Grid(int w_, int h_) : w(w_), h(h_), f(static_cast<size_t>(w_) * h_, 0.0f) {}
  void set(int x, int y, float v) { f[static_cast<size_t>(y) * w + x] = v; }
  float operator()(int cell) const { return f[static_cast<size_t>(cell)]; }
};

r::StepParams params(int w, int h, TurnRule rule = TurnRule::Simple, float jitter = 0) {
  ModelParams m;  // SA = RA = 45 deg, SO = 5, SS = 1
  m.turn_rule = rule;
  m.jitter = jitter;
  return make_step_params(m, Size{w, h}, 1);
}

constexpr double kQuarterPi = 0.78539816339744830962;

}  // namespace

TEST(Rule, SimpleTurnsTowardTheStrongerSide) {
  Grid g(32, 32);
  // Agent at (10.5, 10.5) heading 0 (+x). Centre sensor at (15.5, 10.5); left (+45 deg, y down) at
  // (10.5 + 5 cos 45, 10.5 + 5 sin 45) = (14.03, 14.03) -> cell (14, 14); right -> cell (14, 6).
  g.set(14, 14, 2.0f);
  g.set(15, 10, 1.0f);
  const r::StepParams p = params(32, 32);
  r::Agent a{10.5f, 10.5f, 0.0f};
  const int cell = r::step_agent(a, 0, 0, p, g);
  EXPECT_NEAR(a.theta, kQuarterPi, 1e-6);
  const double x = 10.5 + std::cos(kQuarterPi);
  const double y = 10.5 + std::sin(kQuarterPi);
  EXPECT_NEAR(a.x, x, 1e-5);
  EXPECT_NEAR(a.y, y, 1e-5);
  EXPECT_EQ(cell, static_cast<int>(y) * 32 + static_cast<int>(x));

  // Right stronger: turn by -RA (wrapped into [0, 2pi)).
  Grid g2(32, 32);
  g2.set(14, 6, 3.0f);
  r::Agent b{10.5f, 10.5f, 0.0f};
  r::step_agent(b, 0, 0, p, g2);
  EXPECT_NEAR(b.theta, 2 * 3.14159265358979 - kQuarterPi, 1e-5);
  EXPECT_NEAR(b.y, 10.5 - std::sin(kQuarterPi), 1e-5);
}

TEST(Rule, SimpleKeepsHeadingOnTiesAndWhenCentreWins) {
  const r::StepParams p = params(32, 32);
  Grid tie(32, 32);
  tie.set(14, 14, 2.0f);
  tie.set(14, 6, 2.0f);  // left == right > centre: neither is strictly the largest
  r::Agent a{10.5f, 10.5f, 0.0f};
  r::step_agent(a, 0, 0, p, tie);
  EXPECT_EQ(a.theta, 0.0f);
  EXPECT_NEAR(a.x, 11.5, 1e-6);

  Grid centre(32, 32);
  centre.set(15, 10, 5.0f);
  centre.set(14, 14, 1.0f);
  r::Agent b{10.5f, 10.5f, 0.0f};
  r::step_agent(b, 0, 0, p, centre);
  EXPECT_EQ(b.theta, 0.0f);
}

TEST(Rule, JonesRule) {
  const r::StepParams p = params(32, 32, TurnRule::Jones);
  Grid centre(32, 32);  // centre largest: keep
  centre.set(15, 10, 5.0f);
  centre.set(14, 14, 1.0f);
  r::Agent a{10.5f, 10.5f, 0.0f};
  r::step_agent(a, 0, 0, p, centre);
  EXPECT_EQ(a.theta, 0.0f);

  Grid toward(32, 32);  // fc <= fl, fc >= fr is not both-smaller: turn toward the larger side
  toward.set(14, 14, 1.0f);
  r::Agent b{10.5f, 10.5f, 0.0f};
  r::step_agent(b, 0, 0, p, toward);
  EXPECT_NEAR(b.theta, kQuarterPi, 1e-6);

  Grid valley(32, 32);  // centre smaller than both: random side, from the hash of (seed, id, step)
  valley.set(14, 14, 1.0f);
  valley.set(14, 6, 2.0f);
  int left = 0;
  const int n = 2000;
  for (int id = 0; id < n; ++id) {
    r::Agent c{10.5f, 10.5f, 0.0f};
    r::step_agent(c, static_cast<uint32_t>(id), 5, p, valley);
    const bool is_left = std::abs(c.theta - kQuarterPi) < 1e-5;
    const bool is_right = std::abs(c.theta - (2 * 3.14159265358979 - kQuarterPi)) < 1e-5;
    ASSERT_TRUE(is_left || is_right) << c.theta;
    left += is_left;
    r::Agent again{10.5f, 10.5f, 0.0f};
    r::step_agent(again, static_cast<uint32_t>(id), 5, p, valley);
    ASSERT_EQ(again.theta, c.theta);  // same (seed, id, step) -> same choice
  }
  EXPECT_NEAR(left, n / 2, n / 10);

  Grid flat(32, 32);  // all equal: keep
  r::Agent d{10.5f, 10.5f, 1.0f};
  r::step_agent(d, 3, 0, p, flat);
  EXPECT_EQ(d.theta, 1.0f);
}

TEST(Rule, JitterIsBoundedAndVaries) {
  const float jitter = 0.5f;
  const r::StepParams p = params(32, 32, TurnRule::Simple, jitter);
  Grid flat(32, 32);
  float lo = 10, hi = -10;
  for (uint32_t id = 0; id < 1000; ++id) {
    r::Agent a{10.5f, 10.5f, 1.0f};
    r::step_agent(a, id, 0, p, flat);
    const float d = a.theta - 1.0f;
    ASSERT_GE(d, -jitter / 2 - 1e-6);
    ASSERT_LT(d, jitter / 2 + 1e-6);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  EXPECT_LT(lo, -0.2f);
  EXPECT_GT(hi, 0.2f);
}

TEST(Rule, WrapsAtEdgesAndCorners) {
  // Agent near the top-left corner heading up-left (225 deg): it moves to the bottom-right corner,
  // and its centre sensor wraps to (0.2 - 3.54, 0.2 - 3.54) -> cell (W - 4, H - 4).
  const int w = 20, h = 12;
  const r::StepParams p = params(w, h);
  const float theta = static_cast<float>(5 * kQuarterPi);
  Grid g(w, h);
  g.set(w - 4, h - 4, 1.0f);
  g.set(w - 1, h - 1, 9.0f);  // not under any sensor
  r::Agent a{0.2f, 0.2f, theta};
  const int cell = r::step_agent(a, 0, 0, p, g);
  EXPECT_NEAR(a.theta, theta, 1e-6);  // centre strongest: no turn
  EXPECT_NEAR(a.x, w + 0.2 - std::sqrt(0.5), 1e-5);
  EXPECT_NEAR(a.y, h + 0.2 - std::sqrt(0.5), 1e-5);
  EXPECT_EQ(cell, (h - 1) * w + (w - 1));

  // Right edge heading +x.
  r::Agent b{static_cast<float>(w) - 0.25f, 3.5f, 0.0f};
  Grid flat(w, h);
  const int cb = r::step_agent(b, 0, 0, p, flat);
  EXPECT_NEAR(b.x, 0.75, 1e-6);
  EXPECT_EQ(cb, 3 * w + 0);
}

TEST(Rule, FieldUpdateMatchesDouble) {
  ModelParams m;
  m.decay = 0.07f;
  m.diffuse = 0.35f;
  const r::StepParams p = make_step_params(m, Size{8, 8}, 1);
  const float g[9] = {0.1f, 2.5f, 3.0f, 0.0f, 7.25f, 1.5f, 0.3f, 0.0f, 9.0f};
  const float got = r::field_update(
      g[4], r::sum9(r::row_sum(g[0], g[1], g[2]), r::row_sum(g[3], g[4], g[5]), r::row_sum(g[6], g[7], g[8])),
      p);
  double mean = 0;
  for (float v : g) mean += v;
  mean /= 9.0;
  const double want = (1.0 - 0.07) * ((1.0 - 0.35) * 7.25 + 0.35 * mean);
  EXPECT_NEAR(got, want, 1e-5 * want);
  EXPECT_EQ(r::deposited(1.5f, 3, 2.0f), 7.5f);
}

TEST(Params, ValidationNamesTheFieldAndRange) {
  ModelParams m;
  m.decay = std::nanf("");
  try {
    validate(m);
    FAIL() << "NaN decay accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("model.decay"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0 to 1"), std::string::npos) << e.what();
  }
  m = ModelParams{};
  m.sensor_distance = -1;
  EXPECT_THROW(validate(m), Error);
  m = ModelParams{};
  m.diffuse = 1.5f;
  EXPECT_THROW(validate(m), Error);
  m = ModelParams{};
  m.step_size = INFINITY;
  EXPECT_THROW(validate(m), Error);
  EXPECT_NO_THROW(validate(ModelParams{}));
  EXPECT_THROW(validate(RunParams{Size{0, 10}, 10, 1, std::nullopt, 1}), Error);
  EXPECT_THROW(validate(RunParams{Size{10, 10}, 0, 1, std::nullopt, 1}), Error);
  EXPECT_THROW(validate(RunParams{Size{100000, 10}, 10, 1, std::nullopt, 1}), Error);
}

TEST(Params, JitterUpToFloatTwoPiIsAllowed) {
  // 2 pi as a float (6.2831855) is above 2 pi in double; it is what a person types as "2 pi".
  ModelParams m;
  m.jitter = r::kTwoPi;
  ASSERT_GT(static_cast<double>(m.jitter), 2.0 * 3.14159265358979323846);
  EXPECT_NO_THROW(validate(m));
  m.jitter = std::nextafter(r::kTwoPi, 10.0f);
  EXPECT_THROW(validate(m), Error);
}

TEST(Params, ParsesSizesAndCounts) {
  EXPECT_EQ(parse_size("1920x1080"), (Size{1920, 1080}));
  EXPECT_EQ(parse_size("257X131"), (Size{257, 131}));
  EXPECT_THROW(parse_size("0x5"), Error);
  EXPECT_THROW(parse_size("12"), Error);
  EXPECT_THROW(parse_size("12x"), Error);
  EXPECT_THROW(parse_size("-4x4"), Error);
  EXPECT_EQ(parse_count("1000"), 1000u);
  EXPECT_EQ(parse_count("250K"), 250000u);
  EXPECT_EQ(parse_count("4M"), 4000000u);
  EXPECT_EQ(parse_count("1.5M"), 1500000u);
  EXPECT_THROW(parse_count("-3"), Error);
  EXPECT_THROW(parse_count("abc"), Error);
  EXPECT_THROW(parse_count("2000G"), Error);
  EXPECT_EQ(format_count(4000000), "4M");
  EXPECT_EQ(format_count(250000), "250K");
  EXPECT_EQ(format_count(1500000), "1.5M");
  EXPECT_EQ(parse_count(format_count(1500000)), 1500000U);
  EXPECT_EQ(format_count(1550000), "1550K");
  EXPECT_EQ(format_count(1234), "1234");
  EXPECT_EQ(parse_turn_rule("jones"), TurnRule::Jones);
  EXPECT_THROW(parse_turn_rule("left"), Error);
}
