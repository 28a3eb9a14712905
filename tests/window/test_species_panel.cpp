// The panel's words and choices for several species: what a matrix cell means (row senses
// column, docs/MODEL.md), and which display keys apply to the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "sim/registry.hpp"
#include "window/species_panel.hpp"

namespace physarum::app {
namespace {

SpeciesSet two_species(float w01, float w10) {
  SpeciesSet s;
  s.list.resize(2);
  s.list[0].name = "orange";
  s.list[1].name = "blue";
  s.interaction = {1.0f, w01, w10, 0.0f};
  return s;
}

TEST(SpeciesPanel, AMatrixCellSaysWhichSpeciesSensesWhoseTrail) {
  // W[s][t] weighs species t's trail in what species s senses: row 0 is orange's sensing.
  const SpeciesSet s = two_species(-1.5f, 0.75f);
  EXPECT_EQ(interaction_meaning(s, 0, 1), "orange avoids blue's trail (-1.50)");
  EXPECT_EQ(interaction_meaning(s, 1, 0), "blue follows orange's trail (+0.75)");
  EXPECT_EQ(interaction_meaning(s, 0, 0), "orange follows its own trail (+1.00)");
  EXPECT_EQ(interaction_meaning(s, 1, 1), "blue ignores its own trail (+0.00)");
}

TEST(SpeciesPanel, SeveralSpeciesHideThePaletteUnlessACaveMapUsesIt) {
  EXPECT_TRUE(palette_shown(1, CaveMode::Off));
  EXPECT_FALSE(palette_shown(2, CaveMode::Off));
  EXPECT_FALSE(palette_shown(4, CaveMode::Off));
  for (CaveMode m : {CaveMode::Even, CaveMode::Quantile, CaveMode::Binary}) {
    EXPECT_TRUE(palette_shown(3, m));
    EXPECT_TRUE(cave_channel_shown(3, m));
    EXPECT_FALSE(cave_channel_shown(1, m));
  }
  EXPECT_FALSE(cave_channel_shown(3, CaveMode::Off));
}

TEST(SpeciesPanel, TheDisplayChoicesAreRegistryChoiceKeys) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(species_display_keys(1, CaveMode::Off), V{"background"});
  EXPECT_EQ(species_display_keys(2, CaveMode::Off), (V{"blend", "background"}));
  EXPECT_EQ(species_display_keys(2, CaveMode::Binary), V{"background"});
  // The panel draws them with the registry's choice widget: each must be one.
  for (std::string_view key : species_display_keys(2, CaveMode::Off)) {
    const registry::Param* p = registry::find(registry::Section::Display, key);
    ASSERT_NE(p, nullptr) << key;
    EXPECT_EQ(p->type, registry::Type::Choice) << key;
  }
}

}  // namespace
}  // namespace physarum::app
