// Outputs whose size follows from the options are estimated before the run and refused above
// --output-budget: the sizes it reads, the sum and the message, the estimates against files the
// program really writes, and refusals that come before any simulation step.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "export/output_budget.hpp"
#include "export_pipeline/export_writers.hpp"
#include "sim/byte_size.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "test_support.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

TEST(OutputBudget, SizesAreReadWithTheirUnits) {
  EXPECT_EQ(parse_byte_size("4GB"), 4'000'000'000u);
  EXPECT_EQ(parse_byte_size("512MB"), 512'000'000u);
  EXPECT_EQ(parse_byte_size("1.5gb"), 1'500'000'000u);
  EXPECT_EQ(parse_byte_size("64KiB"), 65'536u);
  EXPECT_EQ(parse_byte_size("2GiB"), 2u * 1024 * 1024 * 1024);
  EXPECT_EQ(parse_byte_size("1TB"), 1'000'000'000'000u);
  EXPECT_EQ(parse_byte_size("100"), 100u);
  EXPECT_EQ(parse_byte_size("100B"), 100u);
  EXPECT_EQ(parse_byte_size(kDefaultOutputBudget), 2'000'000'000u);
}

TEST(OutputBudget, AnythingElseIsRefusedNamingTheValue) {
  for (const std::string bad : {"", "GB", "4XB", "1e9", "0x10", "-1GB", "+4GB", " 4GB", "4 GB", "4GB ",
                                ".5GB", "5.GB", "1..5GB", "1.2.3MB", "nan", "inf", "4G"}) {
    const std::string e = test::error_of([&] { (void)parse_byte_size(bad); });
    EXPECT_NE(e.find("'" + bad + "' is not a size"), std::string::npos) << bad << ": " << e;
  }
  EXPECT_NE(test::error_of([] { (void)parse_byte_size("0GB"); }).find("'0GB' is less than one byte"),
            std::string::npos);
  EXPECT_NE(test::error_of([] { (void)parse_byte_size("0.5"); }).find("less than one byte"),
            std::string::npos);
  // Far beyond what a uint64_t holds: refused, never wrapped.
  for (const std::string& big :
       std::vector<std::string>{"1000001TB", "99999999999999999999999999GB", "1" + std::string(400, '0')}) {
    EXPECT_NE(test::error_of([&] { (void)parse_byte_size(big); }).find("is more than"), std::string::npos)
        << big;
  }
}

TEST(OutputBudget, TheSumsAreComparedWithTheBudgetAndTheMessageSaysWhatAndHow) {
  OutputBudget b;
  b.add("--out a.png", "a 100x100 image", {3'000'000, 1'000'000});
  b.add("--out b.svg", "300 contour levels", {600'000'000, 900'000'000});
  b.add("the grid", "a 10x10 grid", {0, 200'000'000});
  EXPECT_EQ(b.total().disk, 603'000'000u);
  EXPECT_EQ(b.total().memory, 1'101'000'000u);
  EXPECT_NO_THROW(b.check("1.101GB"));
  EXPECT_NO_THROW(b.check("2GB"));
  std::string message;
  try {
    b.check("1GB");
  } catch (const UsageError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("603.0 MB on disk and 1.10 GB of memory"), std::string::npos) << message;
  EXPECT_NE(message.find("above the output budget of 1.00 GB (--output-budget 1GB)"), std::string::npos);
  // The largest first, with the options that make it large.
  EXPECT_LT(message.find("--out b.svg (300 contour levels)"), message.find("the grid"));
  EXPECT_NE(message.find("raise the budget with --output-budget 2GB"), std::string::npos) << message;
  // Disk alone over the budget is enough.
  OutputBudget disk;
  disk.add("--out x.r16", "a grid", {5'000'001, 0});
  EXPECT_NO_THROW(disk.check("5000001"));
  EXPECT_THROW(disk.check("5MB"), UsageError);
}

// Noise does not compress: the PNG writers' files come closest to the bound there.
TEST(OutputBudget, PngBoundHoldsForIncompressibleImages) {
  const auto dir = test::temp_dir();
  std::mt19937 rng(5);
  for (const auto& [w, h] : {std::pair{1, 1}, std::pair{97, 31}, std::pair{300, 200}}) {
    std::vector<uint8_t> rgba(static_cast<size_t>(w) * h * 4);
    for (auto& v : rgba) v = static_cast<uint8_t>(rng());
    write_png_rgba(dir / "rgba.png", rgba.data(), w, h);
    const uint64_t raw = static_cast<uint64_t>(h) * (1 + 4 * static_cast<uint64_t>(w));
    const uint64_t rgba_size = fs::file_size(dir / "rgba.png");
    EXPECT_GE(png_bytes_bound(w, h, 4, 1), rgba_size) << w << "x" << h;
    EXPECT_LE(png_bytes_bound(w, h, 4, 1), raw * 11 / 10 + 66000) << w << "x" << h;

    std::vector<uint16_t> grey(static_cast<size_t>(w) * h);
    for (auto& v : grey) v = static_cast<uint16_t>(rng());
    write_grey_png(dir / "grey.png", grey, w, h, 16, {{"Comment", std::string(2000, 'c')}});
    EXPECT_GE(png_bytes_bound(w, h, 1, 2), fs::file_size(dir / "grey.png")) << w << "x" << h;
  }
}

const std::vector<std::pair<std::string, std::string>> kEgl = {{"EGL_PLATFORM", "surfaceless"}};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Steps enough to take minutes: a refusal that came after the run would show in the time.
const std::vector<std::string> kLongRender = {"render", "--backend", "cpu",     "--agents",
                                              "200K",   "--steps",   "1000000", "-q"};

TEST(OutputBudgetCli, SixteenTimesALargeFieldIsRefusedBeforeTheRun) {
  const auto dir = test::temp_dir();
  auto args = kLongRender;
  for (const char* a : {"--size", "1024x1024", "--resolution", "16x", "--out", "big.png", "--out", "f.npy"})
    args.emplace_back(a);
  const auto start = std::chrono::steady_clock::now();
  const auto r = test::run_physarum(args, dir, kEgl);
  EXPECT_LT(seconds_since(start), 20.0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--out big.png (a 16384x16384 image from --resolution 16x)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("above the output budget of 2.00 GB (--output-budget 2GB)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("raise the budget with --output-budget"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "big.png"));
  EXPECT_FALSE(fs::exists(dir / "f.npy"));
}

// A 128x96 still: its image and PNG are estimated at about 210 KB (two 48 KB RGBA copies and the
// PNG's bound), above 150KB and below 1MB.
TEST(OutputBudgetCli, AStillAboveASmallBudgetIsRefusedAndWrittenWhenItIsRaised) {
  const auto dir = test::temp_dir();
  const std::vector<std::string> still = {"render",       "--backend", "cpu",     "--agents", "2K",
                                          "--size",       "32x24",     "--steps", "5",        "-q",
                                          "--resolution", "4x",        "--out",   "s.png"};
  auto small = still;
  small.insert(small.end(), {"--output-budget", "150KB"});
  const auto refused = test::run_physarum(small, dir, kEgl);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("--out s.png (a 128x96 image from --resolution 4x)"), std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(dir / "s.png"));
  auto raised = still;
  raised.insert(raised.end(), {"--output-budget", "1MB"});
  const auto r = test::run_physarum(raised, dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "s.png"));
  const auto bad =
      test::run_physarum({"render", "--size", "32x24", "--out", "s.png", "--output-budget", "4XB"}, dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("'4XB' is not a size"), std::string::npos) << bad.err;
}

const std::vector<std::string> kExport = {"export", "--backend", "cpu", "--seed", "3"};

std::vector<std::string> export_args(std::vector<std::string> more) {
  std::vector<std::string> a = kExport;
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(OutputBudgetCli, HundredsOfContourLevelsAtZeroToleranceAreRefusedBeforeTheRun) {
  const auto dir = test::temp_dir();
  const auto start = std::chrono::steady_clock::now();
  const auto r =
      test::run_physarum(export_args({"--size", "512x512", "--agents", "200K", "--steps", "1000000",
                                      "--contours", "256", "--tolerance", "0", "--out", "c.svg"}),
                         dir);
  EXPECT_LT(seconds_since(start), 20.0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--out c.svg (256 contour level(s) (--contours) at --tolerance 0 on a 512x512 grid"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "c.svg"));
}

// The estimates against the files the program writes from a speckled field (a few steps of
// many agents: contours close around every dot) and from noise (every edge crosses a third of
// the levels on average). Text formats are spelled cell by cell, so their bounds are tight; an
// SVG's bound assumes every grid edge is crossed at every level, which noise comes near and a
// grown field within a small factor of.
struct Written {
  const char* writer;
  const char* file;
  double within;  // the estimate is at most this many times the file
};

void expect_estimates(const fs::path& dir, Size field, const std::vector<Written>& cases) {
  ExportOptions o;
  o.contours = 200;
  o.tolerance_mm = 0;
  OutputShape s{.options = &o};
  s.field = s.grid = field;
  s.paper_mm = 297;
  for (const Written& c : cases) {
    const uint64_t estimate = output_format_named(c.writer, kPlaneExportOffer)->estimate(s).cost.disk;
    uint64_t actual = fs::file_size(dir / c.file);
    if (std::string(c.writer) == "tiled") actual += fs::file_size(dir / "t_tiles.png");
    const double ratio = static_cast<double>(estimate) / static_cast<double>(actual);
    EXPECT_GE(estimate, actual) << c.file;
    EXPECT_LE(ratio, c.within) << c.file;
    std::printf("%s: estimate %llu, written %llu (%.2fx)\n", c.file,
                static_cast<unsigned long long>(estimate), static_cast<unsigned long long>(actual), ratio);
  }
}

const std::vector<std::string> kSvg = {"--contours",   "200", "--tolerance", "0",
                                       "--min-length", "0",   "--out",       "c.svg"};

TEST(OutputBudgetCli, EstimatesAreAtLeastTheFilesWrittenAndNotFarAbove) {
  const auto dir = test::temp_dir();
  std::vector<std::string> a = export_args({"--size", "96x80", "--agents", "8000", "--steps", "3"});
  a.insert(a.end(), kSvg.begin(), kSvg.end());
  a.insert(a.end(), {"--output-budget", "50MB"});  // the SVG alone is estimated at 83 MB
  const auto refused = test::run_physarum(a, dir);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "c.svg"));
  a.back() = "1GB";
  for (const char* out : {"m.png", "h.r16", "t.tmj", "g.csv", "f.npy"}) a.insert(a.end(), {"--out", out});
  const auto r = test::run_physarum(a, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The budget shapes no output: it stays out of the recipe the files carry.
  EXPECT_EQ(test::read_file(dir / "c.svg").find("budget"), std::string::npos);
  // A cave mask compresses far below its bound: the bound only has to hold.
  expect_estimates(dir, {96, 80},
                   {{"svg", "c.svg", 20},
                    {"r16", "h.r16", 1.0},
                    {"csv", "g.csv", 1.0},
                    {"tiled", "t.tmj", 10},
                    {"npy", "f.npy", 1.01},
                    {"mask", "m.png", 1e6}});

  std::mt19937 rng(9);
  std::vector<float> noise(64 * 48);
  for (float& v : noise) v = std::uniform_real_distribution<float>(0, 1)(rng);
  write_npy(dir / "noise.npy", noise.data(), 48, 64);
  std::vector<std::string> b = {"export", "--field", "noise.npy", "--output-budget", "1GB"};
  b.insert(b.end(), kSvg.begin(), kSvg.end());
  ASSERT_EQ(test::run_physarum(b, dir).exit_code, 0);
  // The levels follow the display mapping (log by default), denser where noise is sparse: a third
  // of the levels is not reached, so the file is smaller than 2/3 of the bound.
  expect_estimates(dir, {64, 48}, {{"svg", "c.svg", 12}});
}

}  // namespace
}  // namespace physarum::app
