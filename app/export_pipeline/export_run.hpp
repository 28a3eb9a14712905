// `physarum export` run whole: the plan checked before anything is grown or read
// (export_plan.hpp), the field grown from the plan's preset or read from a .npy, then every
// output written (a plane's by export_writers.hpp, a volume's by export_volume.hpp), the cave
// report and the network's graph; what was written said on stdout. Ctrl-C or SIGTERM between
// outputs keeps the ones written whole and says which.
#pragma once

#include "export_pipeline/export_plan.hpp"

namespace physarum::app {

// Returns the exit code. Throws UsageError for what the plan refuses, before any work.
int run_export(const ExportOptions& o);

}  // namespace physarum::app
