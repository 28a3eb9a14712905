// `physarum sensitivity` end to end: a sweep split into shards and merged gives the bytes of one
// run; bad specs are usage errors that write nothing; the plot is a PNG of the size asked for.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/image.hpp"
#include "system/process.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

const std::vector<std::string> kSweep = {"sensitivity",
                                         "--size",
                                         "40x32",
                                         "--agents",
                                         "600",
                                         "--steps",
                                         "40",
                                         "--every",
                                         "4",
                                         "--threads",
                                         "1",
                                         "--sweep",
                                         "model.sensor_angle_deg=20:60:3",
                                         "--repeats",
                                         "2",
                                         "--perturb",
                                         "field:5,6:1e-3"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(SensitivityCli, ShardsMergedEqualOneRunByteForByte) {
  const auto dir = test::temp_dir();
  const auto one = test::run_physarum(with(kSweep, {"--csv", "one.csv"}), dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const std::string bytes = test::read_file(dir / "one.csv");
  // 3 values x 2 repeats x 11 records, after 4 header lines.
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), '\n'), 4 + 3 * 2 * 11);
  EXPECT_NE(one.out.find("sensor_angle_deg"), std::string::npos) << one.out;

  for (const char* k : {"1/4", "2/4", "3/4", "4/4"}) {
    const auto r =
        test::run_physarum(with(kSweep, {"--shard", k, "--csv", std::string("s") + k[0] + ".csv"}), dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // In another order than written, to show the merge sorts.
  const auto m = test::run_physarum(
      {"sensitivity", "--merge", "s3.csv", "s1.csv", "s4.csv", "s2.csv", "--out", "all.csv"}, dir);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(test::read_file(dir / "all.csv"), bytes);
  EXPECT_EQ(m.out.substr(0, m.out.find("wrote")), one.out.substr(0, one.out.find("wrote")))
      << "the merged summary is the one run's";

  // A shard missing, or one twice: refused, nothing written.
  const auto missing =
      test::run_physarum({"sensitivity", "--merge", "s1.csv", "s2.csv", "--out", "bad.csv"}, dir);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("a shard missing"), std::string::npos) << missing.err;
  const auto twice =
      test::run_physarum({"sensitivity", "--merge", "s1.csv", "s1.csv", "--out", "bad.csv"}, dir);
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("'s1.csv' is given twice"), std::string::npos) << twice.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.csv"));
}

TEST(SensitivityCli, BadSpecsAreUsageErrorsThatWriteNothing) {
  const auto dir = test::temp_dir();
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--perturb", "agent:0:spin:1"}, "not theta, x or y"},
      {{"--perturb", "agent:600:theta:1e-4"}, "agent 600 does not exist"},
      {{"--perturb", "field:40,0:1e-3"}, "outside the 40x32 field"},
      {{"--perturb", "model.colour:1"}, "not a numeric parameter"},
      {{"--sweep", "model.decay=0:1"}, "expected KEY=FROM:TO:COUNT"},
      {{"--sweep", "model.decay=0:5:3"}, "model.decay"},  // 2.5 and 5 are out of range
      {{"--shard", "3/2"}, "1 <= K <= N"},
      {{"--average", "--sweep", "model.decay=0:1:2"}, "choose one"},
      {{"--json", "./x.csv"}, "--json ./x.csv: the same file as --csv x.csv"},
      {{"--plot", "/dev/null"}, "a device"},
      {{"--fit-below", "nan"}, "'nan' is not a finite number"},
      {{"--average", "--eps", "inf"}, "'inf' is not a finite number"},
  };
  for (const auto& [args, message] : bad) {
    const auto r = test::run_physarum(
        with({"sensitivity", "--size", "40x32", "--agents", "600", "--steps", "8", "--csv", "x.csv"}, args),
        dir);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_NE(r.err.find(message), std::string::npos) << args[1] << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "x.csv")) << args[1];
  }
}

TEST(SensitivityCli, AverageRanksEveryModelParameter) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"sensitivity", "--size", "40x32", "--agents", "600", "--steps", "30",
                                     "--every", "10", "--threads", "1", "--average", "--json", "avg.json"},
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key :
       {"model.sensor_angle_deg", "model.rotation_angle_deg", "model.sensor_distance", "model.step_size",
        "model.deposit", "model.decay", "model.diffuse", "model.jitter"}) {
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing:\n" << r.out;
  }
  EXPECT_NE(r.out.find("average sensitivity (sum)"), std::string::npos) << r.out;
  EXPECT_NE(test::read_file(dir / "avg.json").find("\"average_sensitivity\":"), std::string::npos);
}

TEST(SensitivityCli, PlotIsAPngOfTheAskedSize) {
  if (!app::find_on_path("gnuplot"))
    GTEST_SKIP() << "gnuplot is not installed (sudo apt-get install gnuplot-nox)";
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(with(kSweep, {"--plot", "p.png", "--plot-size", "640x480"}), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const LumaImage img = load_colour(dir / "p.png");
  EXPECT_EQ(img.width, 640);
  EXPECT_EQ(img.height, 480);
  // Something is drawn: not one flat colour.
  float lo = 1, hi = 0;
  for (float v : img.luma) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GT(hi - lo, 0.5f);
}

}  // namespace
}  // namespace physarum
