// Size, density and scale (docs/MODEL.md, "Size, density and scale"): the agent count follows the
// area, run.density replaces run.agents, and a run at detail K steps lengths K times longer, senses
// K x K blocks and spreads the trail K^2 times as far in variance a step. test_scale_look.cpp
// measures the pattern.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "backends.hpp"
#include "run/area_fit.hpp"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/spawn.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

std::string preset_file(const char* name) {
  return (std::filesystem::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / (std::string(name) + ".toml"))
      .string();
}

// --- Density -------------------------------------------------------------------------------------

TEST(Density, AnotherSizeKeepsThePresetsAgentsPerCell) {
  run::Recipe r;
  r.preset = preset_file("towns");  // 60K agents on 960x540
  r.size = "480x270";
  std::string chosen;
  const Preset p = run::resolve(r, &chosen);
  EXPECT_EQ(p.run.agents, 15000U);  // a quarter of the cells, a quarter of the agents
  EXPECT_NE(chosen.find("480x270 with 15K agents"), std::string::npos) << chosen;
  EXPECT_NE(chosen.find("960x540 with 60K"), std::string::npos) << chosen;
  r.agents = "20K";  // a count given wins
  EXPECT_EQ(run::resolve(r).run.agents, 20000U);
  r.agents.clear();
  r.size.clear();  // the preset's own size: nothing chosen, nothing said
  EXPECT_EQ(run::resolve(r, &chosen).run.agents, 60000U);
  EXPECT_EQ(chosen, "");
}

TEST(Density, RunDensityGivesTheCountAtAnySize) {
  run::Recipe r;
  r.sets = {"run.density=0.5"};
  r.size = "200x100";
  EXPECT_EQ(run::resolve(r).run.agents, 10000U);  // 0.5 * 20000
  r.size = "2000x1000";                           // 1M exactly
  EXPECT_EQ(run::resolve(r).run.agents, 1000000U);
  r.size = "333x111";  // 18481.5: whole thousands from 10K on
  EXPECT_EQ(run::resolve(r).run.agents, 18000U);
}

TEST(Density, AgentsAndDensityThatDisagreeAreRefusedNamingBoth) {
  run::Recipe r;
  r.size = "200x100";
  r.sets = {"run.density=0.5", "run.agents=10000"};  // they agree
  EXPECT_EQ(run::resolve(r).run.agents, 10000U);
  r.sets = {"run.density=0.5", "run.agents=30000"};
  try {
    (void)run::resolve(r);
    FAIL() << "no error";
  } catch (const run::UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("run.agents = 30K"), std::string::npos) << m;
    EXPECT_NE(m.find("run.density = 0.5"), std::string::npos) << m;
    EXPECT_NE(m.find("gives 10K agents at 200x100"), std::string::npos) << m;
  }
  // A preset file holding both, disagreeing, is refused as it loads.
  Preset p;
  p.run.size = {200, 100};
  p.run.agents = 30000;
  p.run.density = 0.5f;
  EXPECT_THROW(validate(p.run), Error);
  p.run.agents = 10100;  // within 1%
  EXPECT_NO_THROW(validate(p.run));
  // A volume's cells are its voxels: 0.5 a voxel of 64^3 is 131072 agents (131K once rounded).
  p.run.size = {64, 64, 64};
  p.run.agents = 131072;
  EXPECT_NO_THROW(validate(p.run));
  p.run.agents = 140000;
  EXPECT_THROW(validate(p.run), Error);
}

// --- Scale: the rule -----------------------------------------------------------------------------

TEST(Scale, SidesTimesKAgentsTimesKSquared) {
  run::Recipe r;
  r.preset = preset_file("jones-2010");
  r.size = "160x90";
  r.scale = 3;
  std::string chosen;
  const Preset p = run::resolve(r, &chosen);
  EXPECT_EQ(p.run.size, (Size{480, 270}));
  EXPECT_EQ(p.run.scale, 3);
  const uint64_t base = agents_for_density(2e6 / (1920.0 * 1080.0), {160, 90});
  EXPECT_EQ(p.run.agents, base * 9);
  EXPECT_NE(chosen.find("detail 3"), std::string::npos) << chosen;
  // run.scale in --set does the same; the model keeps its values at detail 1.
  r.scale = 0;
  r.sets = {"run.scale=3"};
  const Preset q = run::resolve(r);
  EXPECT_EQ(q.run.size, p.run.size);
  EXPECT_EQ(q.run.agents, p.run.agents);
  EXPECT_EQ(q.model.sensor_distance, 9.0f);
  // Out of range: a clear message, nothing made.
  r.sets.clear();
  r.scale = 9;
  try {
    (void)run::resolve(r);
    FAIL() << "no error";
  } catch (const run::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--scale 9 is out of range: allowed 1 to 8"), std::string::npos)
        << e.what();
  }
}

