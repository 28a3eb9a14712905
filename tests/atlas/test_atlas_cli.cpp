// `physarum atlas` end to end: a 2 x 2 atlas on the CPU against each world run alone with its two
// values as --set (its field bit for bit, its statistics computed here in double, its tile where
// the axes put it, y upward), and bad keys, ranges or paths refused with nothing written. With a
// third key (--t), a 2 x 2 x 3 atlas as a video: its frame count as ffprobe reads it, its first
// frame against the still of the same grid at the third key's first value, its stack and CSV.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "atlas/mosaic.hpp"
#include "png_image.hpp"
#include "sim/npy.hpp"
#include "system/process.hpp"
#include "test_support.hpp"
#include "video_support.hpp"

namespace physarum {
namespace {

constexpr int kW = 48, kH = 27;
const std::vector<std::string> kWorld = {"--preset", "jones-2010", "--size",  "48x27", "--agents",  "700",
                                         "--seed",   "7",          "--steps", "40",    "--backend", "cpu"};
const char* kX = "model.sensor_angle_deg=20:70:2";
const char* kY = "model.rotation_angle_deg=15:60:2";
const double kXs[] = {20, 70};
const double kYs[] = {15, 60};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// The (ny, nx, H, W) float32 stack the atlas wrote: its shape from the header, its values after it.
std::vector<float> read_stack(const std::filesystem::path& file, std::string* header) {
  const std::string bytes = test::read_file(file);
  const size_t len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  *header = bytes.substr(10, len);
  std::vector<float> v((bytes.size() - 10 - len) / 4);
  std::memcpy(v.data(), bytes.data() + 10 + len, v.size() * 4);
  return v;
}

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(test::read_file(file));
  for (std::string line; std::getline(in, line);) {
    rows.emplace_back();
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, ',');) rows.back().push_back(c);
  }
  return rows;
}

TEST(AtlasCli, TwoByTwoMatchesEachWorldRunAlone) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(with(with({"atlas"}, kWorld), {"--x", kX, "--y", kY, "--out", "a.png",
                                                                   "--csv", "a.csv", "--npy", "a.npy"}),
                                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("4 worlds of 48x27 with 700 agents, 40 steps: about"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("worlds/s"), std::string::npos) << r.out;

  std::string header;
  const std::vector<float> stack = read_stack(dir / "a.npy", &header);
  EXPECT_NE(header.find("'shape': (2, 2, 27, 48)"), std::string::npos) << header;
  ASSERT_EQ(stack.size(), size_t{4} * kW * kH);
  const auto rows = read_csv(dir / "a.csv");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0][2], "model.sensor_angle_deg");
  const test::RgbaImage atlas = test::load_rgba_png(dir / "a.png");
  const bool framed = app::find_on_path("gnuplot").has_value();
  const app::atlas::MosaicLayout l =
      framed ? app::atlas::layout_for(2, 2, kW, kH) : app::atlas::MosaicLayout{2, 2, kW, kH, 0, 0, 0, 0};
  ASSERT_EQ(atlas.w, l.canvas_width());
  ASSERT_EQ(atlas.h, l.canvas_height());

  for (int iy = 0; iy < 2; ++iy) {
    for (int ix = 0; ix < 2; ++ix) {
      const std::string sets[] = {"model.sensor_angle_deg=" + std::to_string(static_cast<int>(kXs[ix])),
                                  "model.rotation_angle_deg=" + std::to_string(static_cast<int>(kYs[iy]))};
      const auto one = test::run_physarum(
          with({"render"},
               with(kWorld, {"--set", sets[0], "--set", sets[1], "--out", "one.npy", "--out", "one.png"})),
          dir);
      ASSERT_EQ(one.exit_code, 0) << one.err;
      const NpyArray f = read_npy(dir / "one.npy");
      const size_t at = static_cast<size_t>(iy * 2 + ix) * kW * kH;
      EXPECT_EQ(std::memcmp(f.data.data(), stack.data() + at, f.data.size() * 4), 0) << ix << "," << iy;

      double sum = 0, sq = 0;
      for (float v : f.data) sum += v;
      const double mean = sum / static_cast<double>(f.data.size());
      for (float v : f.data) sq += (v - mean) * (v - mean);
      const auto& row = rows[static_cast<size_t>(1 + iy * 2 + ix)];
      EXPECT_EQ(row[0], std::to_string(ix));
      EXPECT_EQ(row[1], std::to_string(iy));
      EXPECT_EQ(std::stod(row[2]), kXs[ix]);
      EXPECT_EQ(std::stod(row[3]), kYs[iy]);
      EXPECT_DOUBLE_EQ(std::stod(row[4]), mean);
      EXPECT_DOUBLE_EQ(std::stod(row[5]), sq / static_cast<double>(f.data.size()));

      // The tile is the world's still, pixel for pixel, where the layout (and so the axes) puts it.
      const test::RgbaImage still = test::load_rgba_png(dir / "one.png");
      ASSERT_EQ(still.w, kW);
      int differing = 0;
      for (int y = 0; y < kH; ++y)
        differing += std::memcmp(still.at(0, y), atlas.at(l.tile_x(ix), l.tile_y(iy) + y), kW * 4) != 0;
      EXPECT_EQ(differing, 0) << "tile " << ix << "," << iy;
    }
  }
  // The four worlds differ, so a tile in the wrong place would show.
  EXPECT_NE(std::memcmp(stack.data(), stack.data() + 2 * kW * kH, kW * kH * 4), 0);
  if (framed) {
    // gnuplot's tick for each x value sits below the frame at its tile's centre (between the two
    // middle pixels of an even tile, drawn on one of them): a dark mark there, white paper a
    // quarter tile to the side.
    const int below = l.tile_y(0) + kH + 3;
    for (int ix = 0; ix < 2; ++ix) {
      const int centre = l.tile_x(ix) + kW / 2;
      EXPECT_LT(std::min(atlas.at(centre - 1, below)[0], atlas.at(centre, below)[0]), 128) << ix;
      EXPECT_GT(atlas.at(l.tile_x(ix) + kW / 4, below)[0], 200) << ix;
    }
  }
}

