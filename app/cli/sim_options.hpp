// The options every simulating command shares (--preset, --size, --agents, --seed, --image,
// --backend, --threads, --set): they fill a recipe (run/recipe.hpp) that the run library resolves.
#pragma once

#include "run/recipe.hpp"

namespace CLI {
class App;
}

namespace physarum::app {

void add_sim_options(CLI::App& cmd, run::Recipe& o);

}  // namespace physarum::app
