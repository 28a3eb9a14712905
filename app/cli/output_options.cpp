#include "cli/output_options.hpp"

#include <CLI/CLI.hpp>

#include "cli/decimal_option.hpp"
#include "export/output_budget.hpp"
#include "export_pipeline/output_formats.hpp"

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

void add_deep_still_options(CLI::App& cmd, DeepStillOptions& o) {
  cmd.add_option("--depth", o.depth,
                 "Bits a channel of the .png stills: 8, or 16 for print (the colours before rounding to 8 "
                 "bits; smooth gradients without bands)")
      ->type_name("8|16")
      ->capture_default_str()
      ->check(CLI::IsMember({8, 16}));
  cmd.add_option("--exr-type", o.exr_sample,
                 "Samples of the .exr stills (linear light, for compositing): half or float")
      ->type_name("half|float")
      ->capture_default_str()
      ->check(CLI::IsMember({"half", "float"}));
}

}  // namespace physarum::app
