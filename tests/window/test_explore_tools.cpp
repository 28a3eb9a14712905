// Explore's tools without a window: morphing between two parameter sets (and as a story), locks
// and mutation, saving a result as a preset, favourites, and the gallery's thumbnail cache.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "run/preset_library.hpp"
#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/explore.hpp"
#include "window/explore_favourites.hpp"
#include "window/explore_morph.hpp"
#include "window/thumbnails.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;
using test::ScopedEnv;

const std::vector<std::string> kPalettes = {"inferno", "magma", "viridis"};

// Two parameter sets that differ in every kind of value.
std::pair<Preset, Preset> two_sets() {
  Preset a = explore_draw(Preset{}, 11, kPalettes);
  Preset b = explore_draw(Preset{}, 12, kPalettes);
  a.display.palette = "inferno";
  b.display.palette = "viridis";
  a.display.exposure = 1.0f;
  b.display.exposure = 2.5f;
  a.display.levels = 3;
  b.display.levels = 8;
  a.run.agents = 1000;
  b.run.agents = 2001;
  a.display.invert = false;
  b.display.invert = true;
  return {a, b};
}

float mid(float a, float b) {
  return static_cast<float>((static_cast<double>(a) + static_cast<double>(b)) / 2);
}

TEST(ExploreMorph, EndsAreTheTwoSetsAndTheMiddleIsTheMidpointOfEachNumber) {
  const auto [a, b] = two_sets();
  EXPECT_EQ(morph(a, b, 0), a);
  EXPECT_EQ(morph(a, b, 1), b);
  const Preset m = morph(a, b, 0.5);
  EXPECT_EQ(m.model.sensor_angle_deg, mid(a.model.sensor_angle_deg, b.model.sensor_angle_deg));
  EXPECT_EQ(m.model.rotation_angle_deg, mid(a.model.rotation_angle_deg, b.model.rotation_angle_deg));
  EXPECT_EQ(m.model.sensor_distance, mid(a.model.sensor_distance, b.model.sensor_distance));
  EXPECT_EQ(m.model.step_size, mid(a.model.step_size, b.model.step_size));
  EXPECT_EQ(m.model.deposit, mid(a.model.deposit, b.model.deposit));
  EXPECT_EQ(m.model.decay, mid(a.model.decay, b.model.decay));
  EXPECT_EQ(m.model.diffuse, mid(a.model.diffuse, b.model.diffuse));
  EXPECT_EQ(m.model.jitter, mid(a.model.jitter, b.model.jitter));
  EXPECT_EQ(m.display.exposure, 1.75f);
  EXPECT_EQ(m.display.levels, 6);           // 5.5 rounds away from zero
  EXPECT_EQ(m.run.agents, 1501u);           // 1500.5
  EXPECT_EQ(m.display.palette, "viridis");  // not a number: the nearer side, B from 0.5 on
  EXPECT_TRUE(m.display.invert);
  const Preset early = morph(a, b, 0.25);
  EXPECT_EQ(early.display.palette, "inferno");
  EXPECT_FALSE(early.display.invert);
  EXPECT_EQ(early.display.exposure, 1.375f);
  EXPECT_EQ(early.model.decay, static_cast<float>(0.75 * a.model.decay + 0.25 * b.model.decay));
}

TEST(ExploreMorph, SpeciesMatricesMorphEntryByEntryAndOtherShapesTakeTheNearerSide) {
  const Preset two = parse_preset("[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\n", "two.toml");
  const Preset a = explore_draw(two, 3, kPalettes), b = explore_draw(two, 4, kPalettes);
  const Preset m = morph(a, b, 0.5);
  ASSERT_EQ(m.species.interaction.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(m.species.interaction[i], mid(a.species.interaction[i], b.species.interaction[i])) << i;
  }
  EXPECT_EQ(m.species.list[1].model.decay, mid(a.species.list[1].model.decay, b.species.list[1].model.decay));
  // One species against two: nothing corresponds, so the whole set is the nearer side's.
  const Preset one = explore_draw(Preset{}, 5, kPalettes);
  EXPECT_EQ(morph(one, a, 0.4), one);
  EXPECT_EQ(morph(one, a, 0.6), a);
}

TEST(ExploreMorph, APositionOutsideZeroToOneIsRefusedByName) {
  const auto [a, b] = two_sets();
  EXPECT_NE(test::error_of([&] { (void)morph(a, b, 1.5); }).find("1.5"), std::string::npos);
  EXPECT_NE(test::error_of([&] { (void)morph(a, b, std::nan("")); }).find("nan"), std::string::npos);
}

