#include "report/render_report.hpp"

#include <cstdio>
#include <filesystem>

#include "analysis/network.hpp"
#include "analysis/network_graph.hpp"
#include "analysis/report_maps.hpp"
#include "export/output_budget.hpp"
#include "run/recipe.hpp"
#include "sim/atomic_file.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using run::UsageError;

bool is_graphml(const std::string& file) {
  return lowercase_extension(file) == ".graphml";
}

}  // namespace

void check_graph_file(const std::string& file) {
  const std::string ext = lowercase_extension(file);
  if (ext != ".graphml" && ext != ".json")
    throw UsageError("--graph " + file +
                     ": the extension must be .graphml (GraphML) or .json (node-link JSON)");
}

uint64_t graph_framing_bound(const std::string& recipe) {
  return analysis::graph_file_bound(0, 0, recipe.size());
}

std::optional<analysis::NetworkReport> measure_network(const ReportOptions& r, Size size,
                                                       const std::vector<float>& field,
                                                       const std::vector<float>& food,
                                                       const std::vector<uint8_t>& walls) {
  analysis::NetworkOptions o;
  o.threshold = r.threshold;
  o.fraction = r.fraction;
  o.low_ratio = r.low_ratio;
  o.stop = stop_on_signal();
  try {
    return analysis::analyse_run_field(size, field, food, walls, o);
  } catch (const analysis::Stopped&) {
    return std::nullopt;
  }
}

void write_graph_file(const std::string& file, const analysis::NetworkReport& report,
                      const std::string& recipe, const std::string& budget) {
  const size_t nodes = report.graph->nodes.size(), edges = report.graph->edges.size();
  OutputBudget measured;
  measured.add(
      "--graph " + file,
      "the measured network's " + std::to_string(nodes) + " nodes and " + std::to_string(edges) + " edges",
      {analysis::graph_file_bound(nodes, edges, recipe.size()),
       analysis::graph_file_bound(nodes, edges, recipe.size())});
  measured.check(budget);
  write_file_atomically(file, is_graphml(file) ? analysis::graph_graphml(*report.graph, recipe)
                                               : analysis::graph_json(*report.graph, recipe));
}

std::optional<std::string> render_report_json(const ReportOptions& r, const RunMaps& maps,
                                              const EnvironmentParams& env, const std::vector<float>& field,
                                              uint64_t steps, const std::string& recipe,
                                              analysis::NetworkReport* measured) {
  const std::optional<analysis::NetworkReport> report =
      measure_network(r, maps.size, field, maps.food, maps.walls);
  if (!report) return std::nullopt;

  std::string extra = "  \"steps\": " + std::to_string(steps) + ",\n";
  extra += "  \"recipe\": " + json_string(recipe) + ",\n";
  extra += "  \"threshold_from\": " +
           (r.threshold ? std::string("\"absolute\"") : "\"fraction " + std::to_string(r.fraction) + "\"") +
           ",\n";
  const auto file_or_null = [](const std::string& f) {
    return f.empty() ? std::string("null") : json_string(f);
  };
  extra += "  \"food\": " + file_or_null(env.food) + ",\n";
  extra += "  \"walls\": " + file_or_null(env.walls) + ",\n";
  if (measured) *measured = *report;
  return analysis::network_json(*report, extra);
}

bool write_render_report(const ReportOptions& r, const Backend& backend, const EnvironmentParams& env,
                         const std::vector<float>& field, uint64_t steps, const std::string& recipe,
                         const std::string& budget) {
  analysis::NetworkReport report;
  RunMaps maps{backend.size(), {}, {}};
  backend.read_food(maps.food);
  backend.read_walls(maps.walls);
  const std::optional<std::string> text = render_report_json(r, maps, env, field, steps, recipe, &report);
  if (!text) return false;
  if (!r.graph.empty()) {
    write_graph_file(r.graph, report, recipe, budget);
    std::printf("physarum render: network graph %s: %zu nodes, %zu edges\n", printable(r.graph).c_str(),
                report.graph->nodes.size(), report.graph->edges.size());
  }
  if (r.file.empty()) return true;
  write_file_atomically(r.file, *text);

  std::printf("physarum render: network report %s: %d towns%s, length %.1f", printable(r.file).c_str(),
              report.towns,
              report.towns == 0 ? "" : (report.towns_connected ? " (all linked)" : " (not all linked)"),
              report.network_length);
  if (report.ratio) std::printf(" = %.2f x the towns' spanning tree", *report.ratio);
  if (report.fault_tolerance) std::printf(", fault tolerance %.2f", *report.fault_tolerance);
  if (report.cost) std::printf("; Tero: cost %.2f", *report.cost);
  if (report.efficiency) {
    std::printf(", efficiency %.2f", *report.efficiency);
    // Dijkstra from every town is quadratic in the towns: past the cap only some pairs are averaged.
    if (report.pair_sources < report.towns)
      std::printf(" (over the pairs that hold one of the first %d of the %d towns)", report.pair_sources,
                  report.towns);
  }
  if (report.fault_tolerance_tero)
    std::printf(", links whose failure cuts the network %.2f", *report.fault_tolerance_tero);
  std::printf("\n");
  return true;
}

}  // namespace physarum::app