// The panel's "detail" and --scale are one rule (run::at_scale), relative to the detail the run
// has; a run rebuilt from its live preset keeps the detail that preset holds.
TEST(Scale, AnotherDetailOfARunAndARebuildKeepIt) {
  run::Recipe r;
  r.size = "64x36";
  r.scale = 2;
  Preset p = run::resolve(r);
  ASSERT_EQ(p.run.size, (Size{128, 72}));
  ASSERT_EQ(p.run.scale, 2);
  const RunParams four = run::at_scale(p.run, 4);
  EXPECT_EQ(four.size, (Size{256, 144}));
  EXPECT_EQ(four.agents, p.run.agents * 4);
  EXPECT_EQ(four.scale, 4);
  const RunParams one = run::at_scale(four, 1);
  EXPECT_EQ(one.size, (Size{64, 36}));
  EXPECT_EQ(one.agents * 4, p.run.agents);
  p.run = four;
  const Preset rebuilt = run::resolve(run::with_base(r, p));
  EXPECT_EQ(rebuilt.run.size, four.size);
  EXPECT_EQ(rebuilt.run.scale, 4);
  EXPECT_EQ(rebuilt.run.agents, four.agents);
  try {
    (void)run::at_scale(four, 9);
    FAIL() << "no error";
  } catch (const run::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("detail 9 is out of range: allowed 1 to 8"), std::string::npos)
        << e.what();
  }
  RunParams wide = four;
  wide.size = {9000, 100};
  EXPECT_THROW((void)run::at_scale(wide, 8), run::UsageError);  // 18000 cells on a side
}

TEST(Scale, LengthsInCellsGrowWithK) {
  ModelParams m;
  m.sensor_distance = 9.0f;
  m.step_size = 1.5f;
  const rule::StepParams one = make_step_params(m, {64, 64}, 1);
  const rule::StepParams four = make_step_params(m, {256, 256}, 1, 4);
  EXPECT_EQ(one.sensor_distance, 9.0f);
  EXPECT_EQ(four.sensor_distance, 36.0f);
  EXPECT_EQ(four.step_size, 6.0f);
  EXPECT_EQ(four.keep, one.keep);  // decay, deposit and the blur weights do not scale
  EXPECT_EQ(four.deposit, one.deposit);
  EXPECT_EQ(four.neighbour_w, one.neighbour_w);
}

// One pass of "One step"'s field update over a plane (torus), written out here in the model's order
// of float operations.
std::vector<float> blur_pass(const std::vector<float>& f, int w, int h, float keep, float self_w, float nw) {
  std::vector<float> out(f.size());
  const auto at = [&](int x, int y) { return f[static_cast<size_t>((y + h) % h * w + (x + w) % w)]; };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float rows[3];
      for (int d = -1; d <= 1; ++d) rows[d + 1] = (at(x - 1, y + d) + at(x, y + d)) + at(x + 1, y + d);
      const float sum9 = (rows[0] + rows[1]) + rows[2];
      const float self = self_w * at(x, y);
      const float neighbours = nw * sum9;
      out[static_cast<size_t>(y * w + x)] = keep * (self + neighbours);
    }
  }
  return out;
}

TEST(Scale, AStepSpreadsKSquaredTimesAsFarAndDecaysOnce) {
  for (int k : {1, 2, 3}) {
    SimConfig c;
    c.size = {24, 18};  // K = 1, 2 and 3 divide both sides
    c.agents = 1;
    c.model.deposit = 0.0f;  // the agent leaves nothing: the step is the field update alone
    c.model.decay = 0.25f;
    c.model.diffuse = 0.3f;
    c.scale = k;
    c.threads = 2;
    auto b = make_cpu_backend(c, spawn_agents(c.spawn.mode, c.size, c.agents, c.seed));
    std::vector<float> field(24 * 18, 0.0f);
    field[5 * 24 + 7] = 100.0f;
    field[17 * 24 + 23] = 7.0f;  // a corner: the passes wrap
    b->set_field(field);
    b->step(2);
    // The variance of a step's spread, 0.3 * K^2 in units of one full pass, in the fewest passes of
    // diffuse <= 1: K = 2 is 2 passes of 0.6, K = 3 is 3 passes of 0.9.
    const int passes = k == 1 ? 1 : k == 2 ? 2 : 3;
    const auto diffuse = static_cast<float>(0.30000001192092896 * k * k / passes);
    const float keep = 1.0f - 0.25f;
    const float self_w = 1.0f - diffuse;
    const float nw = diffuse * (1.0f / 9.0f);
    std::vector<float> want = field;
    for (int s = 0; s < 2; ++s) {
      for (int pass = 0; pass < passes; ++pass)
        want = blur_pass(want, 24, 18, pass == 0 ? keep : 1.0f, self_w, nw);
    }
    std::vector<float> got;
    b->read_field(got);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << "K = " << k << ", cell " << i;
  }
}