TEST(ExploreMorph, AsAStoryTheTwoSetsBecomeTwoKeyframes) {
  auto [a, b] = two_sets();
  a.run.agents = b.run.agents = 1000;
  Preset live = a;
  morph_story(live, a, b, 100, 400);
  ASSERT_EQ(live.keyframes.size(), 2u);
  EXPECT_EQ(live.keyframes[0].step, 100u);
  EXPECT_EQ(live.keyframes[1].step, 500u);
  EXPECT_EQ(preset_at(live, 100).model, a.model);
  EXPECT_EQ(preset_at(live, 500).model, b.model);
  EXPECT_EQ(preset_at(live, 900).display.exposure, b.display.exposure);
  // Half way the smooth step's weight is exactly one half.
  EXPECT_EQ(preset_at(live, 300).model.decay,
            static_cast<float>(a.model.decay + (static_cast<double>(b.model.decay) - a.model.decay) * 0.5));
  EXPECT_NO_THROW(validate(live));
  // A set with another number of species cannot be keyframes of this run: nothing changes.
  const Preset two = parse_preset("[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\n", "two.toml");
  const Preset before = live;
  EXPECT_NE(test::error_of([&] { morph_story(live, a, two, 0, 10); }).find("species"), std::string::npos);
  EXPECT_NE(test::error_of([&] { morph_story(live, a, b, 0, 0); }).find("step"), std::string::npos);
  EXPECT_EQ(live, before);
}

// The Explore range of every explored model key, written out here rather than read from the code
// under test (assets/presets/README.md lists the same).
struct Range {
  float ModelParams::*member;
  const char* lock;
  double lo, hi;
};
const Range kRanges[] = {
    {&ModelParams::sensor_angle_deg, "model.sensor_angle_deg", 10, 70},
    {&ModelParams::rotation_angle_deg, "model.rotation_angle_deg", 5, 100},
    {&ModelParams::sensor_distance, "model.sensor_distance", 4, 30},
    {&ModelParams::step_size, "model.step_size", 0.5, 2.5},
    {&ModelParams::deposit, "model.deposit", 0.5, 4},
    {&ModelParams::decay, "model.decay", 0.003, 0.1},
    {&ModelParams::diffuse, "model.diffuse", 0.05, 0.6},
    {&ModelParams::jitter, "model.jitter", 0, 0.4},
};

TEST(ExploreMutate, LockedKeysStayAndTheRestMoveWithinAmountTimesTheirRange) {
  const Preset base = explore_draw(Preset{}, 21, kPalettes);
  const ExploreLocks locks = {"model.decay", "model.sensor_angle_deg"};
  for (const double amount : {0.0, 0.1, 0.5, 1.0}) {
    size_t moved = 0;
    for (uint64_t seed = 0; seed < 50; ++seed) {
      const Preset m = explore_mutate(base, amount, seed, locks);
      EXPECT_EQ(m, explore_mutate(base, amount, seed, locks)) << "the same seed, the same result";
      EXPECT_EQ(m.display, base.display);
      EXPECT_EQ(m.run, base.run);
      for (const Range& r : kRanges) {
        const double was = base.model.*r.member, now = m.model.*r.member;
        if (locks.count(r.lock)) {
          EXPECT_EQ(now, was) << r.lock;
          continue;
        }
        EXPECT_LE(std::abs(now - was), amount * (r.hi - r.lo) * (1 + 1e-6) + 1e-7) << r.lock << " " << amount;
        moved += now != was;
      }
    }
    if (amount == 0) {
      EXPECT_EQ(moved, 0u);
    } else {
      EXPECT_GT(moved, 250u) << amount;  // 6 unlocked keys x 50 seeds
    }
  }
  EXPECT_NE(explore_mutate(base, 0.3, 1).model, explore_mutate(base, 0.3, 2).model);
}

TEST(ExploreMutate, AnAmountOutsideZeroToOneIsRefusedByName) {
  EXPECT_NE(test::error_of([] { (void)explore_mutate(Preset{}, 1.25, 1); }).find("1.25"), std::string::npos);
  EXPECT_NE(test::error_of([] { (void)explore_mutate(Preset{}, -0.5, 1); }).find("-0.5"), std::string::npos);
}

