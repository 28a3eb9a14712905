// `physarum render --report FILE.json`: the grown network measured as the railway experiment did
// (issue 11): towns linked, network length against the towns' minimum spanning tree, fault
// tolerance. The measuring is app/analysis/network.hpp; this file finds the maps and writes JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/environment_maps.hpp"
#include "cli/sim_options.hpp"

namespace physarum::app {

struct ReportOptions {
  std::string file;                // empty: no report
  std::optional<float> threshold;  // absolute network threshold; else `fraction`
  double fraction = 0.15;          // share of the open (non-wall) cells that is network
};

// The food and walls the report measures against, loaded before the run so that a bad map is
// refused before any work (Error naming the file). Holds the files' names too.
struct ReportMaps {
  analysis::EnvironmentFiles files;
  analysis::EnvironmentMaps maps;
};
ReportMaps load_report_maps(const SimOptions& sim, Size size);

// `field` is what the run read back: S planes of the field's size, summed here. `recipe` is the
// command that makes the same run. Throws Error for unreadable maps.
void write_render_report(const ReportOptions& r, const ReportMaps& maps, Size size,
                         const std::vector<float>& field, uint64_t steps, const std::string& recipe);

}  // namespace physarum::app
