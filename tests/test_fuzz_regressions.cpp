// Every input a fuzz target ever choked on (tests/fuzz/regressions/TARGET/) goes through the same
// parser here, in the normal build: a clean Error or a valid result, never a crash. The fuzz build
// (make fuzz) starts from these files too.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/image.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

std::vector<std::filesystem::path> inputs(const std::string& target) {
  const std::filesystem::path dir =
      std::filesystem::path(PHYSARUM_SOURCE_DIR) / "tests/fuzz/regressions" / target;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  return files;
}

TEST(FuzzRegressions, ImageInputsGiveACleanAnswer) {
  const auto files = inputs("image");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    try {
      const LumaImage img = load_luma(f);
      ASSERT_EQ(img.luma.size(), static_cast<size_t>(img.width) * static_cast<size_t>(img.height)) << f;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f.filename().string()), std::string::npos) << e.what();
    }
  }
}

TEST(FuzzRegressions, PresetInputsGiveACleanAnswer) {
  const auto files = inputs("preset");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    try {
      const Preset p = parse_preset(test::read_file(f), f.filename().string());
      EXPECT_EQ(parse_preset(preset_to_toml(p)), p) << f;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(f.filename().string() + ":", 0), 0u) << e.what();
    }
  }
}

TEST(FuzzRegressions, SetInputsGiveACleanAnswer) {
  const auto files = inputs("set");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    Preset p;
    try {
      apply_override(p, test::read_file(f));
    } catch (const Error&) {
      EXPECT_EQ(p, Preset{}) << f;  // a refused override changes nothing
      continue;
    }
    EXPECT_EQ(parse_preset(preset_to_toml(p)), p) << f;
  }
}

}  // namespace
}  // namespace physarum
