// On the CPU backend a preset opens smaller, at its own density, and says so; a size or an agent
// count the user gives wins.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/cpu_fit_note.hpp"
#include "xvfb.hpp"

namespace {

namespace fs = std::filesystem;
using physarum::test::run_physarum;

physarum::test::ProcessResult open_braid(const physarum::test::XvfbServer& x,
                                         std::vector<std::string> extra) {
  std::vector<std::string> args{"--backend", "cpu",      "--preset", "braid",     "--frames",
                                "1",         "--window", "640x360",  "--no-vsync"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_physarum(args, physarum::test::temp_dir(),
                      {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}}, {"WAYLAND_DISPLAY"});
}

TEST(WindowE2e, CpuBackendOpensBraidSmallerAtItsDensityAndSaysWhat) {
  physarum::test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const physarum::Preset braid =
      physarum::load_preset(fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / "braid.toml");
  ASSERT_GT(braid.species.count(), 1);
  // The documented budget by hand: 4.5M agent-step equivalents a second at 15 frames a second,
  // an agent's step half a step more per further species, a cell's update per channel a tenth
  // of a step, one step a frame.
  const double cells = static_cast<double>(braid.run.size.width) * braid.run.size.height;
  const double species = braid.species.count();
  const double work =
      static_cast<double>(braid.run.agents) * (1.0 + 0.5 * (species - 1.0)) + 0.1 * cells * species;
  const double side = std::sqrt(4.5e6 / 15.0 / work);
  ASSERT_LT(side, 1.0) << "braid fits the budget at full size: the test needs a larger preset";
  const long w = std::lround(braid.run.size.width * side), h = std::lround(braid.run.size.height * side);
  const std::string chosen = std::to_string(w) + "x" + std::to_string(h);

  const auto r = open_braid(x, {});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("CPU backend: starting at " + chosen + " with "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the preset asks " + physarum::format_size(braid.run.size) + " with " +
                       physarum::format_count(braid.run.agents) + " agents"),
            std::string::npos)
      << r.out;

  const auto sized = open_braid(x, {"--size", "320x180"});
  EXPECT_EQ(sized.exit_code, 0) << sized.err << sized.out;
  EXPECT_EQ(sized.out.find("starting at"), std::string::npos) << sized.out;
  const auto set = open_braid(x, {"--set", "run.agents=20K"});
  EXPECT_EQ(set.exit_code, 0) << set.err << set.out;
  EXPECT_EQ(set.out.find("starting at"), std::string::npos) << set.out;
}

}  // namespace

namespace physarum::app {
namespace {

// A preset opened from the panel's gallery on the CPU is fitted like the one the window starts with:
// smaller, at the same density; on the GPU it opens as it is.
TEST(WindowCpuFit, APresetOpenedFromThePanelOnTheCpuKeepsItsDensityAtASmoothSize) {
  const Preset braid = load_preset(fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / "braid.toml");
  Preset on_gpu = braid;
  EXPECT_FALSE(fit_preset_for_cpu(on_gpu, BackendKind::Cuda, 1));
  EXPECT_EQ(on_gpu, braid);
  Preset on_cpu = braid;
  const std::optional<run::AreaFit> fit = fit_preset_for_cpu(on_cpu, BackendKind::Cpu, 1);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->full, braid.run);
  EXPECT_EQ(on_cpu.run, fit->run);
  const auto cells = [](const RunParams& r) { return static_cast<double>(r.size.width) * r.size.height; };
  EXPECT_LT(cells(on_cpu.run), cells(braid.run) / 2) << "1920x1080 with 1M agents is far past 15 fps";
  EXPECT_NEAR(static_cast<double>(on_cpu.run.agents) / cells(on_cpu.run),
              static_cast<double>(braid.run.agents) / cells(braid.run),
              0.05 * static_cast<double>(braid.run.agents) / cells(braid.run));
  EXPECT_NEAR(static_cast<double>(on_cpu.run.size.width) / on_cpu.run.size.height, 16.0 / 9.0, 0.01);
  EXPECT_EQ(on_cpu.model, braid.model);
  // Several steps a frame cost as many times the work: smaller still.
  Preset fast = braid;
  ASSERT_TRUE(fit_preset_for_cpu(fast, BackendKind::Cpu, 4));
  EXPECT_LT(cells(fast.run), cells(on_cpu.run));
}

}  // namespace
}  // namespace physarum::app