TEST(AtlasCli, BadKeysRangesAndPathsWriteNothing) {
  const auto dir = test::temp_dir();
  const struct {
    std::vector<std::string> args;
    const char* named;
  } bad[] = {
      {{"--x", "model.nope=1:2:2", "--y", kY, "--out", "a.png"}, "model.nope"},
      {{"--x", "model.sensor_angle_deg=5:120:65", "--y", kY, "--out", "a.png"}, "'65'"},
      {{"--x", kX, "--y", "model.decay=0.5:3:2", "--out", "a.png"}, "model.decay=3"},
      {{"--x", kX, "--y", "model.decay=0:1:2:log", "--out", "a.png"}, "log spacing"},
      {{"--x", kX, "--y", kY, "--out", "no-such-folder/a.png", "--csv", "a.csv"}, "no-such-folder"},
      {{"--x", kX, "--y", kY, "--out", "a.jpg"}, "a.jpg"},
      // 4 fields of 48x27 floats are 20 KB: over a budget of 16 KB.
      {{"--x", kX, "--y", kY, "--out", "a.png", "--npy", "a.npy", "--output-budget", "16KB"}, "--npy a.npy"},
  };
  for (const auto& b : bad) {
    const auto r = test::run_physarum(with(with({"atlas"}, kWorld), b.args), dir);
    EXPECT_EQ(r.exit_code, 2) << b.named << ": " << r.err;
    EXPECT_NE(r.err.find(b.named), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("worlds of"), std::string::npos) << "it started: " << r.err;
  }
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "stdout.txt" || name == "stderr.txt" || name == "config") << name << " was written";
  }
}

const char* kT = "model.decay=0.1:0.5:3";
const std::vector<std::string> kGrid = {"--x", kX, "--y", kY};

std::vector<std::string> atlas(const std::vector<std::string>& more) {
  return with(with(with({"atlas"}, kWorld), kGrid), more);
}

