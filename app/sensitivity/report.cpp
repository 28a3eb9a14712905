#include "sensitivity/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "sim/json_text.hpp"

namespace physarum::app::sensitivity {
namespace {

std::string fmt(const char* format, double v) {
  if (!std::isfinite(v)) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

std::string pm(const MeanCi& m, const char* format) {
  std::string s = fmt(format, m.mean);
  if (std::isfinite(m.half)) s += " +- " + fmt(format, m.half);
  return s;
}

std::string json_mean(const MeanCi& m) {
  return "{\"n\":" + std::to_string(m.n) + ",\"mean\":" + json_number(m.mean) +
         ",\"ci95\":" + json_number(m.half) + "}";
}

}  // namespace

std::string summary_text(const CsvHeader& h, const std::vector<RunData>& runs, const Analysis& a) {
  std::string out;
  char line[512];
  if (h.mode == Mode::Average) {
    out +=
        "average sensitivity (relative field change per relative parameter change at the last step), "
        "ranked:\n";
    std::snprintf(line, sizeof line, "%4s  %-32s %12s %24s %7s\n", "rank", "parameter", "value",
                  "derivative norm", "share");
    out += line;
    int rank = 1;
    for (int i : a.ranking) {
      const PointSummary& p = a.points[static_cast<size_t>(i)];
      const double share = a.average_sensitivity > 0 ? p.derivative.mean / a.average_sensitivity : NAN;
      std::snprintf(line, sizeof line, "%4d  %-32s %12.6g %24s %7s\n", rank++, p.parameter.c_str(), p.value,
                    pm(p.derivative, "%.4g").c_str(), fmt("%.1f%%", 100 * share).c_str());
      out += line;
    }
    return out + "average sensitivity (sum): " + fmt("%.6g", a.average_sensitivity) + "\n";
  }
  std::snprintf(line, sizeof line, "%-32s %12s %24s %22s %6s\n",
                h.mode == Mode::Sweep ? "parameter" : "perturbation", "value", "lambda per step (95%)",
                "saturation step", "fitted");
  out += line;
  for (const PointSummary& p : a.points) {
    std::snprintf(line, sizeof line, "%-32s %12.6g %24s %22s %3d/%-2d\n", p.parameter.c_str(), p.value,
                  pm(p.lambda, "%.4g").c_str(), pm(p.saturation, "%.0f").c_str(), p.lambda.n, h.repeats);
    out += line;
  }
  // What was unusual about the runs: each kind once, with how many runs it concerns.
  std::vector<std::pair<std::string, int>> notes;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (a.fits[i].why.empty()) continue;
    const auto same = [&](const std::pair<std::string, int>& n) { return n.first == a.fits[i].why; };
    const auto it = std::find_if(notes.begin(), notes.end(), same);
    if (it == notes.end()) {
      notes.emplace_back(a.fits[i].why, 1);
    } else {
      ++it->second;
    }
  }
  for (const auto& [why, count] : notes) {
    out += "note (" + std::to_string(count) + " of " + std::to_string(runs.size()) + " runs): " + why + "\n";
  }
  return out;
}

std::string json_text(const CsvHeader& h, const std::vector<RunData>& runs, const Analysis& a) {
  std::string out = "{\"recipe\":" + json_string(h.recipe) + ",\"mode\":" + json_string(to_string(h.mode)) +
                    ",\"points\":" + std::to_string(h.points) + ",\"repeats\":" + std::to_string(h.repeats) +
                    ",\"fit_below\":" + json_number(h.fit_below) + ",\"runs\":[";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunData& r = runs[i];
    const LyapunovFit& f = a.fits[i];
    out += std::string(i ? "," : "") + "\n{\"point\":" + std::to_string(r.point) +
           ",\"parameter\":" + json_string(r.parameter) + ",\"value\":" + json_number(r.value) +
           ",\"delta\":" + json_number(r.delta) + ",\"repeat\":" + std::to_string(r.repeat) +
           ",\"seed\":" + std::to_string(r.seed) + ",\"lambda\":" + json_number(f.ok ? f.lambda : NAN) +
           ",\"fit\":{\"from_step\":" + std::to_string(f.from_step) +
           ",\"to_step\":" + std::to_string(f.to_step) + ",\"points\":" + std::to_string(f.points) +
           ",\"intercept\":" + json_number(f.intercept) + ",\"note\":" + json_string(f.why) +
           "},\"saturation_level\":" + json_number(f.saturation_level) +
           ",\"saturation_step\":" + std::to_string(f.saturation_step) +
           ",\"derivative_norm\":" + json_number(derivative_norm(r)) + ",\"series\":{\"step\":[";
    // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on "," + std::string temporaries.
    for (size_t k = 0; k < r.records.size(); ++k) {
      if (k) out += ',';
      out += std::to_string(r.records[k].step);
    }
    out += "],\"field_distance\":[";
    for (size_t k = 0; k < r.records.size(); ++k) {
      if (k) out += ',';
      out += json_number(r.records[k].field_distance);
    }
    out += "],\"agent_fraction\":[";
    for (size_t k = 0; k < r.records.size(); ++k) {
      if (k) out += ',';
      out += json_number(r.records[k].agent_fraction);
    }
    out += "]}}";
  }
  out += "],\n\"summary\":[";
  for (size_t i = 0; i < a.points.size(); ++i) {
    const PointSummary& p = a.points[i];
    out += std::string(i ? "," : "") + "\n{\"point\":" + std::to_string(p.point) +
           ",\"parameter\":" + json_string(p.parameter) + ",\"value\":" + json_number(p.value) +
           ",\"lambda\":" + json_mean(p.lambda) + ",\"saturation_step\":" + json_mean(p.saturation) +
           ",\"derivative_norm\":" + json_mean(p.derivative) + "}";
  }
  out += "]";
  if (h.mode == Mode::Average) out += ",\n\"average_sensitivity\":" + json_number(a.average_sensitivity);
  return out + "}\n";
}

}  // namespace physarum::app::sensitivity
