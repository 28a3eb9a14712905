// The window loading a preset of several species: the new simulation has them all (not species 0
// alone), a change of parameters or matrix goes in live, another number of species reallocates, the
// panel's Apply (rebuild) keeps them, and the picture blends their colours.
#include <gtest/gtest.h>

#include <set>

#include "gl_support.hpp"
#include "run/preset_library.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/panel_values.hpp"
#include "window/species_edit.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

TEST(WindowSpecies, LoadingASpeciesPresetPassesEverySpeciesThrough) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
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
  ASSERT_TRUE(core.apply_preset(p, file)) << core.notice();
  ASSERT_EQ(core.backend().species_count(), 4);
  EXPECT_EQ(core.backend().species(), resolve_species(p.species, p.model, p.spawn.mode));

  // The matrix and one species' decay change: live, the simulation goes on.
  core.step();
  const uint64_t steps = core.backend().steps_done();
  Preset q = p;
  q.species.interaction[1] = -2.0f;
  q.species.list[2].model.decay = 0.2f;
  ASSERT_TRUE(core.apply_preset(q, file)) << core.notice();
  EXPECT_EQ(core.backend().steps_done(), steps);
  EXPECT_EQ(core.backend().species().interaction[1], -2.0f);
  EXPECT_EQ(core.backend().species().list[2].model.decay, 0.2f);

  // The panel's Apply with another size keeps the four species and their parameters.
  RunParams run = q.run;
  run.size = {72, 40};
  const CommandResult rebuilt = core.rebuild(run, q.spawn);
  EXPECT_TRUE(rebuilt) << rebuilt.error();
  EXPECT_TRUE(core.notice().empty()) << core.notice();
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
  ASSERT_TRUE(core.apply_preset(one, "veins.toml")) << core.notice();
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
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x48";
  o.agents = "2K";
  WindowCore core(o);
  const std::string file = std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/territories.toml";
  Preset p = load_preset(file);
  p.run.size = {64, 48};
  p.run.agents = 3000;
  ASSERT_TRUE(core.apply_preset(p, file)) << core.notice();
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

