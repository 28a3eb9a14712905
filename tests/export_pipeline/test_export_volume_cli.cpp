// `physarum export` of a volume end to end: the program grows or reads a volume and writes every
// format; the files are read back here (the .npy by the library's reader, the slices by libpng,
// the meshes parsed here, the .vdb by OpenVDB's reader).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "export/vdb_file.hpp"
#include "export_support.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"
#include "volume_mesh_support.hpp"

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kSmallVolume = {"export", "--size", "20x16x12", "--agents",  "4000", "--steps",
                                               "15",     "--seed", "3",        "--backend", "cpu"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TestMesh read_ply(const fs::path& file) {
  TestMesh m;
  std::string comment;
  EXPECT_TRUE(parse_ply(read_file(file), m, comment)) << file;
  return m;
}

TEST(ExportVolumeCli, GrowsAVolumeAndWritesEveryFormat) {
  const fs::path dir = temp_dir();
  std::vector<std::string> outs = {"--out", "web.npy", "--out", "web.png", "--out",       "web.ply",
                                   "--out", "web.obj", "--out", "web.glb", "--triangles", "600"};
  if (app::exporter::vdb_available()) outs.insert(outs.end(), {"--out", "web.vdb"});
  const ProcessResult r = run_physarum(with(kSmallVolume, outs), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("closed manifold"), std::string::npos) << r.out;
  // The field is what `physarum run` grows from the same recipe.
  const ProcessResult run = run_physarum({"run", "--size", "20x16x12", "--agents", "4000", "--steps", "15",
                                          "--seed", "3", "--backend", "cpu", "--out", "run.npy"},
                                         dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_file(dir / "web.npy"), read_file(dir / "run.npy"));
  const NpyVolume field = read_npy_volume_field(dir / "web.npy");
  const auto [lo, hi] = std::minmax_element(field.data.begin(), field.data.end());
  // Twelve 16-bit slices on the volume's range, slice z holding plane z.
  for (int z = 0; z < 12; ++z) {
    char name[32];
    std::snprintf(name, sizeof name, "web_%04d.png", z);
    const GreyPng png = read_grey_png(dir / name);
    ASSERT_TRUE(png.ok) << name;
    ASSERT_EQ(png.width, 20);
    ASSERT_EQ(png.height, 16);
    ASSERT_EQ(png.bit_depth, 16);
    for (size_t i = 0; i < png.samples.size(); ++i) {
      const double v = field.data[static_cast<size_t>(z) * 320 + i];
      ASSERT_NEAR(png.samples[i], (v - *lo) / (*hi - *lo) * 65535.0, 0.5 + 1e-3) << name << " " << i;
    }
  }
  EXPECT_FALSE(fs::exists(dir / "web_0012.png"));
  const TestMesh ply = read_ply(dir / "web.ply");
  const SurfaceCheck c = check_surface(ply);
  EXPECT_TRUE(c.closed_and_oriented);
  EXPECT_LE(ply.f.size(), 600u);
  EXPECT_GT(c.volume, 0);
  TestMesh obj;
  ASSERT_TRUE(parse_obj(read_file(dir / "web.obj"), obj));
  EXPECT_EQ(obj.f, ply.f);
  EXPECT_EQ(read_file(dir / "web.glb").substr(0, 4), "glTF");
  if (!app::exporter::vdb_available()) return;
  const app::exporter::VdbFileRead vdb = app::exporter::read_vdb(dir / "web.vdb");
  ASSERT_EQ(vdb.grids.size(), 1u);
  EXPECT_EQ(vdb.grids[0].name, "density");
  for (const auto& [p, v] : vdb.grids[0].active) {
    ASSERT_EQ(v, field.data[(static_cast<size_t>(p[2]) * 16 + p[1]) * 20 + p[0]]);
  }
}

// A ball of radius 7 and one of radius 1.5, as a (D, H, W) .npy.
fs::path two_balls(const fs::path& dir) {
  std::vector<float> v;
  for (int z = 0; z < 24; ++z) {
    for (int y = 0; y < 24; ++y) {
      for (int x = 0; x < 24; ++x) {
        const double big = 7.0 - std::hypot(x - 9.3, y - 10.6, z - 11.1);
        const double small = 1.5 - std::hypot(x - 20.0, y - 20.0, z - 4.0);
        v.push_back(static_cast<float>(std::max(big, small)));
      }
    }
  }
  write_npy_shape(dir / "balls.npy", v.data(), {24, 24, 24});
  return dir / "balls.npy";
}

TEST(ExportVolumeCli, AReadBallMeshesToItsVolumeAndMinIslandDropsTheSmallOne) {
  const fs::path dir = temp_dir();
  two_balls(dir);
  const std::vector<std::string> read = {"export",    "--field", "balls.npy",    "--iso", "0",
                                         "--connect", "none",    "--voxel-size", "2"};
  ASSERT_EQ(run_physarum(with(read, {"--min-island", "0", "--out", "both.ply"}), dir).exit_code, 0);
  const ProcessResult r = run_physarum(with(read, {"--min-island", "100", "--out", "big.ply"}), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const SurfaceCheck both = check_surface(read_ply(dir / "both.ply"));
  const SurfaceCheck big = check_surface(read_ply(dir / "big.ply"));
  EXPECT_TRUE(both.closed_and_oriented && big.closed_and_oriented);
  EXPECT_EQ(both.euler, 4);  // two spheres
  EXPECT_EQ(big.euler, 2);
  const double ball = 4.0 / 3.0 * std::numbers::pi * std::pow(7.0 * 2, 3);
  EXPECT_NEAR(big.volume / ball, 1.0, 0.03);
  EXPECT_GT(both.volume, big.volume);
}

// A mesh is sized by its surface, counted once the volume is there: a ball in a 160^3 volume (whose
// worst case, every cube crossed, would be about 7 GB) is made under the default budget; a budget
// that the volume alone passes and the surface does not refuses after reading it, naming the
// surface's triangles (exactly those the mesh has), and writes nothing.
TEST(ExportVolumeCli, AMeshIsSizedByItsSurfaceNotByTheWorstCase) {
  const fs::path dir = temp_dir();
  const int n = 160;
  std::vector<float> v;
  for (int z = 0; z < n; ++z) {
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x)
        v.push_back(static_cast<float>(70.0 - std::hypot(x - 80.2, y - 79.6, z - 80.4)));
    }
  }
  write_npy_shape(dir / "ball.npy", v.data(), {n, n, n});
  const std::vector<std::string> args = {"export", "--field", "ball.npy", "--iso", "0"};
  const ProcessResult ok = run_physarum(with(args, {"--out", "ball.ply"}), dir);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(check_surface(read_ply(dir / "ball.ply")).closed_and_oriented);
  EXPECT_NE(ok.out.find("552692 triangles"), std::string::npos) << ok.out;
  // The volume, its sum and the working set need 0.18 GB; with the surface, 0.26 GB.
  const ProcessResult refused =
      run_physarum(with(args, {"--out", "small.ply", "--output-budget", "200MB"}), dir);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("552692 triangles before --triangles"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--output-budget"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "small.ply"));
}

TEST(ExportVolumeCli, EqualInputsGiveByteIdenticalFiles) {
  const fs::path dir = temp_dir();
  two_balls(dir);
  std::vector<std::string> names = {"a.npy", "a.png", "a.ply", "a.obj", "a.glb"};
  if (app::exporter::vdb_available()) names.push_back("a.vdb");
  for (const char* run : {"1", "2"}) {
    std::vector<std::string> args = {"export", "--field", "balls.npy", "--triangles", "300", "--bits", "8"};
    fs::create_directory(dir / run);
    for (const std::string& n : names) args.insert(args.end(), {"--out", std::string(run) + "/" + n});
    const ProcessResult r = run_physarum(args, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  for (const std::string& n : names) {
    const std::string f = n == "a.png" ? "a_0000.png" : n;
    EXPECT_FALSE(read_file(dir / "1" / f).empty()) << f;
    EXPECT_EQ(read_file(dir / "1" / f), read_file(dir / "2" / f)) << f;
  }
}

TEST(ExportVolumeCli, BadValuesAreRefusedAndNothingIsWritten) {
  const fs::path dir = temp_dir();
  two_balls(dir);
  const std::vector<std::string> read = {"export", "--field", "balls.npy"};
  const struct {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"--triangles", "-5", "--out", "x.ply"}, "-5"},
      {{"--iso", "nan", "--out", "x.ply"}, "nan"},
      {{"--out", "x.svg"}, "a volume exports as"},
      {{"--out", "x.xyz"}, "'.xyz'"},
      {{"--resolution", "2x", "--out", "x.ply"}, "--resolution shapes a plane's export"},
      {{"--iso", "1e9", "--out", "x.ply"}, "no voxel is inside"},
      {{"--channel", "1", "--out", "x.ply"}, "--channel 1: the volume has 1 species"},
  };
  for (const auto& c : cases) {
    const ProcessResult r = run_physarum(with(read, c.args), dir);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "balls.npy" || name == "stdout.txt" || name == "stderr.txt") << name;
  }
  // A plane's export refuses a volume's options.
  const ProcessResult plane = run_physarum(
      {"export", "--size", "32x32", "--agents", "500", "--steps", "2", "--iso", "1", "--out", "m.png"}, dir);
  EXPECT_EQ(plane.exit_code, 2);
  EXPECT_NE(plane.err.find("--iso shapes a volume's export"), std::string::npos) << plane.err;
}

