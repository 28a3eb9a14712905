// "Render at 4x detail" from the window: the live preset grown again by the program itself, headless,
// K times finer; the picture is the one `physarum render --scale K` makes of the same recipe.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "png_image.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/detail_render.hpp"

namespace fs = std::filesystem;
using namespace physarum;
using namespace physarum::app;

TEST(DetailRenderArgs, TheChildRendersTheRecipeAtTheScaleUpToTheStepOnTheWindowsBackend) {
  EXPECT_EQ(detail_render_argv("/bin/physarum", "a b.toml", 120, 4, "cuda", "p-4x.png"),
            (std::vector<std::string>{"/bin/physarum", "render", "--preset", "a b.toml", "--scale", "4",
                                      "--steps", "120", "--backend", "cuda", "--out", "p-4x.png"}));
  // A window that has not stepped yet still gets a picture of the start.
  EXPECT_EQ(detail_render_argv("p", "r.toml", 0, 2, "cpu", "x.png")[7], "1");
}

namespace {

// Waits for the render (a small one: seconds) and returns how it ended.
DetailRender::Ended wait_for(DetailRender& d) {
  for (int i = 0; i < 1200; ++i) {
    if (auto e = d.poll()) return *e;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return {false, "still running after 120 s"};
}

Preset small_preset() {
  Preset p;
  p.run.size = {64, 36};
  p.run.agents = 1500;
  p.run.seed = 7;
  p.model.decay = 0.07f;  // an edit made in the window: it is part of the recipe
  return p;
}

}  // namespace

TEST(DetailRenderCli, TheWindowsDetailRenderIsTheCommandLinesOfTheSameRecipe) {
  test::expect_labelled_end_to_end("runs the program");
  const fs::path dir = test::temp_dir();
  const char* had = std::getenv("EGL_PLATFORM");
  const std::string before = had ? had : "";
  ::setenv("EGL_PLATFORM", "surfaceless", 1);
  DetailRender d;
  const Preset p = small_preset();
  ASSERT_EQ(d.start(p, 30, 2, "cpu", dir / "w-2x.png", PHYSARUM_EXE), "");
  EXPECT_TRUE(d.running());
  EXPECT_NE(d.status().find("w-2x.png at 2x detail"), std::string::npos) << d.status();
  EXPECT_NE(d.start(p, 30, 2, "cpu", dir / "again.png", PHYSARUM_EXE), "") << "one at a time";
  const DetailRender::Ended e = wait_for(d);
  if (had)
    ::setenv("EGL_PLATFORM", before.c_str(), 1);
  else
    ::unsetenv("EGL_PLATFORM");
  ASSERT_TRUE(e.ok) << e.message;
  EXPECT_NE(e.message.find("w-2x.png"), std::string::npos) << e.message;
  EXPECT_FALSE(d.running());
  // The recipe beside the picture is the live preset.
  EXPECT_EQ(preset_to_toml(load_preset(dir / "w-2x.toml")), preset_to_toml(p));
  const test::RgbaImage w = test::load_rgba_png(dir / "w-2x.png");
  EXPECT_EQ(w.w, 128);
  EXPECT_EQ(w.h, 72);
  const auto r = test::run_physarum({"render", "--preset", "w-2x.toml", "--scale", "2", "--steps", "30",
                                     "--backend", "cpu", "--out", "cli.png"},
                                    dir, {{"EGL_PLATFORM", "surfaceless"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(dir / "w-2x.png"), test::read_file(dir / "cli.png"));
}

TEST(DetailRenderCli, AFailedRenderSaysWhyWithTheProgramsLastWords) {
  test::expect_labelled_end_to_end("runs the program");
  const fs::path dir = test::temp_dir();
  DetailRender d;
  Preset p = small_preset();
  // A scale the program refuses: the child exits 2 and says which value.
  ASSERT_EQ(d.start(p, 5, 99, "cpu", dir / "x.png", PHYSARUM_EXE), "");
  const DetailRender::Ended e = wait_for(d);
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.message.find("exit status 2"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("99"), std::string::npos) << e.message;
  EXPECT_FALSE(fs::exists(dir / "x.png"));
  // A recipe that cannot be written starts nothing.
  EXPECT_NE(d.start(p, 5, 2, "cpu", dir / "no" / "such" / "x.png", PHYSARUM_EXE), "");
  EXPECT_FALSE(d.running());
}