// Frame n of a video decoded as RGB24, rows from the top.
std::string frame_rgb(const std::filesystem::path& video, int n) {
  const app::ProcessOutput r =
      app::run_capture({"ffmpeg", "-v", "error", "-i", "file:" + video.string(), "-vf",
                        "select=eq(n\\," + std::to_string(n) + ")", "-frames:v", "1", "-f", "rawvideo",
                        "-pix_fmt", "rgb24", "-"});
  EXPECT_TRUE(app::wait_status_ok(r.wait_status)) << r.out;
  return r.out;
}

// The mean absolute difference over the tiles (the title above them names the third key, which
// the still has not) between a decoded frame and the still.
double tiles_difference(const std::string& rgb, const test::RgbaImage& still,
                        const app::atlas::MosaicLayout& l) {
  double diff = 0;
  int n = 0;
  for (int y = l.top; y < l.top + l.ny * l.tile_h; ++y) {
    for (int x = l.left; x < l.left + l.nx * l.tile_w; ++x) {
      for (int c = 0; c < 3; ++c, ++n) {
        const auto v = static_cast<uint8_t>(rgb[(static_cast<size_t>(y) * still.w + x) * 3 + c]);
        diff += std::abs(static_cast<int>(v) - static_cast<int>(still.at(x, y)[c]));
      }
    }
  }
  return diff / n;
}

app::atlas::MosaicLayout layout() {
  return app::find_on_path("gnuplot") ? app::atlas::layout_for(2, 2, kW, kH)
                                      : app::atlas::MosaicLayout{2, 2, kW, kH, 0, 0, 0, 0};
}

