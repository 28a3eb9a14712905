#include "cli/render_report.hpp"

#include <cstdio>

#include "analysis/environment_maps.hpp"
#include "sim/atomic_file.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "video/signals.hpp"

namespace physarum::app {

std::optional<std::string> render_report_json(const ReportOptions& r, const Backend& backend,
                                              const EnvironmentParams& env, const std::vector<float>& field,
                                              uint64_t steps, const std::string& recipe,
                                              analysis::NetworkReport* measured) {
  const Size size = backend.size();
  const size_t n = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  analysis::Grid g{size.width, size.height, std::vector<float>(n, 0.0f)};
  for (size_t p = 0; n > 0 && p < field.size() / n; ++p) {
    for (size_t i = 0; i < n; ++i) g.values[i] += field[p * n + i];
  }
  std::vector<float> food;
  std::vector<uint8_t> walls;
  backend.read_food(food);
  backend.read_walls(walls);
  const analysis::EnvironmentMaps maps = analysis::environment_maps(size, food, walls);

  analysis::NetworkOptions o;
  o.threshold = r.threshold;
  o.fraction = r.fraction;
  o.stop = stop_on_signal();
  analysis::NetworkReport report;
  try {
    report = analysis::analyse_network(g, maps.food ? &*maps.food : nullptr,
                                       maps.walls ? &*maps.walls : nullptr, o);
  } catch (const analysis::Stopped&) {
    return std::nullopt;
  }

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
  if (measured) *measured = report;
  return analysis::network_json(report, extra);
}

bool write_render_report(const ReportOptions& r, const Backend& backend, const EnvironmentParams& env,
                         const std::vector<float>& field, uint64_t steps, const std::string& recipe) {
  analysis::NetworkReport report;
  const std::optional<std::string> text = render_report_json(r, backend, env, field, steps, recipe, &report);
  if (!text) return false;
  write_file_atomically(r.file, *text);

  std::printf("physarum render: network report %s: %d towns%s, length %.1f", printable(r.file).c_str(),
              report.towns,
              report.towns == 0 ? "" : (report.towns_connected ? " (all linked)" : " (not all linked)"),
              report.network_length);
  if (report.ratio) std::printf(" = %.2f x the towns' spanning tree", *report.ratio);
  if (report.fault_tolerance) std::printf(", fault tolerance %.2f", *report.fault_tolerance);
  std::printf("\n");
  return true;
}

}  // namespace physarum::app
