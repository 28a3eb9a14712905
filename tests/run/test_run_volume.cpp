// A volume through the run library (run/volume_setup.hpp, run::Run): a recipe whose size has a depth
// grows the same bytes as the volume made by hand, point data and a food volume become its food,
// what a volume cannot take is refused naming it, and `physarum run` writes (D, H, W).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "run/volume_setup.hpp"
#include "sim/npy.hpp"
#include "sim/volume.hpp"
#include "test_support.hpp"

namespace physarum::run {
namespace {

Recipe volume_recipe() {
  Recipe r;
  r.size = "9x7x5";
  r.agents = "2000";
  r.backend = "cpu";
  r.threads = 1;
  r.seed = 3;
  return r;
}

// The volume of the preset the recipe resolves to, made without the run library's food and walls.
std::unique_ptr<Volume> by_hand(const Recipe& r) {
  return create_volume(BackendKind::Cpu, volume_config(resolve(r), 1));
}

std::filesystem::path write_points(const std::filesystem::path& dir) {
  const auto file = dir / "points.csv";
  std::ofstream(file) << "x,y,z,weight\n0,0,0,1\n8,6,4,2\n4,3,2,0.5\n100,3,2,1\n";
  return file;
}

TEST(RunVolume, ARecipeWithADepthGrowsTheVolumeMadeByHandBitForBit) {
  const Recipe r = volume_recipe();
  run::Run run(r);
  ASSERT_TRUE(run.is_volume());
  // No preset named: a volume starts from the volume's preset, not the plane's defaults.
  Recipe named = r;
  named.preset = kVolumeDefaults;
  EXPECT_EQ(run.preset(), resolve(named));
  EXPECT_NE(run.preset().model, Preset().model);
  EXPECT_NE(run.chosen().find("a volume's defaults, preset web-3d, are 256x256x256"), std::string::npos)
      << run.chosen();
  Recipe by_set = r;
  by_set.size.clear();
  by_set.sets = {"run.size=9x7x5"};
  EXPECT_EQ(resolve(by_set).model, resolve(named).model);
  EXPECT_EQ(run.volume().size(), (Size{9, 7, 5}));
  EXPECT_EQ(run.volume().agent_count(), 2000u);
  std::unique_ptr<Volume> v = by_hand(r);
  run.step(7);
  v->step(7);
  EXPECT_EQ(run.steps_done(), 7u);
  std::vector<float> a, b;
  run.volume().read_field(a);
  v->read_field(b);
  ASSERT_EQ(a.size(), 9u * 7u * 5u);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
  double sum = 0;
  for (float x : a) sum += x;
  EXPECT_GT(sum, 0.0);  // the agents deposited
}

TEST(RunVolumeCli, SpeciesWallsAndTheClosedBoxOfAPresetReachTheVolume) {
  const auto dir = test::temp_dir();
  std::vector<float> walls(9 * 7 * 5, 0.0f);
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 9; ++x)
      walls[(2 * 7 + y) * 9 + x] = x == 4 ? 0.0f : 1.0f;  // a slab at z = 2, a slot at x = 4
  write_npy_shape(dir / "walls.npy", walls.data(), {5, 7, 9});
  Recipe r = volume_recipe();
  r.preset = "territories";  // two species that avoid each other
  r.walls = (dir / "walls.npy").string();
  r.sets = {"environment.boundary=walls"};
  run::Run run(r);
  ASSERT_EQ(run.volume().species_count(), 2);
  EXPECT_EQ(run.volume().boundary(), Boundary::Walls);
  std::unique_ptr<Volume> v = by_hand(r);
  std::vector<uint8_t> mask(walls.size());
  for (size_t i = 0; i < walls.size(); ++i) mask[i] = walls[i] > 0.5f ? 1 : 0;
  v->set_walls(mask);
  run.step(5);
  v->step(5);
  std::vector<float> a, b;
  run.volume().read_field(a);
  v->read_field(b);
  ASSERT_EQ(a.size(), 2u * 9u * 7u * 5u);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
  // The slab is wall in both channels, the slot is not.
  EXPECT_EQ(run.volume().walls()[(2 * 7 + 3) * 9 + 2], 1);
  EXPECT_EQ(run.volume().walls()[(2 * 7 + 3) * 9 + 4], 0);

