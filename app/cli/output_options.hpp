// Options that shape what a command writes, shared by the commands that take them: the output
// budget (render, export, atlas) and the deep stills' bits and samples (render).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace physarum::app {

// --output-budget SIZE on `cmd`, kDefaultOutputBudget (export/output_budget.hpp) unless given.
void add_output_budget_option(CLI::App& cmd, std::string& budget);

}  // namespace physarum::app
