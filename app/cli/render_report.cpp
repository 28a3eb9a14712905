#include "cli/render_report.hpp"

#include <cstdio>

#include "analysis/environment_maps.hpp"
#include "analysis/network.hpp"
#include "common/preset_library.hpp"
#include "sim/atomic_file.hpp"

namespace physarum::app {
namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// HOOKUP (issue 11): once the simulation carries its environment, this is the one place to change:
// take the food and walls the run used (the preset's resolved [environment], or the backend's own
// maps) instead of reading the preset file's table here.
analysis::EnvironmentFiles environment_files(const SimOptions& sim) {
  if (sim.preset.empty()) return {};
  return analysis::environment_files_in(find_preset(sim.preset));
}

}  // namespace

ReportMaps load_report_maps(const SimOptions& sim, Size size) {
  ReportMaps m;
  m.files = environment_files(sim);
  m.maps = analysis::load_environment_maps(m.files, size, ImageFit::Fill);
  return m;
}

void write_render_report(const ReportOptions& r, const ReportMaps& env, Size size,
                         const std::vector<float>& field, uint64_t steps, const std::string& recipe) {
  const size_t n = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  analysis::Grid g{size.width, size.height, std::vector<float>(n, 0.0f)};
  for (size_t p = 0; n > 0 && p < field.size() / n; ++p) {
    for (size_t i = 0; i < n; ++i) g.values[i] += field[p * n + i];
  }
  const analysis::EnvironmentFiles& files = env.files;
  const analysis::EnvironmentMaps& maps = env.maps;

  analysis::NetworkOptions o;
  o.threshold = r.threshold;
  o.fraction = r.fraction;
  const analysis::NetworkReport report =
      analysis::analyse_network(g, maps.food ? &*maps.food : nullptr, maps.walls ? &*maps.walls : nullptr, o);

  std::string extra = "  \"steps\": " + std::to_string(steps) + ",\n";
  extra += "  \"recipe\": " + json_string(recipe) + ",\n";
  extra += "  \"threshold_from\": " +
           (r.threshold ? std::string("\"absolute\"") : "\"fraction " + std::to_string(r.fraction) + "\"") +
           ",\n";
  extra +=
      "  \"food\": " + (files.food.empty() ? std::string("null") : json_string(files.food.string())) + ",\n";
  extra += "  \"walls\": " + (files.walls.empty() ? std::string("null") : json_string(files.walls.string())) +
           ",\n";
  write_file_atomically(r.file, analysis::network_json(report, extra));

  std::printf("physarum render: network report %s: %d towns%s, length %.1f", r.file.c_str(), report.towns,
              report.towns == 0 ? "" : (report.towns_connected ? " (all linked)" : " (not all linked)"),
              report.network_length);
  if (report.ratio) std::printf(" = %.2f x the towns' spanning tree", *report.ratio);
  if (report.fault_tolerance) std::printf(", fault tolerance %.2f", *report.fault_tolerance);
  std::printf("\n");
}

}  // namespace physarum::app
