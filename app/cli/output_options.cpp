#include "cli/output_options.hpp"

#include <CLI/CLI.hpp>

#include "cli/decimal_option.hpp"
#include "export/output_budget.hpp"

namespace physarum::app {

void add_output_budget_option(CLI::App& cmd, std::string& budget) {
  budget = kDefaultOutputBudget;
  cmd.add_option("--output-budget", budget,
                 "Refuse to start when the outputs, estimated from the options before the run, would take "
                 "more than SIZE on disk or in memory (e.g. 512MB, 4GB, 1.5TB; KiB, MiB, GiB for powers of "
                 "1024)")
      ->type_name("SIZE")
      ->check(byte_size())
      ->capture_default_str();
}

}  // namespace physarum::app
