// The sensitivity library (app/sensitivity/): twin runs on the CPU backend are bit-exact, so no
// perturbation (or one the step never reads) gives distance exactly 0; the distance measures agree
// with hand-computed cases; the Lyapunov fit recovers a known exponent from a synthetic series.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sensitivity/distance.hpp"
#include "sensitivity/fit.hpp"
#include "sensitivity/parameters.hpp"
#include "sensitivity/perturbation.hpp"
#include "sensitivity/runs.hpp"
#include "sensitivity/summary.hpp"
#include "sensitivity/twin_runs.hpp"
#include "sim/backend.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"

namespace physarum::app::sensitivity {
namespace {

run::Recipe small_sim() {
  run::Recipe o;
  o.size = "48x40";
  o.agents = "1500";
  o.backend = "cpu";
  o.threads = 2;
  return o;
}

TEST(Sensitivity, ZeroPerturbationGivesDistanceExactlyZeroAtEveryStep) {
  for (const char* spec : {"agent:7:theta:0", "agent:7:x:0", "field:3,4:0", "model.sensor_angle_deg:0"}) {
    const TwinResult r = run_twins(small_sim(), parse_perturbation(spec), 120, 6);
    ASSERT_EQ(r.records.size(), 21u) << spec;
    for (const Record& rec : r.records) {
      EXPECT_EQ(rec.field_distance, 0.0) << spec << " at step " << rec.step;
      EXPECT_EQ(rec.agent_fraction, 0.0) << spec << " at step " << rec.step;
    }
  }
}

// The same runs with a real perturbation do part (so the test above can fail).
TEST(Sensitivity, RealPerturbationsSeparateTheTwins) {
  // A zero field and one cell at eps: ||A - B|| / max(||A||, ||B||) = eps / eps = 1.
  const TwinResult field = run_twins(small_sim(), parse_perturbation("field:3,4:1e-3"), 60, 6);
  EXPECT_EQ(field.records.front().field_distance, 1.0);
  const TwinResult angle = run_twins(small_sim(), parse_perturbation("model.sensor_angle_deg:0.2"), 120, 6);
  EXPECT_GT(angle.records.back().field_distance, 0.0);
  EXPECT_GT(angle.records.back().agent_fraction, 0.0);
  EXPECT_FLOAT_EQ(static_cast<float>(angle.delta), 45.0f * 0.2f);
}

TEST(Sensitivity, ParametersTheStepDoesNotReadGiveZero) {
  for (const char* spec : {"display.exposure:0.5", "display.gamma:0.5", "spawn.field_strength:0.5"}) {
    const TwinResult r = run_twins(small_sim(), parse_perturbation(spec), 60, 6);
    EXPECT_NE(r.delta, 0.0) << spec << ": the perturbation must be real";
    for (const Record& rec : r.records) EXPECT_EQ(rec.field_distance, 0.0) << spec << " at step " << rec.step;
  }
  // Two species, the second with share 0: no agent reads its sensor angle or step size, and its
  // channel stays 0 whatever it decays by. Its first species' angle does matter.
  const auto dir = test::temp_dir();
  test::write_file(dir / "two.toml",
                   "[[species]]\nname = \"a\"\nshare = 1.0\n[[species]]\nname = \"b\"\nshare = 0.0\n"
                   "[interaction]\nmatrix = [[1.0, -1.0], [1.0, 1.0]]\n");
  run::Recipe o = small_sim();
  o.preset = (dir / "two.toml").string();
  for (const char* spec :
       {"species.1.sensor_angle_deg:0.3", "species.1.step_size:0.3", "species.1.decay:0.3"}) {
    const TwinResult r = run_twins(o, parse_perturbation(spec), 90, 6);
    EXPECT_NE(r.delta, 0.0) << spec;
    for (const Record& rec : r.records) {
      EXPECT_EQ(rec.field_distance, 0.0) << spec << " at step " << rec.step;
      EXPECT_EQ(rec.agent_fraction, 0.0) << spec << " at step " << rec.step;
    }
  }
  const TwinResult used = run_twins(o, parse_perturbation("species.0.sensor_angle_deg:0.3"), 90, 6);
  EXPECT_GT(used.records.back().field_distance, 0.0);
}

// Twin A is a run of the run library: a keyframed preset grows in it what `physarum run` grows, and
// not what the backend grows when stepped without the keyframes (so the comparison can fail).
TEST(SensitivityE2e, ZeroPerturbationTwinOfAKeyframedPresetGrowsRunsField) {
  const auto dir = test::temp_dir();
  const std::vector<std::string> recipe{"--preset", "condense-shatter", "--size", "64x48", "--agents",
                                        "2000",     "--backend",        "cpu"};
  constexpr int kSteps = 260;  // past the keyframes at steps 200 and 550's ramp
  std::vector<std::string> args{"run", "--steps", std::to_string(kSteps), "--out", "run.npy"};
  args.insert(args.end(), recipe.begin(), recipe.end());
  const test::ProcessResult r = test::run_physarum(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NpyArray expected = read_npy(dir / "run.npy");

  run::Recipe o;
  o.preset = "condense-shatter";
  o.size = "64x48";
  o.agents = "2000";
  o.backend = "cpu";
  const TwinResult twin = run_twins(o, parse_perturbation("agent:7:theta:0"), kSteps, 65);
  EXPECT_EQ(twin.records.back().field_distance, 0.0);
  ASSERT_EQ(twin.field_a.size(), expected.data.size());
  EXPECT_EQ(std::memcmp(twin.field_a.data(), expected.data.data(), expected.data.size() * sizeof(float)), 0);

  const Preset p = run::resolve(o);
  std::unique_ptr<Backend> plain = create_backend(BackendKind::Cpu, config_from(p));
  plain->step(kSteps);  // the keyframes ignored
  std::vector<float> unkeyed;
  plain->read_field(unkeyed);
  ASSERT_EQ(unkeyed.size(), expected.data.size());
  EXPECT_NE(std::memcmp(unkeyed.data(), expected.data.data(), expected.data.size() * sizeof(float)), 0);
}

TEST(Sensitivity, AKeyframedKeyIsNotPerturbedOrSweptSilently) {
  run::Recipe o;
  o.preset = "condense-shatter";  // keyframes model.decay among others
  o.size = "48x40";
  o.agents = "500";
  o.backend = "cpu";
  try {
    (void)run_twins(o, parse_perturbation("model.decay:1e-3"), 4, 2);
    ADD_FAILURE() << "a keyframed key was perturbed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is keyframed in this preset"), std::string::npos) << e.what();
  }
  Preset p = run::resolve(o);
  EXPECT_THROW(set_parameter(p, "model.decay", 0.5), Error);
  EXPECT_NO_THROW(set_parameter(p, "model.deposit", 1.5));  // not keyframed there
}

TEST(Sensitivity, DistancesMatchHandComputedCases) {
  // a = (3, 4) (norm 5), b = (0, 4): ||a - b|| = 3, max norm 5.
  EXPECT_DOUBLE_EQ(relative_l2({3, 4}, {0, 4}), 0.6);
  EXPECT_EQ(relative_l2({0, 0}, {0, 0}), 0.0);
  EXPECT_THROW(relative_l2({1}, {1, 2}), Error);
  AgentState a{{0.5f, 1.9f, 2.0f, 9.99f}, {0.1f, 0.2f, 3.0f, 4.0f}, {0, 0, 0, 0}, {0, 1, 2, 3}};
  AgentState b = a;
  b.x[1] = 1.1f;   // same cell (1, 0)
  b.x[2] = 1.99f;  // cell 1 instead of 2
  b.y[3] = 5.0f;   // row 5 instead of 4
  EXPECT_DOUBLE_EQ(cell_mismatch_fraction(a, b), 0.5);
}

// d = 0 up to step 90, then 1e-6 * exp(0.02 (step - 100)) until it reaches a plateau at 0.5 that
// wobbles (0.49, 0.51, ...). Median of the plateau (an even count) 0.5: the phase ends at the last d <= 0.15
// (ln(1.5e5) / 0.02 = 595.9, so step 690) and saturation (d >= 0.45: ln(4.5e5) / 0.02 = 650.8) is step 760.
TEST(Sensitivity, FitRecoversAKnownExponentFromASyntheticSeries) {
  std::vector<int64_t> steps;
  std::vector<double> d;
  for (int64_t s = 0; s <= 3190; s += 10) {  // 320 records: the last quarter, 80, has an even count
    steps.push_back(s);
    const double grow = s < 100 ? 0.0 : 1e-6 * std::exp(0.02 * static_cast<double>(s - 100));
    d.push_back(grow < 0.49 ? grow : ((s / 10) % 2 ? 0.49 : 0.51));
  }
  const LyapunovFit f = fit_lyapunov(steps, d);
  ASSERT_TRUE(f.ok) << f.why;
  EXPECT_NEAR(f.lambda, 0.02, 1e-12);
  EXPECT_NEAR(f.intercept, std::log(1e-6) - 0.02 * 100, 1e-9);
  EXPECT_EQ(f.from_step, 100);
  EXPECT_EQ(f.to_step, 690);
  EXPECT_EQ(f.points, 60);
  EXPECT_DOUBLE_EQ(f.saturation_level, 0.5);
  EXPECT_EQ(f.saturation_step, 760);

  // A perturbation that fades: the slope of the whole series, negative.
  std::vector<double> fade;
  // From step 2500 the twins are identical again (as a nudged agent can rejoin its twin's path).
  for (int64_t s : steps) {
    fade.push_back(s < 50 || s >= 2500 ? 0.0 : 1e-3 * std::exp(-0.01 * static_cast<double>(s)));
  }
  const LyapunovFit g = fit_lyapunov(steps, fade);
  ASSERT_TRUE(g.ok) << g.why;
  EXPECT_NEAR(g.lambda, -0.01, 1e-12);
  EXPECT_EQ(g.saturation_step, -1);
  EXPECT_EQ(g.from_step, 50);
  EXPECT_EQ(g.to_step, 2490);
  EXPECT_NE(g.why.find("fades"), std::string::npos);

  EXPECT_FALSE(fit_lyapunov(steps, std::vector<double>(steps.size(), 0.0)).ok);
}

TEST(Sensitivity, MeanAndIntervalMatchStudentT) {
  // 1, 2, 3: mean 2, s = 1, t(0.975, 2) = 4.303: half-width 4.303 / sqrt(3).
  const MeanCi m = mean_ci({1.0, 2.0, NAN, 3.0});
  EXPECT_EQ(m.n, 3);
  EXPECT_DOUBLE_EQ(m.mean, 2.0);
  EXPECT_NEAR(m.half, 4.303 / std::sqrt(3.0), 1e-12);
  EXPECT_TRUE(std::isnan(mean_ci({4.0}).half));
}

TEST(Sensitivity, DerivativeNormIsRelativeChangePerRelativeChange) {
  RunData r;
  r.value = 45;
  r.delta = 0.045;  // 1e-3 relative
  r.records = {{0, 0, 0}, {100, 0.2, 0.1}};
  EXPECT_NEAR(derivative_norm(r), 0.2 / 1e-3, 1e-9);
  r.value = 0;  // a parameter at 0 moves absolutely
  r.delta = 1e-3;
  EXPECT_NEAR(derivative_norm(r), 0.2 / 1e-3, 1e-9);
}

TEST(Sensitivity, BadPerturbationSpecsAreRefusedWithAMessage) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"agent:0:phi:1e-4", "not theta, x or y"},
      {"agent:one:theta:1e-4", "not a whole number"},
      {"agent:0:theta", "expected agent:ID"},
      {"agent:0:theta:abc", "not a finite number"},
      {"field:3:1e-3", "expected field:X,Y:EPS"},
      {"field:-1,2:1e-3", "not X,Y"},
      {"model.nonsense:1e-3", "not a numeric parameter"},
      {"model.turn_rule:1e-3", "not a numeric parameter"},
      {"display.palette:1", "not a numeric parameter"},
      {"nonsense", "expected agent:ID:theta|x|y:EPS, field:X,Y:EPS or KEY:REL_EPS"},
      {"model.decay:inf", "not a finite number"},
  };
  for (const auto& [spec, message] : bad) {
    try {
      (void)parse_perturbation(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << spec << ": " << e.what();
    }
  }
  // Well formed, but not for this simulation: checked when applied.
  EXPECT_THROW(run_twins(small_sim(), parse_perturbation("agent:1500:theta:1e-4"), 10, 5), Error);
  EXPECT_THROW(run_twins(small_sim(), parse_perturbation("field:48,0:1e-4"), 10, 5), Error);
  EXPECT_THROW(run_twins(small_sim(), parse_perturbation("species.3.decay:1e-4"), 10, 5), Error);
  EXPECT_THROW(run_twins(small_sim(), parse_perturbation("model.decay:1e6"), 10, 5), Error);  // out of range
}

}  // namespace
}  // namespace physarum::app::sensitivity

