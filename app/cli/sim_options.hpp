// The options every simulating command shares (--preset, --size, --agents, --seed, --image,
// --backend, --threads, --set): they fill a recipe (run/recipe.hpp) that the run library resolves.
#pragma once

#include "run/recipe.hpp"

namespace CLI {
class App;
}

namespace physarum::app {

void add_sim_options(CLI::App& cmd, run::Recipe& o);

// "physarum: 640x360 with 60K agents (the preset is made at ...)" on stderr, once per run, when the
// recipe chose a size or agent count the preset does not state (run::resolve's `chosen`).
void say_chosen(const std::string& chosen);

}  // namespace physarum::app
