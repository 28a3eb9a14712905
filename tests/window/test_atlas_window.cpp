// The window's Atlas (window/atlas_window.hpp) without a display: the grid's recipes, the tile under
// a point, the hover text, a click that loads a tile and the undo that takes it back, the worlds grown
// in the background; and Explore's previews grown together as each grows alone.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "render/palette.hpp"
#include "run/run.hpp"
#include "test_support.hpp"
#include "window/atlas_window.hpp"
#include "window/explore.hpp"
#include "window/frame_windows.hpp"
#include "window/history.hpp"

namespace physarum::app {
namespace {

AtlasSettings small_settings() {
  AtlasSettings s;
  s.x = {"model.sensor_angle_deg", 10, 60, 6};
  s.y = {"model.rotation_angle_deg", 20, 70, 4};
  s.steps = 12;
  return s;
}

Preset small_preset() {
  Preset p;
  p.run.size = {64, 48};
  p.run.agents = 2000;
  return p;
}

TEST(AtlasWindow, TheRecipeOfEachTileHasTheGridsValuesAtTheTileSize) {
  const Preset live = small_preset();
  const AtlasGrid g = make_atlas_grid(live, small_settings());
  const std::vector<run::Recipe> recipes = atlas_recipes(g);
  ASSERT_EQ(recipes.size(), 24u);
  // The live preset's agents per cell, at least one.
  const auto agents = static_cast<uint32_t>(std::llround(2000.0 * 128 * 128 / (64.0 * 48)));
  for (int iy = 0; iy < 4; ++iy) {
    for (int ix = 0; ix < 6; ++ix) {
      const Preset p = run::resolve(recipes[static_cast<size_t>(iy * 6 + ix)]);
      EXPECT_EQ(p.model.sensor_angle_deg, static_cast<float>(10 + 10 * ix)) << ix << "," << iy;
      EXPECT_EQ(p.model.rotation_angle_deg, static_cast<float>(20 + 50.0 * iy / 3)) << ix << "," << iy;
      EXPECT_EQ(p.model.decay, live.model.decay);
      EXPECT_EQ(p.run.size, (Size{128, 128}));
      EXPECT_EQ(p.run.agents, agents);
    }
  }
}

TEST(AtlasWindow, ABadGridIsRefusedNamingTheValue) {
  const Preset live = small_preset();
  const auto refused = [&](const AtlasSettings& s) {
    try {
      (void)make_atlas_grid(live, s);
    } catch (const run::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("not refused");
  };
  AtlasSettings s = small_settings();
  s.x.count = 1;
  EXPECT_NE(refused(s).find("x count 1 is outside 2 to 12"), std::string::npos) << refused(s);
  s.x.count = 13;
  EXPECT_NE(refused(s).find("count 13"), std::string::npos) << refused(s);
  s = small_settings();
  s.steps = 0;
  EXPECT_NE(refused(s).find("steps 0"), std::string::npos) << refused(s);
  s = small_settings();
  s.y.key = "run.seed";
  EXPECT_NE(refused(s).find("run.seed changes the run itself"), std::string::npos) << refused(s);
  s.y.key = "model.turn_rule";
  EXPECT_NE(refused(s).find("model.turn_rule is a"), std::string::npos) << refused(s);
  s = small_settings();
  s.x.to = 500;  // past the sensor angle's range
  EXPECT_NE(refused(s).find("model.sensor_angle_deg = 206 is out of range"), std::string::npos) << refused(s);
}

TEST(AtlasWindow, TheKeysOfferedAreTheNumbersOutsideRunAndEachSpeciesOwn) {
  const std::vector<std::string> keys = atlas::sweepable_keys(small_preset());
  const auto has = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
  EXPECT_TRUE(has("model.sensor_angle_deg"));
  EXPECT_TRUE(has("model.decay"));
  EXPECT_FALSE(has("run.agents"));
  EXPECT_FALSE(has("model.turn_rule"));
  EXPECT_FALSE(has("display.palette"));
  Preset two = small_preset();
  two.species.list.resize(2);
  two.species.list[0].name = "a";
  two.species.list[1].name = "b";
  two.species.interaction = {1, 0, 0, 1};
  const std::vector<std::string> both = atlas::sweepable_keys(two);
  EXPECT_NE(std::find(both.begin(), both.end(), "species.1.decay"), both.end());
  for (const std::string& k : keys)
    EXPECT_NO_THROW((void)atlas::parse_axis("x", k + "=1:2:2", small_preset())) << k;
}

TEST(AtlasWindow, ThePointUnderTheMouseNamesItsTileWithTheLowestYAtTheBottom) {
  const AtlasGrid g = make_atlas_grid(small_preset(), small_settings());
  const atlas::MosaicLayout l = atlas_screen_layout(g, 50);
  int ix = -1, iy = -1;
  ASSERT_TRUE(l.tile_at(0, 0, &ix, &iy));
  EXPECT_EQ(ix, 0);
  EXPECT_EQ(iy, 3) << "the top row holds the highest y";
  ASSERT_TRUE(l.tile_at(299, 199, &ix, &iy));
  EXPECT_EQ(ix, 5);
  EXPECT_EQ(iy, 0);
  ASSERT_TRUE(l.tile_at(120, 60, &ix, &iy));
  EXPECT_EQ(ix, 2);
  EXPECT_EQ(iy, 2);
  EXPECT_FALSE(l.tile_at(300, 10, &ix, &iy));
  EXPECT_FALSE(l.tile_at(10, 200, &ix, &iy));
  EXPECT_FALSE(l.tile_at(-1, 10, &ix, &iy));
}

TEST(AtlasWindow, TheTooltipNamesBothKeysWithTheTilesValuesAndUnits) {
  const AtlasGrid g = make_atlas_grid(small_preset(), small_settings());
  const std::string t = atlas_tooltip(g, 2, 3);
  EXPECT_EQ(t, "model.sensor_angle_deg = 30 deg\nmodel.rotation_angle_deg = 70 deg");
  AtlasSettings s = small_settings();
  s.y = {"model.decay", 0.01, 0.1, 3};
  EXPECT_EQ(atlas_tooltip(make_atlas_grid(small_preset(), s), 0, 1),
            "model.sensor_angle_deg = 10 deg\nmodel.decay = 0.055");
}

TEST(AtlasWindow, AClickLoadsTheTilesValuesAtTheLiveSizeAndUndoBringsTheOldOnesBack) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe r;
  r.backend = "cpu";
  r.threads = 1;
  r.size = "64x48";
  r.agents = "2K";
  WindowCore core(r);
  ParamHistory history;
  history.reset(core.preset);
  const Preset before = core.preset;
  const AtlasGrid g = make_atlas_grid(core.preset, small_settings());
  core.backend().step(5);
  ASSERT_TRUE(load_atlas_tile(core, g, 4, 1));
  EXPECT_EQ(core.preset.model.sensor_angle_deg, 50.0f);
  EXPECT_EQ(core.preset.model.rotation_angle_deg, static_cast<float>(20 + 50.0 / 3));
  EXPECT_EQ(core.field_size(), (Size{64, 48})) << "the main run keeps its size";
  EXPECT_EQ(core.preset.run.agents, 2000u);
  EXPECT_EQ(core.backend().steps_done(), 0u) << "grown from the start, as the tile was";
  EXPECT_TRUE(history.observe(core.preset, false)) << "one undo step";
  // The window's undo: the preset before, applied as a preset load is.
  const std::optional<Preset> back = history.undo(core.preset);
  ASSERT_TRUE(back);
  ASSERT_TRUE(core.apply_preset(*back, core.preset_file));
  EXPECT_EQ(core.preset.model, before.model);
  EXPECT_FALSE(differ_as_edits(core.preset, before));
  const std::optional<Preset> again = history.redo(core.preset);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->model.sensor_angle_deg, 50.0f);
}

// Waits for the grower to finish (or a minute) and returns its last pictures.
AtlasGrower::Snapshot wait_for(AtlasGrower& grower) {
  for (int i = 0; i < 1200 && grower.growing(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return grower.take_if_newer(0);
}

TEST(AtlasWindow, TheGrowerDrawsEachTileAsItsWorldGrowsAloneAndCanBeCancelled) {
  AtlasSettings s = small_settings();
  s.x.count = 2;
  s.y.count = 2;
  const AtlasGrid g = make_atlas_grid(small_preset(), s);
  const render::Palette grey = render::greyscale_palette();
  AtlasGrower grower;
  grower.start(g, grey, 2);
  const AtlasGrower::Snapshot done = wait_for(grower);
  ASSERT_FALSE(grower.growing());
  EXPECT_EQ(done.error, "");
  EXPECT_EQ(done.steps_done, 12u);
  ASSERT_EQ(done.tiles.size(), 4u);
  const std::vector<run::Recipe> recipes = atlas_recipes(g);
  for (size_t i = 0; i < 4; ++i) {
    run::Run alone(recipes[i]);  // on the backend the grower chose: a batched world is its run alone
    alone.step(12);
    std::vector<float> field;
    alone.backend().read_field(field);
    const PreviewImage want =
        colour_preview(field, alone.backend().size(), alone.preset(), alone.backend().species(), grey);
    EXPECT_EQ(done.tiles[i].rgba, want.rgba) << "tile " << i;
  }
  // A long grid stops when asked, keeping what it drew.
  s.steps = 1000000;
  grower.start(make_atlas_grid(small_preset(), s), grey, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto asked = std::chrono::steady_clock::now();
  grower.cancel();
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(5));
  EXPECT_FALSE(grower.growing());
}

TEST(AtlasWindow, TheWindowFitsTheScreenAndItsLinesFitTheWindow) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    test::HeadlessImGui imgui(size.x, size.y);
    run::Recipe r;
    r.backend = "cpu";
    r.threads = 1;
    r.size = "64x48";
    r.agents = "2K";
    WindowCore core(r);
    PanelState panel;
    Toasts toasts;
    TimelineState timeline;
    ExploreStrip explore{1};
    AtlasWindow atlas;
    atlas.settings = small_settings();
    panel.layout.atlas_open = true;
    atlas.grow(core, toasts);
    for (int i = 0; i < 3; ++i) {
      ImGui::NewFrame();
      (void)draw_frame_windows(core, panel, toasts, timeline, explore, &atlas);
      ImGui::Render();
    }
    const ImGuiWindow* w = ImGui::FindWindowByName("Atlas");
    ASSERT_NE(w, nullptr);
    EXPECT_GE(w->Pos.x, 0.0f);
    EXPECT_LE(w->Pos.y + w->Size.y, size.y);
    EXPECT_LE(w->Pos.x + w->Size.x, size.x);
    EXPECT_LE(w->DC.CursorMaxPos.x, w->WorkRect.Max.x + 1.0f) << "a line runs past the edge";
    EXPECT_LE(w->DC.CursorMaxPos.y, w->WorkRect.Max.y + 1.0f) << "the mosaic runs past the bottom";
  }
}

TEST(ExplorePreviews, PreviewsGrownTogetherAreTheImagesEachGrowsAlone) {
  const render::Palette grey = render::greyscale_palette();
  std::vector<PreviewAsk> asks;
  for (uint64_t seed = 1; seed <= 3; ++seed) asks.push_back({explore_draw(Preset{}, seed, {}), grey});
  for (const int threads : {1, 2}) {
    const std::vector<PreviewImage> together = render_previews(asks, kPreviewSize, 40, threads, "cpu");
    ASSERT_EQ(together.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(together[i].rgba, render_preview(asks[i].preset, grey, kPreviewSize, 40).rgba)
          << "preview " << i << " on " << threads << " threads";
    }
  }
  // The worker grows what waits together (on any backend) and delivers each as it grows alone there.
  PreviewWorker worker;
  for (uint64_t i = 0; i < 3; ++i) worker.request(10 + i, asks[i].preset, grey);
  std::vector<PreviewWorker::Done> done;
  for (int i = 0; i < 1200 && done.size() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (PreviewWorker::Done& d : worker.take_done()) done.push_back(std::move(d));
  }
  ASSERT_EQ(done.size(), 3u);
  for (const PreviewWorker::Done& d : done) {
    const PreviewImage alone = render_previews({asks[d.id - 10]}, kPreviewSize, kPreviewSteps, 1).front();
    EXPECT_EQ(d.image.rgba, alone.rgba) << d.id;
  }
}

}  // namespace
}  // namespace physarum::app
