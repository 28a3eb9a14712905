// The presets the project ships: every one loads and validates, they differ from each other, they
// survive a write/read round trip, and the README documents every key a preset can hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/preset.hpp"

namespace physarum {
namespace {

namespace fs = std::filesystem;

const fs::path kPresetDir = fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets";

// Every test that walks the presets would pass on an empty list: finding none is a failure.
std::vector<fs::path> shipped_presets() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kPresetDir)) {
    if (e.is_regular_file() && e.path().extension() == ".toml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.size() < 8)
    ADD_FAILURE() << "expected at least eight presets in " << kPresetDir << ", found " << files.size();
  return files;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(PresetAssets, AtLeastEightAndEveryOneLoadsAndValidates) {
  const auto files = shipped_presets();
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    Preset p;
    ASSERT_NO_THROW(p = load_preset(f));
    EXPECT_NO_THROW(validate(p));
    // Every preset says in a comment what it is.
    EXPECT_EQ(read_text(f).rfind("# ", 0), 0u) << "starts with a comment describing the look";
  }
}

TEST(PresetAssets, TheNamedOnesAreThere) {
  const Preset defaults = load_preset(kPresetDir / "defaults.toml");
  EXPECT_EQ(defaults.model, ModelParams{});  // the write-up's defaults are the built-in ones
  const Preset jones = load_preset(kPresetDir / "jones-2010.toml");
  EXPECT_EQ(jones.model.turn_rule, TurnRule::Jones);
  EXPECT_EQ(jones.model.sensor_angle_deg, 22.5f);
  EXPECT_EQ(jones.model.rotation_angle_deg, 45.0f);
  EXPECT_EQ(jones.model.sensor_distance, 9.0f);
  // docs/science.md's reproduction of Jones's map states these settings: his field, population and rule.
  const Preset map = load_preset(kPresetDir / "jones-2010-map.toml");
  EXPECT_EQ(map.model.turn_rule, TurnRule::Jones);
  EXPECT_EQ(map.model.sensor_distance, 9.0f);
  EXPECT_EQ(map.model.step_size, 1.0f);
  EXPECT_EQ(map.model.deposit, 5.0f);
  EXPECT_EQ(map.model.decay, 0.1f);
  EXPECT_EQ(map.model.diffuse, 1.0f);  // a plain 3x3 mean
  EXPECT_EQ(map.model.jitter, 0.0f);
  EXPECT_EQ(map.run.size, (Size{200, 200}));
  EXPECT_EQ(map.run.agents, uint64_t{200 * 200 * 15 / 100});  // 15% of the cells
  const Preset cave = load_preset(kPresetDir / "cave.toml");
  EXPECT_NE(cave.display.cave, CaveMode::Off);
}

// Clearly different presets differ in the model, the spawn, the species or the environment they grow
// in (towns is Jones 2010 on a map), not only in colour.
TEST(PresetAssets, NoTwoShareTheSameModelAndSpawn) {
  const auto files = shipped_presets();
  std::vector<Preset> presets;
  for (const fs::path& f : files) presets.push_back(load_preset(f));
  for (size_t i = 0; i < presets.size(); ++i) {
    for (size_t j = i + 1; j < presets.size(); ++j) {
      EXPECT_FALSE(presets[i].model == presets[j].model && presets[i].spawn == presets[j].spawn &&
                   presets[i].species == presets[j].species &&
                   presets[i].environment == presets[j].environment)
          << files[i].filename() << " and " << files[j].filename();
    }
  }
}

// Each preset names a palette file that ships in assets/palettes.
TEST(PresetAssets, PalettesAreOnesTheRendererKnows) {
  const fs::path palettes = fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "palettes";
  for (const fs::path& f : shipped_presets()) {
    const Preset p = load_preset(f);
    EXPECT_TRUE(fs::is_regular_file(palettes / (p.display.palette + ".palette")))
        << f.filename() << ": palette " << p.display.palette << " is not in " << palettes;
  }
}

TEST(PresetAssets, WriteThenReadGivesTheSamePreset) {
  for (const fs::path& f : shipped_presets()) {
    const Preset p = load_preset(f);
    EXPECT_EQ(parse_preset(preset_to_toml(p), f.filename().string()), p) << f.filename();
  }
}

// Every key the writer emits appears in the README's schema tables, so the document cannot fall
// behind the code.
TEST(PresetAssets, ReadmeDocumentsEveryKey) {
  const std::string readme = read_text(kPresetDir / "README.md");
  ASSERT_FALSE(readme.empty());
  std::istringstream toml(preset_to_toml(Preset{}));
  std::string line, section;
  int keys = 0;
  while (std::getline(toml, line)) {
    if (line.size() > 2 && line.front() == '[') {
      section = line.substr(1, line.find(']') - 1);
      EXPECT_NE(readme.find("## [" + section + "]"), std::string::npos) << section;
      continue;
    }
    const size_t eq = line.find(" =");
    if (line.empty() || line.front() == '#' || eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    ++keys;
    EXPECT_NE(readme.find("| `" + key + "` |"), std::string::npos) << section << "." << key;
  }
  EXPECT_GE(keys, 20);
}

}  // namespace
}  // namespace physarum
