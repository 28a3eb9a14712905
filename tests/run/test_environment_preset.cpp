// The environment in presets and on the command line: [environment] keys read, validated with
// file:line and written back; maps from images (bad ones refused, nothing changed); --food, --walls
// and --set environment.* on a real run.
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <string>
#include <vector>

#include "run/environment_maps.hpp"
#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using test::run_physarum;
using test::temp_dir;
using test::write_file;

// A grey PNG, w x h, whose left half is black and right half white.
std::filesystem::path half_black_png(const std::filesystem::path& dir, int w, int h) {
  std::vector<unsigned char> px(static_cast<size_t>(w) * h, 255);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w / 2; ++x) px[static_cast<size_t>(y) * w + x] = 0;
  const auto file = dir / "half.png";
  EXPECT_TRUE(stbi_write_png(file.c_str(), w, h, 1, px.data(), 0));
  return file;
}

TEST(EnvironmentPreset, ReadsAndRoundTrips) {
  const Preset p = parse_preset(R"(
[environment]
food = "towns.png"
walls = "coast.png"
food_strength = 2.5
boundary = "walls"
walls_threshold = 0.25
fit = "fit"

[[species]]
food_strength = -1.5

[[species]]
decay = 0.05
)");
  EXPECT_EQ(p.environment.food, "towns.png");
  EXPECT_EQ(p.environment.walls, "coast.png");
  EXPECT_EQ(p.environment.food_strength, 2.5f);
  EXPECT_EQ(p.environment.boundary, Boundary::Walls);
  EXPECT_EQ(p.environment.walls_threshold, 0.25f);
  EXPECT_EQ(p.environment.fit, ImageFit::Fit);
  ASSERT_EQ(p.species.list.size(), 2U);
  EXPECT_EQ(p.species.list[0].food_strength, -1.5f);
  EXPECT_FALSE(p.species.list[1].food_strength.has_value());
  EXPECT_EQ(parse_preset(preset_to_toml(p)), p);
  EXPECT_EQ(run::food_strengths(p.environment, p.species), (std::vector<float>{-1.5f, 2.5f}));
}

TEST(EnvironmentPreset, NoEnvironmentWritesNoTable) {
  const Preset p;
  EXPECT_EQ(preset_to_toml(p).find("[environment]"), std::string::npos);
  EXPECT_EQ(parse_preset(preset_to_toml(p)), p);
  EXPECT_EQ(run::food_strengths(p.environment, p.species), std::vector<float>{1.0f});
}

