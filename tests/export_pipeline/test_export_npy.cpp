// `physarum export --out FILE.npy` writes the field `physarum run` grows from the same options,
// keyframes included, byte for byte: the exporter and `run` must not drift apart.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

std::string preset_file(const char* name) {
  return (fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / name).string();
}

// The first keyframe of condense-shatter is at step 200; 260 steps run into its first segment.
const std::vector<std::string> kKeyframed = {"--preset",  preset_file("condense-shatter.toml"),
                                             "--size",    "64x48",
                                             "--agents",  "3000",
                                             "--seed",    "5",
                                             "--backend", "cpu",
                                             "--steps",   "260"};

std::vector<std::string> command(const char* name, const std::vector<std::string>& common,
                                 const std::vector<std::string>& more) {
  std::vector<std::string> a{name};
  a.insert(a.end(), common.begin(), common.end());
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(ExportNpyE2e, KeyframedPresetExportsTheFieldRunGrows) {
  const fs::path dir = temp_dir();
  const ProcessResult run = run_physarum(command("run", kKeyframed, {"--out", "run.npy"}), dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ProcessResult exp = run_physarum(command("export", kKeyframed, {"--out", "export.npy"}), dir);
  ASSERT_EQ(exp.exit_code, 0) << exp.err;
  const std::string grown = read_file(dir / "run.npy");
  ASSERT_FALSE(grown.empty());
  EXPECT_TRUE(read_file(dir / "export.npy") == grown) << "export's .npy differs from run's";

  // The same steps without the keyframes give another field, so the comparison above can fail.
  run::Recipe o;
  o.preset = preset_file("condense-shatter.toml");
  o.size = "64x48";
  o.agents = "3000";
  o.seed = 5;
  o.backend = "cpu";
  run::Run sim(o);
  sim.backend().step(260);  // the backend alone: no keyframes
  std::vector<float> plain;
  sim.backend().read_field(plain);
  EXPECT_NE(read_npy(dir / "run.npy").data, plain);
}

TEST(ExportNpyE2e, SeveralSpeciesGiveRunsPlanesAndChannelPicksOne) {
  const fs::path dir = temp_dir();
  const std::vector<std::string> braid = {"--preset",  preset_file("braid.toml"),
                                          "--size",    "48x32",
                                          "--agents",  "2000",
                                          "--seed",    "3",
                                          "--backend", "cpu",
                                          "--steps",   "40"};
  ASSERT_EQ(run_physarum(command("run", braid, {"--out", "run.npy"}), dir).exit_code, 0);
  const ProcessResult all = run_physarum(command("export", braid, {"--out", "all.npy"}), dir);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_TRUE(read_file(dir / "all.npy") == read_file(dir / "run.npy"));

  const NpyArray planes = read_npy_planes(dir / "run.npy");
  ASSERT_GE(planes.planes, 2);
  const ProcessResult one = run_physarum(
      command("export", braid, {"--channel", "1", "--format", "npy", "--out", "one.field"}), dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const NpyArray picked = read_npy_planes(dir / "one.field");
  EXPECT_EQ(picked.planes, 1);
  EXPECT_EQ(picked.width, 48);
  EXPECT_EQ(picked.height, 32);
  const size_t n = size_t{48} * 32;
  const std::vector<float> second(planes.data.begin() + static_cast<std::ptrdiff_t>(n),
                                  planes.data.begin() + static_cast<std::ptrdiff_t>(2 * n));
  EXPECT_EQ(picked.data, second);
}

TEST(ExportNpyE2e, ReadFieldIsWrittenBackUnchanged) {
  const fs::path dir = temp_dir();
  const std::vector<float> field = {0.0f, 1.5f, 2.25f, 3.0f, 4.0f, 5.0f};
  write_npy(dir / "in.npy", field.data(), 2, 3);
  const ProcessResult r = run_physarum({"export", "--field", "in.npy", "--out", "out.npy"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_file(dir / "out.npy") == read_file(dir / "in.npy"));
}

// The plan is checked whole before the field is grown: a run that would take hours is refused at
// once for its second output, or for a channel the preset does not have, and writes nothing.
TEST(ExportNpyE2e, ABadOutputOrChannelIsRefusedBeforeTheFieldIsGrown) {
  const fs::path dir = temp_dir();
  const std::vector<std::string> huge = {"--size",  "4096x4096", "--agents",  "16M",
                                         "--steps", "100000000", "--backend", "cpu"};
  const ProcessResult r =
      run_physarum(command("export", huge, {"--out", "field.npy", "--out", "missing/cave.png"}), dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(
      r.err.find(
          "--out missing/cave.png: cannot write 'missing/cave.png': the folder 'missing' does not exist"),
      std::string::npos)
      << r.err;
  const ProcessResult c =
      run_physarum(command("export", huge,
                           {"--preset", preset_file("braid.toml"), "--channel", "7", "--out", "field.npy"}),
                   dir);
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("--channel 7: the run has "), std::string::npos) << c.err;
  EXPECT_FALSE(fs::exists(dir / "field.npy"));
}

}  // namespace
}  // namespace physarum::test