TEST(ExploreMutate, TheMatrixOffItsDiagonalMovesUnlessLocked) {
  const Preset two = explore_draw(
      parse_preset("[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\n", "two.toml"), 7, kPalettes);
  const Preset m = explore_mutate(two, 0.5, 3);
  EXPECT_EQ(m.species.interaction[0], 1.0f);
  EXPECT_EQ(m.species.interaction[3], 1.0f);
  EXPECT_NE(m.species.interaction[1], two.species.interaction[1]);
  EXPECT_LE(std::abs(m.species.interaction[1] - two.species.interaction[1]), 0.5 * 1.5 + 1e-6);
  EXPECT_EQ(explore_mutate(two, 0.5, 3, {"interaction.matrix"}).species.interaction, two.species.interaction);
}

TEST(ExploreMutate, LockedDrawsKeepTheBaseAndTheOthersDrawAsWithoutLocks) {
  const Preset base = explore_draw(Preset{}, 99, kPalettes);
  const ExploreLocks locks = {"model.deposit", "model.turn_rule"};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const Preset free = explore_draw(base, seed, kPalettes);
    Preset expected = free;
    expected.model.deposit = base.model.deposit;
    expected.model.turn_rule = base.model.turn_rule;
    EXPECT_EQ(explore_draw(base, seed, kPalettes, locks), expected) << seed;
  }
}