TEST(AtlasCli, ThirdAxisMakesAVideoOfOneMosaicPerValue) {
  if (!app::have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r =
      test::run_physarum(atlas({"--t", kT, "--out", "a.mp4", "--csv", "a.csv", "--npy", "a.npy"}), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("12 worlds of 48x27 with 700 agents, 40 steps: about"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("12 worlds in"), std::string::npos) << r.out;

  const app::atlas::MosaicLayout l = layout();
  auto p = app::probe(dir / "a.mp4");
  ASSERT_EQ(p["ok"], "yes");
  EXPECT_EQ(p["nb_read_frames"], "3");
  EXPECT_EQ(p["width"], std::to_string(l.canvas_width()));
  EXPECT_EQ(p["height"], std::to_string(l.canvas_height()));

  // One row a world a frame; the third key's column holds the value it was grown with.
  const auto rows = read_csv(dir / "a.csv");
  ASSERT_EQ(rows.size(), 13u);
  EXPECT_EQ(rows[0][0], "it");
  EXPECT_EQ(rows[0][3], "model.decay");
  EXPECT_EQ(rows[0][4], "model.sensor_angle_deg");
  EXPECT_DOUBLE_EQ(std::stod(rows[1][3]), 0.1);
  EXPECT_DOUBLE_EQ(std::stod(rows[12][3]), 0.5);
  EXPECT_EQ(rows[12][0], "2");

  // The still of the same grid with the third key at its first value is the first frame, within
  // H.264's loss; the last frame (another decay) is not.
  const auto still_run =
      test::run_physarum(atlas({"--set", "model.decay=" + rows[1][3], "--out", "s.png"}), dir);
  ASSERT_EQ(still_run.exit_code, 0) << still_run.err;
  const test::RgbaImage still = test::load_rgba_png(dir / "s.png");
  ASSERT_EQ(still.w, l.canvas_width());
  ASSERT_EQ(still.h, l.canvas_height());
  const std::string first = frame_rgb(dir / "a.mp4", 0), last = frame_rgb(dir / "a.mp4", 2);
  ASSERT_EQ(first.size(), static_cast<size_t>(still.w) * still.h * 3);
  ASSERT_EQ(last.size(), first.size());
  const double same = tiles_difference(first, still, l), other = tiles_difference(last, still, l);
  EXPECT_LT(same, 16.0) << other;
  EXPECT_GT(other, 2 * same) << same;

  // (nt, ny, nx, H, W); the tile of the last value at ix 0, iy 1 is that world run alone.
  std::string header;
  const std::vector<float> stack = read_stack(dir / "a.npy", &header);
  EXPECT_NE(header.find("'shape': (3, 2, 2, 27, 48)"), std::string::npos) << header;
  ASSERT_EQ(stack.size(), size_t{12} * kW * kH);
  const auto one =
      test::run_physarum(with(with({"render"}, kWorld),
                              {"--set", "model.decay=" + rows[12][3], "--set", "model.sensor_angle_deg=20",
                               "--set", "model.rotation_angle_deg=60", "--out", "one.npy"}),
                         dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const NpyArray f = read_npy(dir / "one.npy");
  ASSERT_EQ(f.data.size(), size_t{kW} * kH);
  const size_t at = static_cast<size_t>(2 * 4 + 1 * 2 + 0) * kW * kH;
  EXPECT_EQ(std::memcmp(f.data.data(), stack.data() + at, f.data.size() * 4), 0);
  EXPECT_NE(std::memcmp(stack.data() + at - 8 * kW * kH, stack.data() + at, f.data.size() * 4), 0)
      << "the first value's world at the same cell should differ";
}

TEST(AtlasCli, ThirdAxisGifHasAFrameEachValue) {
  if (!app::have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(atlas({"--t", kT, "--fps", "2", "--out", "a.gif"}), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto p = app::probe(dir / "a.gif");
  ASSERT_EQ(p["ok"], "yes");
  EXPECT_EQ(p["nb_read_frames"], "3");
  EXPECT_EQ(p["width"], std::to_string(layout().canvas_width()));
  EXPECT_NEAR(std::stod(p["duration"]), 1.5, 0.05);
}

TEST(AtlasCli, ThirdAxisRefusalsWriteNothing) {
  const auto dir = test::temp_dir();
  const struct {
    std::vector<std::string> args;
    const char* named;
  } bad[] = {
      {{"--t", kT, "--out", "a.png"}, "--out a.png"},
      {{"--out", "a.mp4"}, "--out a.mp4"},
      {{"--out", "a.png", "--fps", "8"}, "--fps 8"},
      {{"--t", "model.nope=1:2:3", "--out", "a.mp4"}, "model.nope"},
      {{"--t", "model.decay=0.5:2:3", "--out", "a.mp4"}, "--t model.decay=1.25"},
      {{"--t", "model.sensor_angle_deg=5:10:3", "--out", "a.mp4"}, "already swept by --x"},
      {{"--t", kT, "--fps", "3", "--out", "a.gif"}, "--fps 3"},
      // The budget counts every frame: 12 fields in the stack, 3 frames in the GIF.
      {{"--t", kT, "--out", "a.mp4", "--npy", "a.npy", "--output-budget", "32KB"},
       "--npy a.npy (12 fields of 48x27)"},
      {{"--t", kT, "--out", "a.gif", "--output-budget", "100KB"},
       "--out a.gif (3 frames of 2 x 2 tiles of 48x27)"},
  };
  for (const auto& b : bad) {
    const auto r = test::run_physarum(atlas(b.args), dir);
    EXPECT_EQ(r.exit_code, 2) << b.named << ": " << r.err;
    EXPECT_NE(r.err.find(b.named), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("worlds of"), std::string::npos) << "it started: " << r.err;
  }
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "stdout.txt" || name == "stderr.txt" || name == "config") << name << " was written";
  }
}

TEST(AtlasCli, ThirdAxisWithoutFfmpegSaysWhatRenderSaysBeforeAnyWorld) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(atlas({"--t", kT, "--out", "a.mp4", "--csv", "a.csv"}), dir,
                                    {{"PATH", (dir / "empty").string()}}, {});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("ffmpeg not found on PATH; install it with apt-get install ffmpeg"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("worlds of"), std::string::npos) << "it started: " << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "a.mp4"));
  EXPECT_FALSE(std::filesystem::exists(dir / "a.csv"));
}

}  // namespace
}  // namespace physarum
