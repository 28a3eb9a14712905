// `physarum render` of a volume, end to end: the slice is the 2D colouring of the plane `physarum
// run` grows, --orbit writes a frame a step and turns the camera, stills in each mode.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "png_image.hpp"
#include "render/colormap.hpp"
#include "render/palette.hpp"
#include "render/volume_renderer.hpp"
#include "sim/npy.hpp"
#include "sim/preset.hpp"
#include "system/process.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

namespace fs = std::filesystem;

const std::vector<std::pair<std::string, std::string>> kEgl = {{"EGL_PLATFORM", "surfaceless"}};

std::vector<std::string> small_volume(const std::string& command, std::vector<std::string> more) {
  std::vector<std::string> a = {command,    "--backend", "cpu",    "--preset", "web-3d",  "--size", "16x12x8",
                                "--agents", "3K",        "--seed", "5",        "--steps", "6"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(VolumeRenderCli, SliceIsThe2DColouringOfThatPlaneOfTheGrownVolume) {
  const fs::path dir = test::temp_dir();
  auto r = test::run_physarum(small_volume("run", {"--out", "v.npy"}), dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_physarum(small_volume("render", {"-q", "--slice", "z=0.6", "--out", "s.png"}), dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NpyArray v = read_npy_volume(dir / "v.npy");
  ASSERT_EQ(v.planes, 8);
  const int k = render::slice_index(0.6f, 8);
  const std::vector<float> plane(v.data.begin() + k * 16 * 12, v.data.begin() + (k + 1) * 16 * 12);
  const Preset p = load_preset(fs::path(PHYSARUM_SOURCE_DIR) / "assets/presets/web-3d.toml");
  const render::Palette pal = render::load_palette(fs::path(PHYSARUM_SOURCE_DIR) / "assets/palettes" /
                                                   (p.display.palette + ".palette"));
  const std::vector<uint8_t> want = render::render_field_to_rgba(plane, 16, 12, p.display, pal);
  const test::RgbaImage got = test::load_rgba_png(dir / "s.png");
  ASSERT_EQ(got.w, 16);
  ASSERT_EQ(got.h, 12);
  int off = 0;
  for (size_t i = 0; i < want.size(); ++i) off = std::max(off, std::abs(int(want[i]) - int(got.rgba[i])));
  EXPECT_LE(off, 1) << "the slice differs from the CPU colouring of plane " << k;
}

TEST(VolumeRenderCli, OrbitWritesAFrameAStepAndTurnsTheCamera) {
  if (!app::find_on_path("ffmpeg"))
    GTEST_SKIP() << "ffmpeg is not installed (frames go through the video path)";
  const fs::path dir = test::temp_dir();
  const auto r = test::run_physarum(
      small_volume("render", {"-q", "--resolution", "48x32", "--every", "1", "--orbit", "1", "--fps", "4",
                              "--set", "display.volume_mode=mip", "--out", "frames/%05d.png"}),
      dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int frames = 0;
  for (const auto& e : fs::directory_iterator(dir / "frames"))
    frames += e.path().extension() == ".png" ? 1 : 0;
  EXPECT_EQ(frames, 6);  // steps 1..6
  // A turn a second at 4 fps: frames 1 and 3 look from opposite sides.
  const test::RgbaImage a = test::load_rgba_png(dir / "frames/00001.png");
  const test::RgbaImage b = test::load_rgba_png(dir / "frames/00003.png");
  ASSERT_EQ(a.w, 48);
  ASSERT_EQ(a.rgba.size(), b.rgba.size());
  EXPECT_NE(a.rgba, b.rgba);
}

TEST(VolumeRenderCli, StillsInEveryModeWithATransparentBackground) {
  const fs::path dir = test::temp_dir();
  for (const std::string mode : {"emission", "mip", "iso"}) {
    const auto r = test::run_physarum(
        small_volume("render", {"-q", "--resolution", "64x48", "--set", "display.volume_mode=" + mode,
                                "--set", "display.background=transparent", "--set", "display.iso_level=0.3",
                                "--out", mode + ".png"}),
        dir, kEgl);
    ASSERT_EQ(r.exit_code, 0) << mode << ": " << r.err;
    const test::RgbaImage img = test::load_rgba_png(dir / (mode + ".png"));
    ASSERT_EQ(img.w, 64) << mode;
    EXPECT_EQ(img.at(0, 0)[3], 0) << mode << ": the corner lies outside the volume";
    int shown = 0;
    for (int y = 0; y < img.h; ++y)
      for (int x = 0; x < img.w; ++x) shown += img.at(x, y)[3] > 0 ? 1 : 0;
    EXPECT_GT(shown, 50) << mode << ": the grown network is drawn";
  }
}

TEST(VolumeRenderCli, PlaneOutputsAndBadSlicesAreRefusedByName) {
  const fs::path dir = test::temp_dir();
  auto r = test::run_physarum(small_volume("render", {"-q", "--out", "v.npy"}), dir, kEgl);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("physarum run --out FILE.npy"), std::string::npos) << r.err;
  r = test::run_physarum(small_volume("render", {"-q", "--slice", "w=0.5", "--out", "a.png"}), dir, kEgl);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--slice w=0.5"), std::string::npos) << r.err;
  r = test::run_physarum(
      {"render", "--size", "32x32", "--agents", "1K", "--steps", "1", "--orbit", "3", "--out", "p.png"}, dir,
      kEgl);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--orbit"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "p.png"));
}

}  // namespace
}  // namespace physarum