// At detail K a sensor reads the mean of the K x K block that holds its point, worked by hand: one
// agent at (8.5, 8.5) heading east on a 16 x 16 field at K = 2 (sensor distance 3 x 2 = 6 cells,
// angle 45 degrees) has its centre sensor in cell (14, 8), block (7, 4), and its left sensor at
// (12.74, 12.74), cell (12, 12), block (6, 6). A trail of 9 in cell (13, 13), in the left sensor's
// block but not its cell, and 3 in the centre's own cell: the block means 9/4 and 3/4 turn it left
// (simple rule); read cell by cell (0 left, 3 centre, as at K = 1) it would go straight on.
TEST(Scale, ASensorReadsTheMeanOfItsBlock) {
  for (const int k : {1, 2}) {
    SimConfig c;
    c.size = {16, 16};
    c.agents = 1;
    c.model.turn_rule = TurnRule::Simple;
    c.model.sensor_angle_deg = 45.0f;
    c.model.rotation_angle_deg = 45.0f;
    c.model.sensor_distance = 6.0f / static_cast<float>(k);  // 6 cells at both details
    c.model.step_size = 0.5f;
    c.scale = k;
    c.threads = 2;
    auto b = make_cpu_backend(c, AgentState{{8.5f}, {8.5f}, {0.0f}, {0U}});
    std::vector<float> field(16 * 16, 0.0f);
    field[13 * 16 + 13] = 9.0f;
    field[8 * 16 + 14] = 3.0f;
    b->set_field(field);
    b->step(1);
    const AgentState a = b->read_agents();
    const float rot = 45.0f * 0.017453292519943295f;
    if (k == 2) {
      EXPECT_EQ(a.theta[0], rot) << "K = 2 turns left toward the block of 9";
    } else {
      EXPECT_EQ(a.theta[0], 0.0f) << "K = 1 reads the centre's 3 and the left cell's 0: straight on";
      EXPECT_EQ(a.x[0], 9.0f);
    }
  }
}

// The program says on stderr, once, what it chose for a preset made at another size and detail;
// the preset's own run says nothing; a detail out of range is a usage error naming it.
TEST(ScaleCli, RunSaysTheSizeAndAgentsItChose) {
  const auto dir = test::temp_dir();
  const auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"run",       "--preset", "towns", "--steps", "1",
                                  "--backend", "cpu",      "--out", "f.npy"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_physarum(args, dir);
  };
  const auto small = run({"--size", "480x270"});
  EXPECT_EQ(small.exit_code, 0) << small.err;
  EXPECT_NE(
      small.err.find("physarum: 480x270 with 15K agents (the preset is made at 960x540 with 60K agents; "
                     "same agents per cell)\n"),
      std::string::npos)
      << small.err;
  const auto fine = run({"--size", "240x135", "--scale", "2"});
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
  EXPECT_NE(fine.err.find("physarum: 480x270 with 15K agents (the preset is made at 960x540 with 60K agents, "
                          "detail 2 of its 1; same agents per cell)"),
            std::string::npos)
      << fine.err;
  const auto own = run({});
  EXPECT_EQ(own.exit_code, 0) << own.err;
  EXPECT_EQ(own.err.find("the preset is made at"), std::string::npos) << own.err;
  // Without a preset the run is the built-in defaults', and the line says so.
  const auto plain = test::run_physarum(
      {"run", "--size", "480x270", "--steps", "1", "--backend", "cpu", "--out", "p.npy"}, dir);
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("physarum: 480x270 with 125K agents (the defaults are 1920x1080 with 2M agents; "
                           "same agents per cell)"),
            std::string::npos)
      << plain.err;
  const auto bad = run({"--scale", "9"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--scale"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace physarum