// The panel's add and remove: planned, then applied at once by a reallocation. The new species
// copies the model of the one it is made like, gets a colour and name of its own, and its row and
// column of W are 1 on the diagonal and kNewInteraction elsewhere; a removed species takes its row
// and column along. Live edits made while the plan waits are kept. The saved preset round-trips.
TEST(WindowSpecies, AddAndRemoveSpeciesReallocateWithTheMatrixGrownAndShrunk) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x48";
  o.agents = "2K";
  WindowCore core(o);
  const std::string file = std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/territories.toml";
  Preset p = load_preset(file);
  p.run.size = {64, 48};
  p.run.agents = 3000;
  ASSERT_TRUE(core.apply_preset(p, file)) << core.notice();
  ASSERT_EQ(core.backend().species_count(), 2);
  ASSERT_EQ(p.species.interaction, (std::vector<float>{1.0f, -1.5f, -1.5f, 1.0f}));

  // Add a species like the second one; nothing changes until Apply.
  SpeciesPlan plan = unchanged_plan(core.backend().species());
  EXPECT_FALSE(plan_changes(plan, core.backend().species()));
  ASSERT_TRUE(plan_add(plan, core.backend().species(), 1));
  EXPECT_TRUE(plan_changes(plan, core.backend().species()));
  EXPECT_EQ(core.backend().species_count(), 2);
  // A live edit meanwhile (W[0][1]) is what Apply keeps.
  SpeciesSet live = core.backend().species();
  live.interaction[1] = 2.0f;
  Toasts toasts;
  ASSERT_TRUE(apply_species_edit(core, live, toasts));

  ASSERT_TRUE(core.apply_species_set(merged_species(plan, core.backend().species()))) << core.notice();
  const SpeciesSet three = core.backend().species();
  ASSERT_EQ(core.backend().species_count(), 3);
  EXPECT_EQ(core.backend().steps_done(), 0U);  // a new simulation
  const float a = kNewInteraction;
  EXPECT_EQ(three.interaction, (std::vector<float>{1.0f, 2.0f, a, -1.5f, 1.0f, a, a, a, 1.0f}));
  EXPECT_EQ(three.list[0], p.species.list[0]);
  EXPECT_EQ(three.list[1], p.species.list[1]);
  EXPECT_EQ(three.list[2].model, p.species.list[1].model);
  EXPECT_EQ(three.list[2].share, p.species.list[1].share);
  EXPECT_EQ(three.list[2].spawn, p.species.list[1].spawn);
  EXPECT_NE(three.list[2].colour, three.list[0].colour);
  EXPECT_NE(three.list[2].colour, three.list[1].colour);
  EXPECT_NE(three.list[2].name, three.list[0].name);
  EXPECT_NE(three.list[2].name, three.list[1].name);
  EXPECT_EQ(core.preset.species, three);
  // Three channels to draw, each fed by its agents.
  std::vector<float> field;
  for (int i = 0; i < 3; ++i) core.step();
  core.backend().read_field(field);
  ASSERT_EQ(field.size(), size_t{3} * 64 * 48);
  for (int c = 0; c < 3; ++c) {
    double sum = 0;
    for (size_t i = 0; i < size_t{64} * 48; ++i) sum += field[size_t(c) * 64 * 48 + i];
    EXPECT_GT(sum, 0.0) << "channel " << c;
  }
  test::Fbo fbo(64, 48);
  core.render(64, 48);
  EXPECT_EQ(core.renderer().channels(), 3);

  // The preset saved from the panel reads back as the same three species.
  const auto dir = test::temp_dir();
  const auto saved = run::save_user_preset(core.preset, dir, "three");
  const Preset back = load_preset(saved);
  EXPECT_EQ(back.species, three);
  EXPECT_EQ(back, core.preset);

  // Remove the first: its row and column go.
  plan = unchanged_plan(three);
  ASSERT_TRUE(plan_remove(plan, 0));
  ASSERT_TRUE(core.apply_species_set(merged_species(plan, core.backend().species()))) << core.notice();
  const SpeciesSet two = core.backend().species();
  ASSERT_EQ(core.backend().species_count(), 2);
  EXPECT_EQ(two.interaction, (std::vector<float>{1.0f, a, a, 1.0f}));
  EXPECT_EQ(two.list[0], three.list[1]);
  EXPECT_EQ(two.list[1], three.list[2]);

  // Down to one with W = [[1]]: a plain one-species preset again (its model, no [[species]]).
  plan = unchanged_plan(two);
  ASSERT_TRUE(plan_remove(plan, 1));
  EXPECT_FALSE(plan_remove(plan, 0));  // never none
  ASSERT_TRUE(core.apply_species_set(merged_species(plan, core.backend().species()))) << core.notice();
  EXPECT_EQ(core.backend().species_count(), 1);
  EXPECT_TRUE(core.preset.species.list.empty());
  EXPECT_EQ(core.preset.model, two.list[0].model);
  EXPECT_EQ(core.backend().model(), two.list[0].model);
  const Preset one_back = load_preset(run::save_user_preset(core.preset, dir, "one"));
  EXPECT_EQ(one_back, core.preset);
}

// From a one-species preset: its white, unnamed species gets a colour too, the second one
// another; at most kMaxSpecies, and every colour and name differs.
TEST(WindowSpecies, AddingToOneSpeciesColoursBothAndStopsAtTheMaximum) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "48x40";
  o.agents = "2K";
  o.preset = std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/veins.toml";
  WindowCore core(o);
  ASSERT_EQ(core.backend().species_count(), 1);
  const ModelParams model = core.preset.model;

  SpeciesPlan plan = unchanged_plan(core.backend().species());
  for (int i = 1; i < kMaxSpecies; ++i) ASSERT_TRUE(plan_add(plan, core.backend().species(), 0));
  EXPECT_FALSE(plan_add(plan, core.backend().species(), 0));
  ASSERT_TRUE(core.apply_species_set(merged_species(plan, core.backend().species()))) << core.notice();
  const SpeciesSet s = core.backend().species();
  ASSERT_EQ(core.backend().species_count(), kMaxSpecies);
  std::set<uint32_t> colours;
  std::set<std::string> names;
  for (const Species& sp : s.list) {
    EXPECT_EQ(sp.model, model);
    colours.insert(sp.colour);
    names.insert(sp.name);
  }
  EXPECT_EQ(colours.size(), size_t{kMaxSpecies});
  EXPECT_EQ(names.size(), size_t{kMaxSpecies});
  EXPECT_EQ(colours.count(0xffffffU), 0U);
  for (int r = 0; r < kMaxSpecies; ++r) {
    for (int c = 0; c < kMaxSpecies; ++c)
      EXPECT_EQ(s.interaction[size_t(r * kMaxSpecies + c)], r == c ? 1.0f : kNewInteraction) << r << "," << c;
  }
  // The size and agents stay those of the run.
  EXPECT_EQ(core.backend().size(), (Size{48, 40}));
  EXPECT_EQ(core.backend().agent_count(), 2000U);
}

}  // namespace
}  // namespace physarum::app
