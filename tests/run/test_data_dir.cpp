// Where the program finds its data, and --preset by name: the rules of sim/data_dir.hpp and
// run/include/run/preset_library.hpp, checked against real folders (the build tree's share/physarum links
// and scratch folders made here).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>

#include "run/preset_library.hpp"
#include "run/recipe.hpp"
#include "sim/data_dir.hpp"
#include "sim/params.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

namespace fs = std::filesystem;
using test::ScopedEnv;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(DataDir, TheTestProgramFindsTheBuildTreeMirrorNextToItself) {
  ::unsetenv("PHYSARUM_DATA_DIR");
  ::unsetenv("PHYSARUM_SHADER_DIR");
  const fs::path dir = data_dir(DataKind::shaders);
  EXPECT_EQ(dir, executable_path().parent_path().parent_path() / "share" / "physarum" / "shaders");
  EXPECT_TRUE(fs::exists(dir / "field_colour.comp"));
}

TEST(DataDir, DataDirVariableBeatsTheExecutableAndTheKindVariableBeatsBoth) {
  const fs::path root = test::temp_dir();
  fs::create_directories(root / "data" / "palettes");
  fs::create_directories(root / "only-palettes");
  {
    ScopedEnv data("PHYSARUM_DATA_DIR", (root / "data").string());
    EXPECT_EQ(data_dir(DataKind::palettes), root / "data" / "palettes");
    ScopedEnv kind("PHYSARUM_PALETTE_DIR", (root / "only-palettes").string());
    EXPECT_EQ(data_dir(DataKind::palettes), root / "only-palettes");
  }
  EXPECT_NE(data_dir(DataKind::palettes), root / "only-palettes");  // restored
}

TEST(DataDir, AVariablePointingNowhereIsReportedNotSkipped) {
  ScopedEnv data("PHYSARUM_DATA_DIR", "/nonexistent/physarum-data");
  try {
    data_dir(DataKind::presets);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("PHYSARUM_DATA_DIR=/nonexistent/physarum-data"), std::string::npos)
        << e.what();
  }
}

TEST(DataDirE2e, NotFoundNamesEveryPlaceItLooked) {
  // The bare executable, copied where no share/physarum lies beside it, must say where it looked.
  const fs::path root = test::temp_dir();
  fs::create_directories(root / "bin");
  fs::copy_file(PHYSARUM_EXE, root / "bin" / "physarum");
  fs::permissions(root / "bin" / "physarum", fs::perms::owner_exec, fs::perm_options::add);
  const auto r = test::run_physarum({"presets"}, root, {}, {"PHYSARUM_DATA_DIR", "PHYSARUM_PRESET_DIR"},
                                    (root / "bin" / "physarum").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("looked in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((root / "share" / "physarum" / "presets").string()), std::string::npos) << r.err;
}

TEST(PresetByName, UserPresetsShadowShippedOnesAndPathsAreTakenAsGiven) {
  const fs::path root = test::temp_dir();
  write(root / "shipped" / "coral.toml", "# shipped coral\n");
  write(root / "shipped" / "veins.toml", "# shipped veins\n");
  write(root / "config" / "physarum" / "presets" / "coral.toml", "# my coral\n");
  ScopedEnv shipped("PHYSARUM_PRESET_DIR", (root / "shipped").string());
  ScopedEnv config("XDG_CONFIG_HOME", (root / "config").string());
  EXPECT_EQ(run::find_preset("coral"), root / "config" / "physarum" / "presets" / "coral.toml");
  EXPECT_EQ(run::find_preset("veins"), root / "shipped" / "veins.toml");
  EXPECT_EQ(run::find_preset("somewhere/coral"), fs::path("somewhere/coral"));
  EXPECT_EQ(run::find_preset("coral.toml"), fs::path("coral.toml"));
  try {
    run::find_preset("corl");
    FAIL() << "expected an Error";
  } catch (const run::UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("no preset named 'corl'"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean coral? ('physarum presets' lists all 3)"), std::string::npos) << m;
    EXPECT_EQ(m.find("veins"), std::string::npos) << m;  // not close to "corl"
  }
}

// A large user folder: the message names a few close presets, nearest first, never the folder.
TEST(PresetByName, AnUnknownNameNamesAFewCloseOnesNotTheWholeFolder) {
  const fs::path root = test::temp_dir();
  const fs::path user = root / "config" / "physarum" / "presets";
  fs::create_directories(user);
  for (int i = 0; i < 3000; ++i) write(user / ("my-preset-number-" + std::to_string(i) + ".toml"), "");
  for (const char* name : {"coral", "corals", "coal", "moral", "cor"})
    write(root / "shipped" / (std::string(name) + ".toml"), "");
  ScopedEnv shipped("PHYSARUM_PRESET_DIR", (root / "shipped").string());
  ScopedEnv config("XDG_CONFIG_HOME", (root / "config").string());
  const auto message = [](const std::string& name) {
    try {
      run::find_preset(name);
    } catch (const run::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(found)");
  };
  const std::string m = message("corl");
  EXPECT_LT(m.size(), 500u) << m;
  // Distances: coral 1, coal 1, cor 1, corals 2, moral 2: the three at 1, by name.
  EXPECT_NE(m.find("did you mean coal, cor, coral? ('physarum presets' lists all 3005)"), std::string::npos)
      << m;
  EXPECT_EQ(m.find("my-preset"), std::string::npos) << m;
  const std::string none = message("zzzzzzzzzzzzzzzzzzzzzzz");
  EXPECT_EQ(none.find("did you mean"), std::string::npos) << none;
  EXPECT_NE(none.find("'physarum presets' lists all 3005"), std::string::npos) << none;
  EXPECT_LT(message(std::string(100000, 'q')).size(), 100000u + 500u);
}

TEST(PresetByName, SummaryIsTheFirstSentenceOfTheLeadingComment) {
  const fs::path root = test::temp_dir();
  write(root / "a.toml", "# Short and sweet. More words here\n# and here.\n[model]\n");
  write(root / "b.toml",
        "# A long description that keeps going well past the width we allow for one\n"
        "# line of the listing, so it is cut at a word.\n");
  write(root / "c.toml", "[model]\n# not leading\n");
  EXPECT_EQ(run::preset_summary(root / "a.toml"), "Short and sweet.");
  EXPECT_EQ(run::preset_summary(root / "b.toml", 40), "A long description that keeps going...");
  EXPECT_EQ(run::preset_summary(root / "c.toml"), "");
}

TEST(PresetByNameE2e, CommandLineTakesAShippedPresetByName) {
  const fs::path dir = test::temp_dir();
  const auto r = test::run_physarum({"run", "--preset", "coral", "--size", "64x48", "--agents", "500",
                                     "--steps", "2", "--backend", "cpu", "--out", (dir / "f.npy").string()},
                                    dir, {}, {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto bad = test::run_physarum(
      {"run", "--preset", "no-such-preset", "--steps", "1", "--out", (dir / "g.npy").string()}, dir, {}, {});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;  // a name is a value of the command line: a usage error
  EXPECT_NE(bad.err.find("physarum presets"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace physarum