TEST(ExploreSave, SavingAResultWritesAPresetThatLoadsBackTheSameUnderAFreeName) {
  const fs::path dir = test::temp_dir() / "presets";
  const Preset p = explore_mutate(explore_draw(Preset{}, 17, kPalettes), 0.3, 5);
  const fs::path first = save_unique_preset(p, dir, "explore-17");
  const fs::path second = save_unique_preset(p, dir, "explore-17");
  EXPECT_EQ(first, dir / "explore-17.toml");
  EXPECT_EQ(second, dir / "explore-17-2.toml");
  EXPECT_EQ(load_preset(first), p);
  EXPECT_EQ(load_preset(second), p);
  // A name that is not a preset name is refused by name, and nothing is written.
  EXPECT_NE(test::error_of([&] { (void)save_unique_preset(p, dir, "../up"); }).find("../up"),
            std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
}

TEST(ExploreSave, FavouritesLiveInTheXdgDataFolderAndLoadBack) {
  const fs::path root = test::temp_dir();
  ScopedEnv data("XDG_DATA_HOME", (root / "data").string());
  EXPECT_EQ(favourites_dir(), root / "data" / "physarum" / "favourites");
  const Preset a = explore_draw(Preset{}, 1, kPalettes), b = explore_draw(Preset{}, 2, kPalettes);
  (void)save_unique_preset(a, favourites_dir(), "explore-1");
  (void)save_unique_preset(b, favourites_dir(), "explore-2");
  test::write_file(favourites_dir() / "broken.toml", "[model]\ndecay = 7\n");
  const auto favs = load_favourites(favourites_dir());
  ASSERT_EQ(favs.size(), 2u);
  EXPECT_EQ(favs[0].preset, a);
  EXPECT_EQ(favs[1].preset, b);
  ScopedEnv no_data("XDG_DATA_HOME", "relative/data");  // ignored: XDG folders are absolute
  ScopedEnv home("HOME", (root / "home").string());
  EXPECT_EQ(favourites_dir(), root / "home" / ".local" / "share" / "physarum" / "favourites");
}

const char* kTinyPreset = "# A tiny preset for thumbnails.\n[run]\nsize = \"64x36\"\nagents = 2000\n";

// A stand-in for the real grow: a picture that says which preset it was made from.
struct CountingMaker {
  int calls = 0;
  PreviewImage operator()(const Preset& p) {
    ++calls;
    PreviewImage img{8, 4, std::vector<uint8_t>(8 * 4 * 4, 255)};
    img.rgba[0] = static_cast<uint8_t>(p.run.agents % 251);
    return img;
  }
};

TEST(Thumbnails, TheCacheFolderFollowsXdgAndIsNeverRelative) {
  const fs::path root = test::temp_dir();
  {
    ScopedEnv cache("XDG_CACHE_HOME", (root / "cache").string());
    EXPECT_EQ(thumbnail_cache_dir(), root / "cache" / "physarum" / "thumbnails");
  }
  ScopedEnv home("HOME", (root / "home").string());
  {
    ScopedEnv cache("XDG_CACHE_HOME", std::nullopt);
    EXPECT_EQ(thumbnail_cache_dir(), root / "home" / ".cache" / "physarum" / "thumbnails");
  }
  ScopedEnv cache("XDG_CACHE_HOME", "cache");
  EXPECT_EQ(thumbnail_cache_dir(), root / "home" / ".cache" / "physarum" / "thumbnails");
  ScopedEnv no_home("HOME", std::nullopt);
  EXPECT_EQ(thumbnail_cache_dir(), fs::path());
}

TEST(Thumbnails, ASecondLookIsAHitAndAnEditedPresetIsMadeAgain) {
  const fs::path root = test::temp_dir();
  const fs::path preset = root / "tiny.toml", cache = root / "cache";
  test::write_file(preset, kTinyPreset);
  CountingMaker make;
  const auto maker = [&](const Preset& p) { return make(p); };
  const Thumbnail first = thumbnail_of(preset, cache, maker);
  EXPECT_FALSE(first.from_cache);
  EXPECT_EQ(make.calls, 1);
  EXPECT_TRUE(fs::is_regular_file(first.file));
  EXPECT_EQ(first.file.parent_path(), cache);
  const Thumbnail again = thumbnail_of(preset, cache, maker);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(make.calls, 1);
  EXPECT_EQ(again.image.rgba, first.image.rgba);
  EXPECT_EQ(again.image.rgba[0], 2000 % 251);
  // The preset changes on disk: another key, made again from the new content.
  test::write_file(preset, std::string(kTinyPreset) + "[model]\ndecay = 0.02\n");
  const Thumbnail edited = thumbnail_of(preset, cache, maker);
  EXPECT_FALSE(edited.from_cache);
  EXPECT_EQ(make.calls, 2);
  EXPECT_NE(edited.file, first.file);
  // A cached file that is not a PNG is made again rather than shown.
  test::write_file(edited.file, "not a png");
  EXPECT_FALSE(thumbnail_of(preset, cache, maker).from_cache);
  EXPECT_EQ(make.calls, 3);
  EXPECT_TRUE(thumbnail_of(preset, cache, maker).from_cache);
}

TEST(Thumbnails, WithoutACacheFolderNothingIsWrittenIntoTheCurrentDirectory) {
  const fs::path root = test::temp_dir();
  const fs::path work = root / "work";
  fs::create_directories(work);
  test::write_file(root / "tiny.toml", kTinyPreset);
  const fs::path was = fs::current_path();
  fs::current_path(work);
  ScopedEnv cache("XDG_CACHE_HOME", "relative-cache");
  ScopedEnv home("HOME", std::nullopt);
  CountingMaker make;
  const Thumbnail t =
      thumbnail_of(root / "tiny.toml", thumbnail_cache_dir(), [&](const Preset& p) { return make(p); });
  fs::current_path(was);
  EXPECT_EQ(make.calls, 1);
  EXPECT_FALSE(t.image.rgba.empty());
  EXPECT_TRUE(t.file.empty());
  EXPECT_TRUE(fs::is_empty(work));
}

TEST(Thumbnails, TheRealThumbnailIsTheSmallGrowOfThePresetWithItsMapsBesideIt) {
  const fs::path root = test::temp_dir();
  test::write_file(root / "tiny.toml", kTinyPreset);
  const Thumbnail t = thumbnail_of(root / "tiny.toml", root / "cache", [](const Preset& p) {
    return render_preview(p, render::greyscale_palette(), kThumbnailSize, kThumbnailSteps);
  });
  ASSERT_EQ(t.image.width, kThumbnailSize.width);
  ASSERT_EQ(t.image.height, kThumbnailSize.height);
  std::set<uint8_t> levels;
  for (size_t i = 0; i < t.image.rgba.size(); i += 4) levels.insert(t.image.rgba[i]);
  EXPECT_GT(levels.size(), 30u) << "something grew";
  EXPECT_EQ(thumbnail_of(root / "tiny.toml", root / "cache", CountingMaker{}).image.rgba, t.image.rgba);
  // Map paths are found beside the preset file, as `--preset` finds them.
  test::write_file(root / "mapped.toml", std::string(kTinyPreset) + "[environment]\nfood = \"food.png\"\n");
  fs::path seen;
  (void)thumbnail_of(root / "mapped.toml", {}, [&](const Preset& p) {
    seen = p.environment.food;
    return PreviewImage{};
  });
  EXPECT_EQ(seen, root / "food.png");
}

}  // namespace
}  // namespace physarum::app
