// The window loading a preset of several species: the new simulation has them all (not species 0
// alone), a change of parameters or matrix goes in live, another number of species reallocates, the
// panel's Apply (rebuild) keeps them, and the picture blends their colours.
#include <gtest/gtest.h>

#include "gl_support.hpp"
#include "sim/preset.hpp"
#include "window/panel_values.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

TEST(WindowSpecies, LoadingASpeciesPresetPassesEverySpeciesThrough) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  SimOptions o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x48";
  o.agents = "2K";
  WindowCore core(o);
  ASSERT_EQ(core.backend().species_count(), 1);
  const std::string file = std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/braid.toml";
  Preset p = load_preset(file);
  p.run.size = {80, 48};
  p.run.agents = 4000;
  ASSERT_TRUE(core.apply_preset(p, file)) << core.message;
  ASSERT_EQ(core.backend().species_count(), 4);
  EXPECT_EQ(core.backend().species(), resolve_species(p.species, p.model, p.spawn.mode));

  // The matrix and one species' decay change: live, the simulation goes on.
  core.step();
  const uint64_t steps = core.backend().steps_done();
  Preset q = p;
  q.species.interaction[1] = -2.0f;
  q.species.list[2].model.decay = 0.2f;
  ASSERT_TRUE(core.apply_preset(q, file)) << core.message;
  EXPECT_EQ(core.backend().steps_done(), steps);
  EXPECT_EQ(core.backend().species().interaction[1], -2.0f);
  EXPECT_EQ(core.backend().species().list[2].model.decay, 0.2f);

  // The panel's Apply with another size keeps the four species and their parameters.
  RunParams run = q.run;
  run.size = {72, 40};
  core.rebuild(run, q.spawn);
  EXPECT_TRUE(core.message.empty()) << core.message;
  EXPECT_EQ(core.backend().size(), (Size{72, 40}));
  EXPECT_EQ(core.backend().species(), resolve_species(q.species, q.model, q.spawn.mode));

  // Drawn: the four channels in the texture, blended (many colours, not one palette ramp).
  test::Fbo fbo(72, 40);
  for (int i = 0; i < 20; ++i) core.step();
  core.render(72, 40);
  EXPECT_EQ(core.renderer().channels(), 4);

  // Back to one species: reallocated with one channel.
  Preset one = load_preset(std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/veins.toml");
  one.run.size = {64, 48};
  one.run.agents = 2000;
  ASSERT_TRUE(core.apply_preset(one, "veins.toml")) << core.message;
  EXPECT_EQ(core.backend().species_count(), 1);
  EXPECT_EQ(core.backend().model(), one.model);
}

// The panel's species tabs and matrix grid go through apply_species_edit: a new W entry, colour and
// species parameter reach the running backend without a restart; what the backend refuses (another
// number of species) is a toast and leaves everything as it was.
TEST(WindowSpecies, PanelEditsOfSpeciesAndMatrixGoInLiveOrAreRefusedWithAToast) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  SimOptions o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x48";
  o.agents = "2K";
  WindowCore core(o);
  const std::string file = std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/territories.toml";
  Preset p = load_preset(file);
  p.run.size = {64, 48};
  p.run.agents = 3000;
  ASSERT_TRUE(core.apply_preset(p, file)) << core.message;
  const int n = core.backend().species_count();
  ASSERT_GE(n, 2);
  core.step();
  const uint64_t steps = core.backend().steps_done();

  Toasts toasts;
  SpeciesSet edited = core.backend().species();
  edited.interaction[1] = 4.5f;
  edited.list[1].colour = 0x123456U;
  edited.list[0].model.sensor_distance = 12.0f;
  ASSERT_TRUE(apply_species_edit(core, edited, toasts));
  EXPECT_TRUE(toasts.entries().empty());
  EXPECT_EQ(core.backend().species(), edited);
  EXPECT_EQ(core.preset.species, edited);
  EXPECT_EQ(core.backend().steps_done(), steps);  // live: the run goes on

  SpeciesSet more = edited;
  more.list.push_back(more.list[0]);
  more.interaction.assign(static_cast<size_t>((n + 1) * (n + 1)), 1.0f);
  EXPECT_FALSE(apply_species_edit(core, more, toasts));
  ASSERT_EQ(toasts.entries().size(), 1U);
  EXPECT_TRUE(toasts.entries().front().error);
  EXPECT_NE(toasts.entries().front().text.find("species not changed"), std::string::npos);
  EXPECT_EQ(core.backend().species(), edited);
}

}  // namespace
}  // namespace physarum::app
