// `physarum bench` end to end on the CPU backend: what it prints, not how fast it is (speed is a
// benchmark, never a test). The numbers must agree with each other and with what was asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace physarum {
namespace {

// The value of "key": in a flat JSON object (numbers or strings).
std::string json_value(const std::string& line, const std::string& key) {
  const std::regex re("\"" + key + "\":(\"[^\"]*\"|[-0-9.eE+]+)");
  std::smatch m;
  return std::regex_search(line, m, re) ? m[1].str() : std::string();
}
double json_number(const std::string& line, const std::string& key) {
  const std::string v = json_value(line, key);
  return v.empty() ? -1.0 : std::stod(v);
}

TEST(BenchE2e, JsonLineDescribesTheCaseAndItsNumbersAgree) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"bench", "--backend", "cpu", "--threads", "1", "--size", "64x48",
                                     "--agents", "2000", "--steps", "5", "--warmup", "3", "--json"},
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(json_value(line, "backend"), "\"cpu (1 thread)\"") << line;
  EXPECT_EQ(json_number(line, "width"), 64);
  EXPECT_EQ(json_number(line, "height"), 48);
  EXPECT_EQ(json_number(line, "agents"), 2000);
  EXPECT_EQ(json_number(line, "warmup"), 3);
  EXPECT_EQ(json_number(line, "steps"), 5);
  const double ms = json_number(line, "ms_per_step");
  const double per_s = json_number(line, "steps_per_s");
  ASSERT_GT(ms, 0) << line;
  EXPECT_NEAR(ms * per_s, 1000.0, 1000.0 * 0.01) << line;  // printed with 4-5 significant digits
  // G agent-steps/s = agents * steps/s / 1e9 (printed to 3 decimals).
  EXPECT_NEAR(json_number(line, "gagent_steps_per_s"), 2000 * per_s / 1e9, 0.0006) << line;
  // effective_gbs is not re-derived here: the formula would only restate cmd_bench.cpp's.
  EXPECT_GE(json_number(line, "effective_gbs"), 0) << "effective_gbs missing: " << line;
  EXPECT_NE(r.err.find("cpu"), std::string::npos) << "bench says which backend it took: " << r.err;
}

// --species N runs N species (several channels of field to stream) and says so in the JSON.
TEST(BenchE2e, SpeciesOptionRunsSeveralSpecies) {
  const auto dir = test::temp_dir();
  const auto r =
      test::run_physarum({"bench", "--backend", "cpu", "--threads", "1", "--size", "40x30", "--agents",
                          "1000", "--steps", "3", "--warmup", "2", "--species", "3", "--json"},
                         dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(json_number(line, "species"), 3) << line;
  const double per_s = json_number(line, "steps_per_s");
  const double gbs = (24.0 * 1000 + 3 * 12.0 * 40 * 30) * per_s / 1e9;  // three channels of cells
  EXPECT_NEAR(json_number(line, "effective_gbs"), gbs, 0.06 + 0.01 * gbs) << line;
  EXPECT_EQ(test::run_physarum({"bench", "--species", "5"}, dir).exit_code, 2);
  EXPECT_EQ(test::run_physarum({"bench", "--species", "0"}, dir).exit_code, 2);
}

// On the CPU every timed step is timed stage by stage: the stages are the timed steps' own, so
// with "other" (the step loop outside the stages) they add up to the step, and "other" is a sliver.
// 64 timed steps hold two reorderings of the agents, so sort takes its share as the step does.
TEST(BenchE2e, CpuStagesPartitionTheTimedStep) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"bench", "--backend", "cpu", "--threads", "1", "--size", "128x128",
                                     "--agents", "20K", "--warmup", "8", "--json"},
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(json_number(line, "steps"), 64) << "the CPU's default: two reorderings";
  EXPECT_EQ(json_number(line, "stage_samples"), 64) << "the stages of the timed steps themselves: " << line;
  const double ms = json_number(line, "ms_per_step");
  const double agents = json_number(line, "agents_ms");
  const double field = json_number(line, "field_ms");
  const double sort = json_number(line, "sort_ms");
  ASSERT_NE(json_value(line, "other_ms"), "") << line;
  const double other = json_number(line, "other_ms");
  EXPECT_GT(agents, 0) << line;
  EXPECT_GT(field, 0) << line;
  EXPECT_GT(sort, 0) << "two reorderings in the timed steps: " << line;
  // Each printed to 6 significant digits.
  EXPECT_NEAR(agents + field + sort + other, ms, 1e-5 * ms) << line;
  // Tolerance: the step loop's own work (a clock read and an average a step) is well under 5%.
  EXPECT_GE(other, -1e-5 * ms) << line;
  EXPECT_LE(other, 0.05 * ms) << line;
}

