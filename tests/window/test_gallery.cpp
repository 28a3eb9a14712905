// The Presets gallery and the Explore window driven without a display: thumbnails arrive from the
// background into the XDG cache and an edited preset is drawn again; Explore's locks hold in the
// running window while it draws and mutates. WindowCore and textures through EGL (llvmpipe).
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <thread>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "render/palette.hpp"
#include "run/preset_library.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/explore_strip.hpp"
#include "window/gallery.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

long files_in(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  return std::distance(fs::directory_iterator(dir), fs::directory_iterator());
}

TEST(Gallery, ThumbnailsArriveFromTheBackgroundAndAnEditedPresetIsDrawnAgain) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const fs::path root = test::temp_dir();
  test::ScopedEnv cache("XDG_CACHE_HOME", (root / "cache").string());
  const fs::path thumbs = root / "cache" / "physarum" / "thumbnails";
  const std::string tiny = "# Tiny.\n[run]\nsize = \"64x36\"\nagents = 2000\n";
  fs::create_directories(root / "presets");
  test::write_file(root / "presets" / "a.toml", tiny);
  test::write_file(root / "presets" / "b.toml", tiny + "[model]\ndecay = 0.03\n");
  const auto presets = run::list_presets({}, root / "presets");
  ASSERT_EQ(presets.size(), 2u);
  render::PaletteSet palettes;
  palettes.palettes.push_back(render::greyscale_palette());

  test::HeadlessImGui imgui;
  Gallery gallery;
  const auto frame = [&] {
    ImGui::NewFrame();
    ImGui::Begin("panel");
    const int clicked = gallery.draw(presets, palettes, "");
    ImGui::End();
    ImGui::Render();
    return clicked;
  };
  const auto settle = [&] {
    for (int i = 0; i < 3000 && gallery.pending() > 0; ++i) {
      EXPECT_EQ(frame(), -1);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  EXPECT_EQ(frame(), -1);
  EXPECT_EQ(gallery.pending(), 2u);  // asked for at once; the frame did not wait for them
  settle();
  EXPECT_EQ(gallery.pending(), 0u);
  EXPECT_EQ(files_in(thumbs), 2);

  // An edit on disk (a later modification time) is noticed within a few seconds and drawn again.
  test::write_file(root / "presets" / "a.toml", tiny + "[model]\ndecay = 0.05\n");
  fs::last_write_time(root / "presets" / "a.toml", fs::file_time_type::clock::now() + std::chrono::hours(1));
  for (int i = 0; i < 600 && gallery.pending() == 0; ++i) {
    frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(gallery.pending(), 1u);
  settle();
  EXPECT_EQ(files_in(thumbs), 3);
}

TEST(ExploreWindow, LockedValuesHoldWhileTheWindowDrawsAndMutates) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x36";
  o.agents = "1K";
  WindowCore core(o);
  Toasts toasts;
  ExploreStrip strip(5);
  strip.locks = {"model.decay", "model.jitter"};
  const ModelParams before = core.preset.model;
  strip.explore(core, toasts);
  EXPECT_EQ(core.preset.model.decay, before.decay);
  EXPECT_EQ(core.preset.model.jitter, before.jitter);
  EXPECT_NE(core.preset.model.sensor_distance, before.sensor_distance);
  const ModelParams drawn = core.preset.model;
  strip.mutate_amount = 0.5f;
  strip.mutate(core, toasts);
  EXPECT_EQ(core.preset.model.decay, before.decay);
  EXPECT_EQ(core.preset.model.jitter, before.jitter);
  EXPECT_NE(core.preset.model, drawn);
  EXPECT_EQ(core.backend().model(), core.preset.model) << "the mutation runs";
  // A bad amount is refused by name and changes nothing.
  const ModelParams mutated = core.preset.model;
  strip.mutate_amount = 2;
  strip.mutate(core, toasts);
  EXPECT_EQ(core.preset.model, mutated);
  ASSERT_FALSE(toasts.entries().empty());
  EXPECT_TRUE(toasts.entries().back().error);
  EXPECT_NE(toasts.entries().back().text.find("amount 2 "), std::string::npos)
      << toasts.entries().back().text;
}

// "Draw 12": a whole strip of draws from the next seeds, none applied (the run keeps its values),
// each labelled with its seed; the next Explore goes on from the seed after them.
TEST(ExploreWindow, DrawTwelveFillsTheStripWithTheNextSeedsAndAppliesNone) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x36";
  o.agents = "1K";
  WindowCore core(o);
  Toasts toasts;
  ExploreStrip strip(5);
  const Preset before = core.preset;
  strip.explore_strip(core, toasts);
  EXPECT_EQ(core.preset, before);
  const std::vector<std::string> labels = strip.strip_labels();
  ASSERT_EQ(labels.size(), ExploreStrip::kStrip);
  EXPECT_EQ(labels.front(), "explore-5");
  EXPECT_EQ(labels.back(), "explore-16");
  ASSERT_FALSE(toasts.entries().empty());
  EXPECT_NE(toasts.entries().back().text.find("seeds 5 to 16"), std::string::npos)
      << toasts.entries().back().text;
  strip.explore(core, toasts);  // the next draw is seed 17, and it runs
  EXPECT_EQ(strip.strip_labels().back(), "explore-17");
  EXPECT_EQ(core.preset.model, explore_draw(before, 17, {}, {}).model);
}

TEST(ExploreWindow, SaveAndFavouriteWriteWhatRunsAndFavouritesComeBackOnceNextSession) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const fs::path root = test::temp_dir();
  test::ScopedEnv config("XDG_CONFIG_HOME", (root / "config").string());
  test::ScopedEnv data("XDG_DATA_HOME", (root / "data").string());
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x36";
  o.agents = "1K";
  WindowCore core(o);
  Toasts toasts;
  {
    ExploreStrip strip(40);
    strip.explore(core, toasts);
    strip.save_current(core, toasts);
    const fs::path saved = root / "config" / "physarum" / "presets" / "explore-40.toml";
    ASSERT_TRUE(fs::is_regular_file(saved)) << toasts.entries().back().text;
    EXPECT_NE(toasts.entries().back().text.find("explore-40"), std::string::npos);
    EXPECT_EQ(load_preset(saved), core.preset);
    strip.favourite_current(core, toasts);
    strip.favourite_current(core, toasts);
    EXPECT_EQ(strip.favourite_count(), 2u);
  }
  const fs::path favs = root / "data" / "physarum" / "favourites";
  EXPECT_EQ(files_in(favs), 2);
  ExploreStrip next(50);  // a new session lists the saved ones, once each, before the new one
  next.favourite_current(core, toasts);
  EXPECT_EQ(next.favourite_count(), 3u);
  EXPECT_EQ(files_in(favs), 3);
}

}  // namespace
}  // namespace physarum::app
