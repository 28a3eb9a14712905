// The command line end to end: the real executable (PHYSARUM_EXE) run without a shell. Results are
// checked against the library driven directly, and bad input against exit codes and messages.
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/image.hpp"
#include "sim/npy.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using test::read_file;
using test::run_physarum;
using test::temp_dir;
using test::write_file;

TEST(Cli, RunWritesTheFieldAsNpy) {
  const auto dir = temp_dir();
  const auto r = run_physarum(
      {"run", "--steps", "20", "--size", "64x48", "--agents", "1000", "--backend", "cpu", "--out", "x.npy"},
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NpyArray a = read_npy(dir / "x.npy");
  EXPECT_EQ(a.height, 48);
  EXPECT_EQ(a.width, 64);
  // One summary line naming the backend and the rates.
  EXPECT_NE(r.out.find("cpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("20 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("agent-steps/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sum"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;

  // The same field as the library computes for the same preset.
  Preset p;
  p.run.size = {64, 48};
  p.run.agents = 1000;
  auto b = create_backend(BackendKind::Cpu, config_from(p));
  b->step(20);
  std::vector<float> field;
  b->read_field(field);
  EXPECT_EQ(a.data, field);
}

TEST(Cli, RunIsDeterministicAcrossRunsAndThreadCounts) {
  const auto dir = temp_dir();
  const std::vector<std::string> base{"run", "--steps", "30", "--size",    "96x64", "--agents",
                                      "5K",  "--seed",  "9",  "--backend", "cpu"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  ASSERT_EQ(run_physarum(with({"--threads", "1", "--out", "a.npy"}), dir).exit_code, 0);
  ASSERT_EQ(run_physarum(with({"--threads", "1", "--out", "b.npy"}), dir).exit_code, 0);
  ASSERT_EQ(run_physarum(with({"--threads", "2", "--out", "c.npy"}), dir).exit_code, 0);
  ASSERT_EQ(run_physarum(with({"--threads", "2", "--seed", "10", "--out", "d.npy"}), dir).exit_code, 0);
  const std::string a = read_file(dir / "a.npy");
  EXPECT_EQ(a, read_file(dir / "b.npy"));
  EXPECT_EQ(a, read_file(dir / "c.npy"));
  EXPECT_NE(a, read_file(dir / "d.npy"));  // the later --seed wins, and seeds matter
}

TEST(Cli, SetOverridesReachTheModel) {
  // With decay 0 the field gains agents * deposit per step (diffusion conserves mass).
  const auto dir = temp_dir();
  const auto r = run_physarum({"run", "--steps", "10", "--size", "50x40", "--agents", "2000", "--set",
                               "model.decay=0", "--set", "model.deposit=0.5", "--out", "f.npy"},
                              dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NpyArray a = read_npy(dir / "f.npy");
  double sum = 0;
  for (float v : a.data) sum += v;
  EXPECT_NEAR(sum, 10 * 2000 * 0.5, 10 * 2000 * 0.5 * 1e-4);
}

TEST(Cli, PresetFileThenCommandLineOverrides) {
  const auto dir = temp_dir();
  write_file(dir / "p.toml", "[run]\nsize = \"30x20\"\nagents = 500\n[model]\ndecay = 0\n");
  auto r = run_physarum({"run", "--steps", "4", "--preset", "p.toml", "--out", "a.npy"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  NpyArray a = read_npy(dir / "a.npy");
  EXPECT_EQ(a.height, 20);
  EXPECT_EQ(a.width, 30);
  double sum = 0;
  for (float v : a.data) sum += v;
  EXPECT_NEAR(sum, 4 * 500 * 1.0, 4 * 500 * 1e-4);  // decay = 0 came from the preset

  r = run_physarum({"run", "--steps", "1", "--preset", "p.toml", "--size", "16x8", "--out", "b.npy"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  a = read_npy(dir / "b.npy");
  EXPECT_EQ(a.height, 8);
  EXPECT_EQ(a.width, 16);
}

TEST(Cli, ImageSeedsTheField) {
  // With no deposit, decay or diffusion, the field after a step is the seed image as image_to_field
  // makes it, times spawn.field_strength.
  const auto dir = temp_dir();
  const int w = 8, h = 4;
  std::vector<unsigned char> px(static_cast<size_t>(w) * h);
  for (int i = 0; i < w * h; ++i) px[i] = static_cast<unsigned char>(i * 8);
  ASSERT_TRUE(stbi_write_png((dir / "seed.png").c_str(), w, h, 1, px.data(), w));

  const auto r = run_physarum({"run", "--steps", "1", "--size", "32x16", "--agents", "1000", "--image",
                               "seed.png", "--set", "model.deposit=0", "--set", "model.decay=0", "--set",
                               "model.diffuse=0", "--set", "spawn.field_strength=2.5", "--out", "f.npy"},
                              dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NpyArray a = read_npy(dir / "f.npy");
  const auto expected = image_to_field(load_luma(dir / "seed.png"), {32, 16}, 2.5f);
  ASSERT_EQ(a.data.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) ASSERT_FLOAT_EQ(a.data[i], expected[i]) << i;
  float hi = 0;
  for (float v : a.data) hi = std::max(hi, v);
  EXPECT_GT(hi, 1.0f);  // the image really arrived (brightest pixel 248/255 * 2.5)
}

struct UsageCase {
  std::vector<std::string> args;
  std::string named;  // must appear in stderr
};

TEST(Cli, BadArgumentsExitTwoNamingTheValue) {
  const auto dir = temp_dir();
  const std::vector<std::string> ok{"run", "--steps", "2", "--size", "16x16", "--agents", "100"};
  const UsageCase cases[] = {
      {{"--size", "0x5", "--out", "o.npy"}, "0x5"},
      {{"--size", "12", "--out", "o.npy"}, "12"},
      {{"--agents", "-3", "--out", "o.npy"}, "-3"},
      {{"--agents", "lots", "--out", "o.npy"}, "lots"},
      {{"--backend", "foo", "--out", "o.npy"}, "foo"},
      {{"--set", "model.decay=2", "--out", "o.npy"}, "model.decay"},
      {{"--set", "model.nope=1", "--out", "o.npy"}, "model.nope"},
      {{"--set", "model.decay=abc", "--out", "o.npy"}, "abc"},
      {{"--seed", "-1", "--out", "o.npy"}, "-1"},
      {{"--threads", "x", "--out", "o.npy"}, "x"},
      {{"--threads", "1025", "--out", "o.npy"}, "1025"},  // beyond kMaxThreads, as the backend says
      {{"--steps", "0", "--out", "o.npy"}, "--steps"},
      {{"--bogus", "--out", "o.npy"}, "--bogus"},
      {{"--preset", "no-such-preset", "--out", "o.npy"}, "no-such-preset"},
      {{"--size", "99999999999x5", "--out", "o.npy"}, "out of range"},
      {{}, "--out"},
  };
  for (const UsageCase& c : cases) {
    std::vector<std::string> args = ok;
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_physarum(args, dir);
    EXPECT_EQ(r.exit_code, 2) << testing::PrintToString(c.args) << ": " << r.err;
    EXPECT_NE(r.err.find(c.named), std::string::npos) << testing::PrintToString(c.args) << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "o.npy")) << testing::PrintToString(c.args);
  }
  // --steps missing altogether.
  const auto r = run_physarum({"run", "--out", "o.npy"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--steps"), std::string::npos) << r.err;
  // A video's stop limit out of range, before any work.
  const auto v = run_physarum({"render", "--steps", "1", "--size", "16x16", "--agents", "100",
                               "--video-stop-limit", "0", "--out", "o.mp4"},
                              dir);
  EXPECT_EQ(v.exit_code, 2) << v.err;
  EXPECT_NE(v.err.find("--video-stop-limit: Value 0"), std::string::npos) << v.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "o.mp4"));
}

TEST(Cli, BadFilesExitOneNamingTheFile) {
  const auto dir = temp_dir();
  write_file(dir / "corrupt.png", std::string("\x89PNG\r\n\x1a\n", 8) + "garbage");
  write_file(dir / "bad.toml", "[model]\n\ndecay = 7\n");
  const UsageCase cases[] = {
      {{"--preset", "missing.toml"}, "missing.toml"},
      {{"--preset", "bad.toml"}, "bad.toml:3"},
      {{"--image", "corrupt.png"}, "corrupt.png"},
      {{"--image", "missing.png"}, "missing.png"},
  };
  for (const UsageCase& c : cases) {
    std::vector<std::string> args{"run",      "--steps", "2",     "--size", "16x16",
                                  "--agents", "100",     "--out", "o.npy"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_physarum(args, dir);
    EXPECT_EQ(r.exit_code, 1) << testing::PrintToString(c.args) << ": " << r.err;
    EXPECT_NE(r.err.find(c.named), std::string::npos) << testing::PrintToString(c.args) << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "o.npy")) << testing::PrintToString(c.args);
  }
  const auto r = run_physarum(
      {"run", "--steps", "1", "--size", "8x8", "--agents", "10", "--out", "no/such/dir/o.npy"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // an output that cannot be written is a usage error, found first
  EXPECT_NE(r.err.find("no/such/dir"), std::string::npos) << r.err;
}

// CLI11 read integers with base 0: "--steps 010" ran 8 steps (octal) and "0x10" ran 16. Decimal
// only: 010 is ten steps, the same field as --steps 10; hex, exponents and fractions are refused.
TEST(Cli, IntegerOptionsAreDecimal) {
  const auto dir = temp_dir();
  const std::vector<std::string> common{"--size", "32x16", "--agents", "500", "--seed", "7"};
  const auto run_steps = [&](const std::string& steps, const std::string& out) {
    std::vector<std::string> args{"run", "--steps", steps, "--out", out};
    args.insert(args.end(), common.begin(), common.end());
    return run_physarum(args, dir);
  };
  for (const auto& [steps, out] : {std::pair{"010", "a.npy"}, {"10", "b.npy"}, {"8", "c.npy"}}) {
    const auto r = run_steps(steps, out);
    ASSERT_EQ(r.exit_code, 0) << steps << ": " << r.err;
  }
  const auto a = read_npy(dir / "a.npy"), b = read_npy(dir / "b.npy"), c = read_npy(dir / "c.npy");
  EXPECT_EQ(a.data, b.data);  // 010 ran ten steps
  EXPECT_NE(a.data, c.data);  // not eight
  for (const char* bad : {"0x10", "1e1", "8.5", "+8", " 8"}) {
    const auto r = run_steps(bad, "bad.npy");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("decimal"), std::string::npos) << bad << ": " << r.err;
  }
  const auto frac = run_physarum({"run", "--steps", "1", "--agents", "1.5", "--out", "f.npy"}, dir);
  EXPECT_EQ(frac.exit_code, 2) << frac.err;
  EXPECT_NE(frac.err.find("whole number"), std::string::npos) << frac.err;
}

// The documented precedence: preset, then each --set in order, then --size/--agents/--seed, which
// win over --set run.size/run.agents/run.seed wherever they stand on the line.
TEST(Cli, DedicatedOptionsWinOverSet) {
  const auto dir = temp_dir();
  for (const auto& args : {std::vector<std::string>{"run", "--steps", "1", "--set", "run.size=64x48",
                                                    "--size", "32x16", "--out", "p.npy"},
                           std::vector<std::string>{"run", "--steps", "1", "--size", "32x16", "--set",
                                                    "run.size=64x48", "--out", "p.npy"}}) {
    const auto r = run_physarum(args, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const NpyArray a = read_npy(dir / "p.npy");
    EXPECT_EQ(a.width, 32) << testing::PrintToString(args);
    EXPECT_EQ(a.height, 16) << testing::PrintToString(args);
  }
  const auto help = run_physarum({"run", "--help"}, dir);
  EXPECT_NE(help.out.find("win over run.size"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace physarum
