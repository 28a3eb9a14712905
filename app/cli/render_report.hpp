// `physarum render --report FILE.json`: the grown network measured as the railway experiment did:
// towns linked, network length against the towns' minimum spanning tree, fault
// tolerance. The measuring is app/analysis/network.hpp; this file hands it the run's maps and writes JSON.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/network.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"

namespace physarum::app {

struct ReportOptions {
  std::string file;                // empty: no report
  std::optional<float> threshold;  // absolute network threshold; else `fraction`
  double fraction = 0.15;          // share of the open (non-wall) cells that is network
};

// `field` is what the run read back: S planes of the field's size, summed here. The food and walls
// measured against are the run's own (Backend::read_food, read_walls), so --food/--walls and the
// preset's [environment] are reported as the run used them; `env` names their files in the JSON.
// `recipe` is the command that makes the same run. Returns false, writing nothing, when Ctrl-C or
// SIGTERM arrived before or during the measuring (video/signals.hpp).
bool write_render_report(const ReportOptions& r, const Backend& backend, const EnvironmentParams& env,
                         const std::vector<float>& field, uint64_t steps, const std::string& recipe);

// The same report's JSON text, written nowhere (an ensemble gathers one per seed); nullopt when a
// stop request ended the measuring. `measured`, when given, gets the numbers.
std::optional<std::string> render_report_json(const ReportOptions& r, const Backend& backend,
                                              const EnvironmentParams& env, const std::vector<float>& field,
                                              uint64_t steps, const std::string& recipe,
                                              analysis::NetworkReport* measured = nullptr);

// The keys of the report that say how the run was made rather than what its network measures: an
// ensemble keeps them in each seed's report and does not average them.
inline constexpr std::array<std::string_view, 5> kReportRunKeys = {"steps", "recipe", "threshold_from",
                                                                   "food", "walls"};

}  // namespace physarum::app
