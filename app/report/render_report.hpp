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
  std::string graph;               // empty: no graph; .graphml or .json
  std::optional<float> threshold;  // absolute high network level; else `fraction`
  // Share of the open cells at or above the high level, and the low level as a share of the high
  // one: the analysis's own defaults (network.hpp), so the window and the command line measure alike.
  double fraction = analysis::NetworkOptions{}.fraction;
  double low_ratio = analysis::NetworkOptions{}.low_ratio;

  bool wanted() const { return !file.empty() || !graph.empty(); }
};

// Refuses a --graph whose extension is neither .graphml nor .json (UsageError naming it).
void check_graph_file(const std::string& file);

// The --graph file's framing (its keys and `recipe`), what is known of it before the run: its nodes
// and edges follow from the grown network, not from the options (a hostile field's skeleton can
// make one a few cells, which bounded from the field's size alone would refuse a 1920x1080 graph
// under the default budget), so write_graph_file checks them against the budget once measured.
uint64_t graph_framing_bound(const std::string& recipe);

// The network of `field` (S planes of `size`, summed) against the run's food and walls
// (Backend::read_food, read_walls: zero planes when there are none), as `r` asks; none when Ctrl-C
// or SIGTERM arrived before or during the measuring.
std::optional<analysis::NetworkReport> measure_network(const ReportOptions& r, Size size,
                                                       const std::vector<float>& field,
                                                       const std::vector<float>& food,
                                                       const std::vector<uint8_t>& walls);

// The report's graph as GraphML (.graphml) or node-link JSON (.json), written atomically;
// `recipe` is the command that made it. Above `budget` (text as --output-budget takes it) it
// throws UsageError, naming the nodes and edges, and writes nothing.
void write_graph_file(const std::string& file, const analysis::NetworkReport& report,
                      const std::string& recipe, const std::string& budget);

// `field` is what the run read back: S planes of the field's size, summed here. The food and walls
// measured against are the run's own (Backend::read_food, read_walls), so --food/--walls and the
// preset's [environment] are reported as the run used them; `env` names their files in the JSON.
// `recipe` is the command that makes the same run. Writes the report and the graph that `r` asks
// for; the graph within `budget` (write_graph_file). Returns false, writing nothing, when Ctrl-C or
// SIGTERM arrived before or during the measuring (system/signals.hpp).
bool write_render_report(const ReportOptions& r, const Backend& backend, const EnvironmentParams& env,
                         const std::vector<float>& field, uint64_t steps, const std::string& recipe,
                         const std::string& budget);

// The same report's JSON text, written nowhere (an ensemble gathers one per seed); nullopt when a
// stop request ended the measuring. `measured`, when given, gets the numbers.
// `maps`: the run's size, food and walls (Backend::read_food and read_walls).
struct RunMaps {
  Size size;
  std::vector<float> food;
  std::vector<uint8_t> walls;
};
std::optional<std::string> render_report_json(const ReportOptions& r, const RunMaps& maps,
                                              const EnvironmentParams& env, const std::vector<float>& field,
                                              uint64_t steps, const std::string& recipe,
                                              analysis::NetworkReport* measured = nullptr);

// The keys of the report that say how the run was made rather than what its network measures: an
// ensemble keeps them in each seed's report and does not average them.
inline constexpr std::array<std::string_view, 5> kReportRunKeys = {"steps", "recipe", "threshold_from",
                                                                   "food", "walls"};

}  // namespace physarum::app