TEST(EnvironmentPreset, BadValuesNameFileLineAndKey) {
  const struct {
    const char* text;
    const char* expected;
  } cases[] = {
      {"[environment]\n\nboundary = \"box\"\n", "p.toml:3: environment.boundary"},
      {"[environment]\nwalls_threshold = 1.5\n", "p.toml:2: environment.walls_threshold"},
      {"[environment]\nfood_strength = \"x\"\n", "p.toml:2: environment.food_strength"},
      {"[environment]\nfood_strength = 1e9\n", "p.toml:2: environment.food_strength"},
      {"[environment]\nfit = \"stretch\"\n", "p.toml:2: environment.fit"},
      {"[environment]\nfood = 3\n", "p.toml:2: environment.food"},
      {"[environment]\nwater = \"x.png\"\n", "p.toml:2: environment.water"},
      {"[[species]]\nfood_strength = 2000\n", "p.toml:2: species.0.food_strength"},
  };
  for (const auto& c : cases) {
    try {
      parse_preset(c.text, "p.toml");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}

TEST(EnvironmentPreset, OverridesAreValidated) {
  Preset p;
  apply_override(p, "environment.boundary=walls");
  apply_override(p, "environment.food_strength=-3");
  apply_override(p, "environment.food=maps/f.png");
  EXPECT_EQ(p.environment.boundary, Boundary::Walls);
  EXPECT_EQ(p.environment.food_strength, -3.0f);
  EXPECT_EQ(p.environment.food, "maps/f.png");
  const Preset before = p;
  EXPECT_THROW(apply_override(p, "environment.boundary=torus"), Error);
  EXPECT_THROW(apply_override(p, "environment.walls_threshold=-0.1"), Error);
  EXPECT_EQ(p, before);
}

TEST(EnvironmentPreset, MapsFromImages) {
  const auto dir = temp_dir();
  const auto png = half_black_png(dir, 40, 20);
  EnvironmentParams e;
  e.walls = png.string();
  e.food = png.string();
  const Environment env = run::load_environment(e, SpeciesSet{}, Size{20, 10});
  ASSERT_EQ(env.walls.size(), 200U);
  ASSERT_EQ(env.food.size(), 200U);
  EXPECT_EQ(env.walls[static_cast<size_t>(5) * 20 + 2], 1);   // black: wall
  EXPECT_EQ(env.walls[static_cast<size_t>(5) * 20 + 17], 0);  // white: free
  EXPECT_EQ(env.food[static_cast<size_t>(5) * 20 + 2], 0.0f);
  EXPECT_NEAR(env.food[static_cast<size_t>(5) * 20 + 17], 1.0f, 1e-6f);
  for (float v : env.food) EXPECT_GE(v, 0.0f);
}

TEST(EnvironmentPreset, BadImagesAreRefusedAndChangeNothing) {
  const auto dir = temp_dir();
  write_file(dir / "corrupt.png", std::string("\x89PNG\r\n\x1a\n", 8) + "garbage");
  std::vector<unsigned char> black(16 * 16, 0);
  ASSERT_TRUE(stbi_write_png((dir / "black.png").c_str(), 16, 16, 1, black.data(), 0));
  EnvironmentParams e;
  e.food = (dir / "corrupt.png").string();
  try {
    run::load_environment(e, SpeciesSet{}, Size{16, 16});
    ADD_FAILURE() << "a corrupt food map was accepted";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("environment.food"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("corrupt.png"), std::string::npos) << err.what();
  }

  SimConfig c;
  c.size = {16, 16};
  c.agents = 20;
  auto b = create_backend(BackendKind::Cpu, c);
  const uint64_t version = b->environment_version();
  std::string message;
  EXPECT_FALSE(
      run::set_map_from_image(*b, run::MapKind::Walls, dir / "corrupt.png", ImageFit::Fill, 0.5f, &message));
  EXPECT_NE(message.find("corrupt.png"), std::string::npos) << message;
  EXPECT_FALSE(
      run::set_map_from_image(*b, run::MapKind::Food, dir / "missing.png", ImageFit::Fill, 0.5f, &message));
  // All black: every cell a wall, which leaves agents nowhere to be.
  EXPECT_FALSE(
      run::set_map_from_image(*b, run::MapKind::Walls, dir / "black.png", ImageFit::Fill, 0.5f, &message));
  EXPECT_NE(message.find("free cell"), std::string::npos) << message;
  EXPECT_EQ(b->environment_version(), version);
  EXPECT_EQ(b->environment(), Environment{});
  const auto half = half_black_png(dir, 32, 32);
  EXPECT_TRUE(run::set_map_from_image(*b, run::MapKind::Walls, half, ImageFit::Fill, 0.5f, &message))
      << message;
  EXPECT_EQ(b->environment().walls.size(), 256U);
}

TEST(EnvironmentPresetE2e, CliMapsAndBoundary) {
  const auto dir = temp_dir();
  half_black_png(dir, 64, 64);
  write_file(dir / "corrupt.png", std::string("\x89PNG\r\n\x1a\n", 8) + "garbage");
  const std::vector<std::string> base{"run", "--steps", "20", "--size", "32x24", "--agents", "300", "--out"};
  // A good run with food, walls and the closed box.
  auto args = base;
  args.insert(args.end(), {"ok.npy", "--food", "half.png", "--walls", "half.png", "--set",
                           "environment.boundary=walls", "--set", "environment.food_strength=2"});
  auto r = run_physarum(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "ok.npy"));
  // Bad maps: a runtime error naming the file, nothing written.
  for (const char* option : {"--food", "--walls"}) {
    args = base;
    args.insert(args.end(), {"bad.npy", option, "corrupt.png"});
    r = run_physarum(args, dir);
    EXPECT_EQ(r.exit_code, 1) << option << ": " << r.err;
    EXPECT_NE(r.err.find("corrupt.png"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.npy"));
  }
  args = base;
  args.insert(args.end(), {"bad.npy", "--set", "environment.boundary=torus"});
  r = run_physarum(args, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("environment.boundary"), std::string::npos) << r.err;
  // A preset's map is found beside the preset.
  std::filesystem::create_directories(dir / "p");
  std::filesystem::copy_file(dir / "half.png", dir / "p" / "walls.png");
  write_file(dir / "p" / "w.toml", "[environment]\nwalls = \"walls.png\"\n");
  args = base;
  args.insert(args.end(), {"preset.npy", "--preset", "p/w.toml"});
  r = run_physarum(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace physarum