// A stack of slices makes its folder, as render makes a PNG sequence's ("frames/%05d.png"): the
// README's `--out slices/web.png` works in a fresh folder. What cannot be a folder is refused before
// any work, and a refused export makes no folder.
TEST(ExportVolumeCli, SlicesMakeTheirFolderAndAFileInTheWayIsRefused) {
  const fs::path dir = temp_dir();
  two_balls(dir);
  const ProcessResult made =
      run_physarum({"export", "--field", "balls.npy", "--bits", "8", "--out", "slices/deeper/b.png"}, dir);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  for (const char* name : {"b_0000.png", "b_0023.png"}) {
    const GreyPng png = read_grey_png(dir / "slices" / "deeper" / name);
    ASSERT_TRUE(png.ok) << name;
    EXPECT_EQ(png.width, 24);
    EXPECT_EQ(png.bit_depth, 8);
  }
  EXPECT_FALSE(fs::exists(dir / "slices" / "deeper" / "b_0024.png"));

  std::ofstream(dir / "plain") << "a file";
  const struct {
    std::vector<std::string> outs;
    const char* says;
  } refused[] = {
      {{"--out", "plain/b.png"}, "'plain' exists and is not a folder"},
      {{"--out", "plain/under/b.png"}, "'plain' exists and is not a folder"},
      {{"--out", "new/b.png", "--out", "new/b.png"}, "the same file as"},
      {{"--out", "new/b.png", "--triangles", "-5", "--out", "x.ply"}, "-5"},
  };
  for (const auto& c : refused) {
    const ProcessResult r = run_physarum(with({"export", "--field", "balls.npy"}, c.outs), dir);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "new")) << c.says;
  }
}

}  // namespace
}  // namespace physarum::test