// A volume on the CPU: its timed steps are timed stage by stage too.
TEST(BenchE2e, CpuVolumeStagesPartitionTheTimedStep) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"bench", "--size", "32x32x32", "--agents", "20K", "--backend", "cpu",
                                     "--threads", "1", "--steps", "8", "--warmup", "2", "--json"},
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double ms = json_number(r.out, "ms_per_step");
  ASSERT_NE(json_value(r.out, "other_ms"), "") << r.out;
  const double other = json_number(r.out, "other_ms");
  const double sum = json_number(r.out, "agents_ms") + json_number(r.out, "field_ms") +
                     json_number(r.out, "sort_ms") + other;
  EXPECT_NEAR(sum, ms, 1e-5 * ms) << r.out;
  EXPECT_GE(other, -1e-5 * ms) << r.out;
  EXPECT_LE(other, 0.05 * ms) << r.out;
}

// A bare bench on the CPU is one case sized for it (1024x1024 with 1M agents; the GPU's sweep
// goes to 4096x4096 with 16M), and it says how to ask for the GPU's sweep.
TEST(BenchE2e, BareCpuBenchIsOneCaseAndSaysHowToAskForTheSweep) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      {"bench", "--backend", "cpu", "--threads", "1", "--warmup", "2", "--steps", "2", "--json"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(json_number(r.out, "width"), 1024) << r.out;
  EXPECT_EQ(json_number(r.out, "height"), 1024) << r.out;
  EXPECT_EQ(json_number(r.out, "agents"), 1000000) << r.out;
  EXPECT_NE(r.err.find("--sweep full"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4096x4096 with 16M agents"), std::string::npos) << r.err;
  // --sweep full picks its own cases.
  EXPECT_EQ(test::run_physarum({"bench", "--sweep", "full", "--size", "64x64"}, dir).exit_code, 2);
}

// One world that is not batched (the CPU) is the same run as that world alone: timed once, so the
// speedup is 1 and "in turn" is the batch's own rate, never a near-zero time's noise.
TEST(BenchE2e, OneWorldIsItsOwnRunInTurn) {
  const auto dir = test::temp_dir();
  const std::vector<std::string> base = {"bench",   "--worlds", "1",   "--backend", "cpu", "--size",
                                         "128x128", "--agents", "10K", "--warmup",  "2"};
  auto args = base;
  args.push_back("--json");
  const auto r = test::run_physarum(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "worlds"), 1) << r.out;
  EXPECT_EQ(json_number(r.out, "speedup"), 1) << r.out;
  EXPECT_EQ(json_value(r.out, "gagent_steps_per_s"),
            json_value(r.out, "one_after_another_gagent_steps_per_s"))
      << r.out;
  EXPECT_EQ(json_value(r.out, "agents_ms"), "")
      << "worlds side by side are not timed stage by stage: " << r.out;
  // The table gives every rate in significant digits: 10K agents at a few hundred steps a second are
  // a few thousandths of a G agent-step, which two decimals print as 0.00.
  const auto t = test::run_physarum(base, dir);
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const std::string row = t.out.substr(t.out.find('\n') + 1);
  EXPECT_EQ(row.find(" 0.00 "), std::string::npos) << row;
  EXPECT_NE(row.find(" 1x "), std::string::npos) << row;
  EXPECT_NE(row.find("in turn is the same run"), std::string::npos) << row;
}

TEST(BenchE2e, TableForHumansAndBadOptions) {
  const auto dir = test::temp_dir();
  const auto table = test::run_physarum(
      {"bench", "--backend", "cpu", "--size", "32x32", "--agents", "500", "--steps", "2", "--warmup", "0"},
      dir);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("ms/step"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("32x32"), std::string::npos) << table.out;
  EXPECT_EQ(test::run_physarum({"bench", "--threads", "5000"}, dir).exit_code, 2);
  EXPECT_EQ(test::run_physarum({"bench", "--backend", "tpu"}, dir).exit_code, 2);
  EXPECT_EQ(test::run_physarum({"bench", "--sweep", "colour"}, dir).exit_code, 2);
}

// --frame: the window's frame path on the CPU backend through Mesa's EGL (llvmpipe). Sane numbers:
// frames per second that match the frame time, a split whose parts are each positive and together
// no longer than a frame (they are parts of it, measured on its own clock; slack for the timer
// query's lag of a frame and for rounding), one row per steps-per-frame asked for.
TEST(BenchE2e, FramePathRunsHeadlessAndItsSplitFitsInAFrame) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      {"bench", "--frame", "--backend", "cpu", "--threads", "1", "--size", "256x256", "--agents", "10K",
       "--warmup", "5", "--frames", "12", "--steps-per-frame", "1,3", "--json"},
      dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(r.out.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 2U) << r.out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    EXPECT_EQ(json_value(line, "mode"), "\"frame\"") << line;
    EXPECT_EQ(json_number(line, "width"), 256);
    EXPECT_EQ(json_number(line, "height"), 256);
    EXPECT_EQ(json_number(line, "agents"), 10000);
    EXPECT_EQ(json_number(line, "steps_per_frame"), i == 0 ? 1 : 3);
    EXPECT_EQ(json_number(line, "frames"), 12);
    EXPECT_EQ(json_value(line, "publish_path"), "\"host copy\"") << "the CPU backend cannot publish";
    const double fps = json_number(line, "fps");
    const double frame = json_number(line, "frame_ms");
    ASSERT_GT(fps, 0) << line;
    EXPECT_NEAR(fps * frame, 1000.0, 1.0) << line;
    const double sim = json_number(line, "sim_ms");
    const double publish = json_number(line, "publish_ms");
    const double draw = json_number(line, "draw_ms");
    EXPECT_GT(sim, 0) << line;
    EXPECT_GT(publish, 0) << line;
    EXPECT_GE(draw, 0) << line;
    EXPECT_LE(sim + publish + draw, frame * 1.25 + 0.5) << line;
  }
  EXPECT_NE(r.err.find("cpu"), std::string::npos) << "it says which backend it took: " << r.err;
}