  const auto cli = test::run_physarum({"run",
                                       "--preset",
                                       "territories",
                                       "--size",
                                       "9x7x5",
                                       "--agents",
                                       "2000",
                                       "--seed",
                                       "3",
                                       "--steps",
                                       "5",
                                       "--backend",
                                       "cpu",
                                       "--threads",
                                       "1",
                                       "--walls",
                                       r.walls,
                                       "--set",
                                       "environment.boundary=walls",
                                       "--out",
                                       "two.npy"},
                                      dir);
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  const std::string bytes = test::read_file(dir / "two.npy");
  EXPECT_NE(bytes.find("'shape': (2, 5, 7, 9)"), std::string::npos);
  EXPECT_EQ(0, std::memcmp(bytes.data() + bytes.size() - a.size() * sizeof(float), a.data(),
                           a.size() * sizeof(float)));
}

TEST(RunVolume, PointsAreTheVolumesFoodFittedAsFitPointsFitsThem) {
  const auto dir = test::temp_dir();
  Recipe r = volume_recipe();
  r.points = write_points(dir).string();
  r.points_box = "0:9,0:7,0:5";  // one data unit a voxel; the point at x = 100 is outside
  run::Run run(r);
  EXPECT_NE(run.food_note().find("4 points"), std::string::npos) << run.food_note();
  EXPECT_NE(run.food_note().find("1 outside the box"), std::string::npos) << run.food_note();

  // By hand: the food at voxels (0,0,0), (8,6,4), (4,3,2) with weights 1, 2, 0.5.
  std::unique_ptr<Volume> v = by_hand(r);
  const auto at = [](int x, int y, int z) { return static_cast<uint64_t>((z * 7 + y) * 9 + x); };
  v->set_food({{at(0, 0, 0), 1.0f}, {at(4, 3, 2), 0.5f}, {at(8, 6, 4), 2.0f}},
              run.preset().environment.food_strength);
  run.step(3);
  v->step(3);
  std::vector<float> a, b;
  run.volume().read_field(a);
  v->read_field(b);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
}

TEST(RunVolume, AFoodVolumeAddsToThePointsVoxelByVoxel) {
  const auto dir = test::temp_dir();
  std::vector<float> food(9 * 7 * 5, 0.0f);
  food[(2 * 7 + 3) * 9 + 4] = 0.25f;  // the voxel of the point (4, 3, 2)
  food[5] = 1.5f;
  write_npy_shape(dir / "food.npy", food.data(), {5, 7, 9});
  Recipe r = volume_recipe();
  r.points = write_points(dir).string();
  r.points_box = "0:9,0:7,0:5";
  r.food = (dir / "food.npy").string();
  r.sets = {"model.deposit=0", "model.decay=0", "model.diffuse=0", "environment.food_strength=2"};
  run::Run run(r);
  run.step(1);
  std::vector<float> f;
  run.volume().read_field(f);
  // With no deposit, decay or diffusion, one step leaves k E in each food voxel: E = points + volume.
  EXPECT_EQ(f[(2 * 7 + 3) * 9 + 4], 2.0f * (0.5f + 0.25f));
  EXPECT_EQ(f[5], 2.0f * 1.5f);
  EXPECT_EQ(f[0], 2.0f * 1.0f);
  EXPECT_EQ(f[(4 * 7 + 6) * 9 + 8], 2.0f * 2.0f);
  double sum = 0;
  for (float x : f) sum += x;
  EXPECT_EQ(sum, 2.0 * (1.0 + 2.0 + 0.5 + 0.25 + 1.5));
}

TEST(RunVolume, WhatAVolumeCannotTakeIsRefusedNamingIt) {
  const auto dir = test::temp_dir();
  const auto refused = [](Recipe r, const std::string& named) {
    try {
      run::Run run(r);
      ADD_FAILURE() << "taken; expected a refusal naming " << named;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  };
  Recipe r = volume_recipe();
  r.image = (dir / "seed.png").string();
  refused(r, "seed image");
  r = volume_recipe();
  r.sets = {"spawn.mode=disc"};
  refused(r, "spawn.mode");
  r = volume_recipe();
  r.points_box = "0:9,0:7";
  refused(r, "'0:9,0:7'");
  r = volume_recipe();
  r.points = (dir / "missing.csv").string();
  refused(r, "missing.csv");
  r = volume_recipe();
  r.food = (dir / "food.png").string();
  refused(r, "food.png");
  r = volume_recipe();
  r.size = "9x7x5x3";
  refused(r, "9x7x5x3");
  // A plane's rule's key (registry: plane_only), in the model or a species'.
  r = volume_recipe();
  r.sets = {"model.jitter=0.5"};
  refused(r, "model.jitter = 0.5");
  // Point data on a plane.
  r = volume_recipe();
  r.size = "32x32";
  r.points = write_points(dir).string();
  refused(r, "volume");
  // A plane's actions on a volume.
  run::Run run(volume_recipe());
  EXPECT_THROW(run.backend(), UsageError);
  EXPECT_THROW(run.set({"run.seed=9"}), UsageError);
  EXPECT_THROW(run.set({"environment.points=other.csv"}), UsageError);
  EXPECT_THROW(run.set({"model.decay=2"}), UsageError);
  EXPECT_THROW(run.set({"model.jitter=0.2"}), UsageError);
  EXPECT_EQ(run.preset().model.jitter, 0.0f) << "a refused change changes nothing";
  EXPECT_THROW(run.brush(BrushStroke{}), UsageError);
}

TEST(RunVolume, ALiveChangeReachesTheNextStep) {
  run::Run run(volume_recipe());
  run.step(3);
  // No deposit, no decay, no diffusion: from the next step on the field stands still, bit for bit.
  run.set({"model.deposit=0", "model.decay=0", "model.diffuse=0"});
  EXPECT_EQ(run.preset().model.deposit, 0.0f);
  std::vector<float> before, after;
  run.volume().read_field(before);
  run.step(2);
  run.volume().read_field(after);
  EXPECT_EQ(before, after);
  double sum = 0;
  for (float x : after) sum += x;
  EXPECT_GT(sum, 0.0);
  // And back: the field grows again (the step's deposits), so the first change was no accident.
  run.set({"model.deposit=1"});
  run.step(1);
  run.volume().read_field(after);
  double grown = 0;
  for (float x : after) grown += x;
  EXPECT_NEAR(grown, sum + 2000.0, 1e-2);  // 2000 agents deposit 1 each (each sum rounded to float)
}

TEST(RunVolume, KeyframesReachTheVolumesModelAndItsDisplayKeys) {
  run::Run run(volume_recipe());
  Preset& live = run.live_preset();  // as the window's timeline writes keyframes
  // The deposit is held at 1 to step 4, then 0, and the exposure ramps 1 -> 3 from step 1 to 11.
  live.keyframes = {Keyframe{0, Ease::Hold, {{"model.deposit", 1.0f}}},
                    Keyframe{1, Ease::Linear, {{"display.exposure", 1.0f}}},
                    Keyframe{4, Ease::Hold, {{"model.deposit", 0.0f}}},
                    Keyframe{11, Ease::Linear, {{"display.exposure", 3.0f}}}};
  run.step(4);
  std::vector<float> at4;
  run.volume().read_field(at4);
  run.set({"model.decay=0", "model.diffuse=0"});  // what stays of the field is what the agents add
  run.step(1);
  std::vector<float> at5;
  run.volume().read_field(at5);
  EXPECT_EQ(run.preset().model.deposit, 0.0f);
  EXPECT_EQ(at4, at5) << "the keyframed deposit of 0 did not reach step 5";
  // The display key between its keyframes, as the timeline computes it at step 5.
  EXPECT_FLOAT_EQ(run.preset().display.exposure, 1.0f + 2.0f * 4.0f / 10.0f);
  (void)run.timed_volume_step();
  EXPECT_FLOAT_EQ(run.preset().display.exposure, 1.0f + 2.0f * 5.0f / 10.0f);
  EXPECT_EQ(run.steps_done(), 6u);
}

// A step() that ends at a keyframe leaves the live preset at that keyframe's values already; the
// next step() must still hand them to the volume (the window steps a few steps a frame).
TEST(RunVolume, KeyframesGiveTheSameBytesSteppedAtOnceOrInPieces) {
  const auto grown = [](const std::vector<uint64_t>& pieces) {
    run::Run run(volume_recipe());
    run.live_preset().keyframes = {Keyframe{0, Ease::Hold, {{"model.deposit", 1.0f}}},
                                   Keyframe{3, Ease::Hold, {{"model.deposit", 0.0f}}},
                                   Keyframe{5, Ease::Linear, {{"model.decay", 0.05f}}},
                                   Keyframe{7, Ease::Hold, {{"model.decay", 0.3f}}}};
    for (uint64_t n : pieces) run.step(n);
    EXPECT_EQ(run.steps_done(), 9u);
    std::vector<float> field;
    run.volume().read_field(field);
    return field;
  };
  const std::vector<float> at_once = grown({9});
  EXPECT_EQ(grown({3, 6}), at_once) << "the deposit keyed at step 3 did not reach the volume";
  EXPECT_EQ(grown({1, 1, 1, 1, 1, 1, 1, 1, 1}), at_once) << "stepped one at a time";
  EXPECT_EQ(grown({5, 2, 2}), at_once);
}

TEST(RunVolume, ABoxIsReadAsThreeRangesAndWrittenBack) {
  const Box3 b = parse_box3("0:500,-2.5:1e3,+1:2");
  EXPECT_EQ(b.min, (std::array<double, 3>{0, -2.5, 1}));
  EXPECT_EQ(b.max, (std::array<double, 3>{500, 1000, 2}));
  EXPECT_EQ(format_box3(b), "0:500,-2.5:1000,1:2");
  for (const char* bad : {"", "0:1,0:1", "0:1,0:1,0:1,0:1", "1:0,0:1,0:1", "0:1,0:1,0:nan", "0:1,a:1,0:1",
                          "0:1,0:1,0", "0:1,0:1,0:1e999"}) {
    const std::string m = test::error_of([&] { (void)parse_box3(bad); });
    EXPECT_NE(m.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << m;
  }
}

TEST(RunVolumeCli, RunWritesTheVolumeAsDHWWithThePointsAsFood) {
  const auto dir = test::temp_dir();
  const auto points = write_points(dir);
  const auto result = test::run_physarum(
      {"run", "--size", "9x7x5", "--agents", "2000", "--seed", "3", "--steps", "4", "--backend", "cpu",
       "--threads", "1", "--points", points.string(), "--points-box", "0:9,0:7,0:5", "--out", "web.npy"},
      dir);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("4 points of"), std::string::npos) << result.err;
  EXPECT_NE(result.out.find("9x7x5"), std::string::npos) << result.out;
  const NpyArray a = read_npy_volume(dir / "web.npy");
  EXPECT_EQ(a.planes, 5);
  EXPECT_EQ(a.height, 7);
  EXPECT_EQ(a.width, 9);

  Recipe r = volume_recipe();
  r.points = points.string();
  r.points_box = "0:9,0:7,0:5";
  run::Run run(r);
  run.step(4);
  std::vector<float> f;
  run.volume().read_field(f);
  ASSERT_EQ(f.size(), a.data.size());
  EXPECT_EQ(0, std::memcmp(f.data(), a.data.data(), f.size() * sizeof(float)));
}

}  // namespace
}  // namespace physarum::run
