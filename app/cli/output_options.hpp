// Options that shape what a command writes, shared by the commands that take them: the output
// budget (render, export, atlas) and the deep stills' bits and samples (render).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace physarum::app {

struct DeepStillOptions;

// --output-budget SIZE on `cmd`, kDefaultOutputBudget (export/output_budget.hpp) unless given.
void add_output_budget_option(CLI::App& cmd, std::string& budget);

// --depth 8|16 and --exr-type half|float: the deep stills' bits and samples
// (export_pipeline/output_formats.hpp).
void add_deep_still_options(CLI::App& cmd, DeepStillOptions& o);

}  // namespace physarum::app