namespace physarum::app::sensitivity {
namespace {

// One run's CSV as the program writes it: 1 point, 2 repeats, 3 records each.
CsvHeader two_repeats(const std::string& recipe) {
  return {recipe, Mode::Single, 1, 2, 0.3};
}

std::vector<RunData> two_runs() {
  std::vector<RunData> runs;
  for (int r = 0; r < 2; ++r) {
    RunData d{0, "field", 0.0, 1e-3, r, static_cast<uint32_t>(7 + r), {}};
    for (int s = 1; s <= 3; ++s) d.records.push_back({4 * s, 1e-3 * s * (r + 1), 0.01 * s});
    runs.push_back(d);
  }
  return runs;
}

std::string merge_error(const std::string& text) {
  const auto file = test::temp_dir() / "shard.csv";
  test::write_file(file, text);
  try {
    (void)merge_csv({file});
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST(SensitivityCsv, ARecipeWithControlCharactersStaysOnItsLineAndReadsBack) {
  const std::string recipe = "physarum sensitivity --set 'a=1\n# mode: sweep\r\x1b[2J\\x41'";
  const std::string text = csv_text(two_repeats(recipe), two_runs());
  // Four header lines, then 2 runs x 3 records: the recipe forged no line.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4 + 6);
  for (char c : text.substr(0, text.find("point,"))) {
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << static_cast<int>(c);
  }
  const auto file = test::temp_dir() / "one.csv";
  test::write_file(file, text);
  const CsvFile back = merge_csv({file});
  EXPECT_EQ(back.header.recipe, recipe);
  EXPECT_EQ(csv_text(back.header, back.runs), text);  // a merge writes the same bytes
}

TEST(SensitivityCsv, TamperedHeadersRowsAndNumbersAreRefusedNamingTheLine) {
  const std::string good = csv_text(two_repeats("physarum sensitivity"), two_runs());
  ASSERT_EQ(merge_error(good), "");
  const std::string first_row = "0,field,0,0.001,0,7,4,";
  ASSERT_NE(good.find(first_row), std::string::npos) << good;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {replaced(good, "fit_below: 0.3", "fit_below: nan"), ":3: 'nan' is not a finite number"},
      {replaced(good, "fit_below: 0.3", "fit_below: 7"), ":3: fit_below 7.000000 is outside"},
      {replaced(good, "fit_below: 0.3", "fit_below: 0"), "is outside"},
      // A row twice: the step does not grow.
      {replaced(good, first_row, first_row + "0.001,0.01\n" + first_row),
       ":6: step 4 does not follow step 4"},
      {replaced(good, "0,field,0,0.001,0,7,8,0.002", "0,field,0,0.001,0,7,8,nan"),
       ":6: 'nan' is not a finite number"},
      {replaced(good, "0,field,0,0.001,0,7,8,0.002", "0,field,0,0.001,0,7,8,inf"), "not a finite number"},
      {replaced(good, "0,field,0,0.001,0,7,8,", "0,field,0,0.001,0,9,8,"), ":6: the parameter, value"},
      {good + "0,field,0,0.001,0,7,20,0.1,0.1\n", ":11: point 0 repeat 0 again (its rows began at line 5)"},
      {good + "3,field,0,0.001,0,7,20,0.1,0.1\n", ":11: point 3 repeat 0 is outside"},
      {replaced(good, "# recipe: physarum", "# recipe: \\q physarum"), ":2: the recipe holds a '\\'"},
  };
  for (const auto& [text, says] : cases) {
    const std::string e = merge_error(text);
    EXPECT_NE(e.find(says), std::string::npos) << says << "\n got: " << e;
    EXPECT_NE(e.find("shard.csv"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace physarum::app::sensitivity

namespace physarum::app::sensitivity {
namespace {

// Each kind of perturbation, twins of two seeds, on `backend`.
std::vector<TwinJob> mixed_jobs(const std::string& backend) {
  std::vector<TwinJob> jobs;
  for (const char* spec :
       {"agent:7:theta:1e-3", "field:3,4:1e-2", "model.sensor_angle_deg:0.05", "agent:0:x:0"}) {
    run::Recipe a = small_sim();
    a.backend = backend;
    a.threads = 0;
    a.seed = static_cast<uint32_t>(jobs.size() + 1);
    jobs.push_back({a, parse_perturbation(spec)});
  }
  return jobs;
}

void expect_same_twins(const TwinResult& a, const TwinResult& b, size_t j) {
  EXPECT_EQ(a.delta, b.delta) << "job " << j;
  ASSERT_EQ(a.records.size(), b.records.size()) << "job " << j;
  for (size_t r = 0; r < a.records.size(); ++r) {
    EXPECT_EQ(a.records[r].step, b.records[r].step);
    EXPECT_EQ(a.records[r].field_distance, b.records[r].field_distance) << "job " << j << " record " << r;
    EXPECT_EQ(a.records[r].agent_fraction, b.records[r].agent_fraction) << "job " << j << " record " << r;
  }
  EXPECT_EQ(a.field_a, b.field_a);
  EXPECT_EQ(a.field_b, b.field_b);
}

}  // namespace

// Twins of several jobs grown together (side by side on the CPU) are each job's twins grown alone.
TEST(SensitivityBatch, TwinsGrownTogetherAreEachJobsTwinsAlone) {
  const std::vector<TwinJob> jobs = mixed_jobs("cpu");
  const std::vector<TwinResult> together = run_twin_batch(jobs, 75, 25);
  ASSERT_EQ(together.size(), jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    run::Recipe alone = jobs[j].a;
    alone.threads = 2;
    expect_same_twins(run_twins(alone, jobs[j].p, 75, 25), together[j], j);
  }
  EXPECT_GT(together[0].records.back().field_distance, 0.0);
  EXPECT_EQ(together[3].records.back().field_distance, 0.0);  // a perturbation by 0
}

// On the GPU the twins are worlds of one CUDA batch (B's agents and field set in its slice): the
// records are the CPU's, bit for bit.
TEST(SensitivityBatchCuda, TwinsInOneCudaBatchRecordWhatTheCpuRecords) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  const std::vector<TwinResult> cpu = run_twin_batch(mixed_jobs("cpu"), 75, 25);
  const std::vector<TwinResult> gpu = run_twin_batch(mixed_jobs("cuda"), 75, 25);
  EXPECT_NE(gpu[0].backend.find("8 worlds a launch"), std::string::npos) << gpu[0].backend;
  for (size_t j = 0; j < cpu.size(); ++j) expect_same_twins(cpu[j], gpu[j], j);
}

}  // namespace physarum::app::sensitivity