// A size of three sides times the volume model: one JSON line naming its sides and agents; a bad
// volume size or an option of the 2D bench is refused with exit 2.
TEST(BenchE2e, AVolumeSizeTimesTheVolumeModel) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"bench", "--size", "24x20x16", "--agents", "2K", "--backend", "cpu",
                                     "--threads", "1", "--steps", "3", "--warmup", "2", "--json"},
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "width"), 24);
  EXPECT_EQ(json_number(r.out, "height"), 20);
  EXPECT_EQ(json_number(r.out, "depth"), 16);
  EXPECT_EQ(json_number(r.out, "agents"), 2000);
  EXPECT_GT(json_number(r.out, "ms_per_step"), 0) << r.out;
  // The stages of a timed step: agents and field take time; the CPU volume has no regrouping.
  EXPECT_GT(json_number(r.out, "agents_ms"), 0) << r.out;
  EXPECT_GT(json_number(r.out, "field_ms"), 0) << r.out;
  EXPECT_EQ(json_number(r.out, "sort_ms"), 0) << r.out;
  EXPECT_NE(r.err.find("24x20x16 voxels with 2K agents"), std::string::npos) << r.err;
  EXPECT_EQ(test::run_physarum({"bench", "--size", "24x20x0"}, dir).exit_code, 2);
  EXPECT_EQ(test::run_physarum({"bench", "--size", "24x20x16", "--species", "2"}, dir).exit_code, 2);
}

TEST(BenchE2e, AVolumesFrameIsTimedAt1080p) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      {"bench", "--frame", "--size", "24x20x16", "--agents", "2K", "--backend", "cpu", "--threads", "1",
       "--frames", "1", "--warmup", "1", "--steps-per-frame", "1", "--json"},
      dir, {{"EGL_PLATFORM", "surfaceless"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "depth"), 16) << r.out;
  EXPECT_EQ(json_number(r.out, "agents"), 2000) << r.out;
  EXPECT_NE(r.out.find("\"picture\":\"1920x1080\""), std::string::npos) << r.out;
  EXPECT_GT(json_number(r.out, "fps"), 0) << r.out;
  EXPECT_NE(r.out.find("\"publish_path\":\"host copy\""), std::string::npos) << r.out;
  // The draw is its three stages' GPU times (each written to 6 significant digits).
  const double stages =
      json_number(r.out, "range_ms") + json_number(r.out, "bricks_ms") + json_number(r.out, "march_ms");
  EXPECT_GT(json_number(r.out, "march_ms"), 0) << r.out;
  EXPECT_NEAR(stages, json_number(r.out, "draw_ms"), 1e-5 * std::max(1.0, stages)) << r.out;
}

TEST(BenchE2e, FrameRefusesOptionsThatDoNotApply) {
  const auto dir = test::temp_dir();
  EXPECT_EQ(test::run_physarum({"bench", "--frame", "--sweep", "size"}, dir).exit_code, 2);
  EXPECT_EQ(test::run_physarum({"bench", "--frame", "--steps", "10"}, dir).exit_code, 2);
  EXPECT_EQ(test::run_physarum({"bench", "--frame", "--steps-per-frame", "0"}, dir).exit_code, 2);
}

}  // namespace
}  // namespace physarum
