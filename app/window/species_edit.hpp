// Adding and removing species in the panel. Another number of species needs new agents and
// channels, so these edits wait in a plan until "Apply" while the species that stay keep being
// edited live; Apply then merges the plan with the live values of the moment (merged_species).
// Plain data and functions: the tests drive them without ImGui.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/params.hpp"

namespace physarum::app {

// What a new species senses of the others' trails, and they of its: a mild avoidance, so the new
// colour carves room of its own instead of vanishing into an existing network.
inline constexpr float kNewInteraction = -0.5f;

// One species of the set Apply will build.
struct PlannedSpecies {
  int origin = -1;        // the live species it is (its values are read at Apply), or -1: a new one
  Species fresh;          // a new species' values; for a live one only its name and colour, and only
  bool recolour = false;  // when this is set (the lone species of a one-species preset gets a colour)
};

struct SpeciesPlan {
  std::vector<PlannedSpecies> entries;
};

// The plan that changes nothing: every live species in order.
SpeciesPlan unchanged_plan(const SpeciesSet& live);
// Whether Apply would change the set (an added or removed species, or a recoloured one).
bool plan_changes(const SpeciesPlan& plan, const SpeciesSet& live);
// Whether the plan still fits the live set (its origins exist): a preset loaded since makes it stale.
bool plan_fits(const SpeciesPlan& plan, const SpeciesSet& live);

// A new species like planned entry `like` (its model, spawn mode and share), with a colour and a
// name no other species has. False (nothing changed) when the plan already has kMaxSpecies.
bool plan_add(SpeciesPlan& plan, const SpeciesSet& live, int like);
// Drops planned entry `index`. False (nothing changed) when it is the last one or out of range.
bool plan_remove(SpeciesPlan& plan, int index);

// The set Apply builds: the live values of every kept species and of W among them; a new species'
// row and column are 1 on the diagonal and kNewInteraction elsewhere. Never empty.
SpeciesSet merged_species(const SpeciesPlan& plan, const SpeciesSet& live);

}  // namespace physarum::app
