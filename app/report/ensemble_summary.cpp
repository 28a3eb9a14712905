#include "report/ensemble_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "report/render_report.hpp"
#include "sensitivity/summary.hpp"

namespace physarum::app {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Column {
  std::string key;
  bool share = false;
  std::vector<double> values;  // booleans as 1 and 0
};

// The numbers and booleans of `object` under `prefix`, into their columns (made on first sight).
void collect(const JsonValue& object, const std::string& prefix, std::vector<Column>& columns) {
  for (const auto& [name, v] : object.members) {
    const std::string key = prefix + name;
    if (prefix.empty() &&
        std::find(kReportRunKeys.begin(), kReportRunKeys.end(), name) != kReportRunKeys.end())
      continue;
    if (v.kind == JsonValue::Kind::Object) {
      collect(v, key + ".", columns);
      continue;
    }
    const bool number = v.kind == JsonValue::Kind::Number, boolean = v.kind == JsonValue::Kind::Bool;
    if (!number && !boolean) continue;
    auto it = std::find_if(columns.begin(), columns.end(), [&](const Column& c) { return c.key == key; });
    if (it == columns.end()) it = columns.insert(columns.end(), Column{key, boolean, {}});
    if (it->share != boolean) continue;  // a key that changes kind between seeds counts where it kept it
    it->values.push_back(number ? v.number : v.boolean ? 1.0 : 0.0);
  }
}

JsonValue number(double x) {
  JsonValue v;
  v.kind = JsonValue::Kind::Number;
  v.number = x;  // not finite: written as null
  return v;
}

}  // namespace

void wilson95(int k, int n, double& low, double& high) {
  if (n <= 0) {
    low = high = kNaN;
    return;
  }
  const double z = sensitivity::kNormal975, z2 = z * z, p = static_cast<double>(k) / n;
  const double centre = (p + z2 / (2.0 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
  low = std::max(0.0, centre - half);
  high = std::min(1.0, centre + half);
}

std::vector<MeasureSummary> summarise(const std::vector<SeedReport>& runs) {
  std::vector<Column> columns;
  for (const SeedReport& r : runs) collect(r.report, "", columns);
  std::vector<MeasureSummary> out;
  for (const Column& c : columns) {
    const sensitivity::MeanCi m = sensitivity::mean_ci(c.values);
    MeasureSummary s{c.key, c.share, m.n, m.mean, m.sd, m.mean - m.half, m.mean + m.half};
    if (c.share) {
      const auto trues = std::count(c.values.begin(), c.values.end(), 1.0);
      wilson95(static_cast<int>(trues), m.n, s.low, s.high);
      s.sd = kNaN;
    }
    out.push_back(s);
  }
  return out;
}

JsonValue summary_json(const std::vector<MeasureSummary>& s) {
  JsonValue all;
  all.kind = JsonValue::Kind::Object;
  for (const MeasureSummary& m : s) {
    JsonValue v;
    v.kind = JsonValue::Kind::Object;
    v.members.emplace_back("n", number(m.n));
    v.members.emplace_back(m.share ? "share" : "mean", number(m.mean));
    if (!m.share) v.members.emplace_back("sd", number(m.sd));
    JsonValue ci;
    ci.kind = JsonValue::Kind::Array;
    ci.items = {number(m.low), number(m.high)};
    v.members.emplace_back("ci95", std::move(ci));
    all.members.emplace_back(m.key, std::move(v));
  }
  return all;
}

std::string summary_table(const std::vector<MeasureSummary>& s) {
  const auto num = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", v);
    return std::isfinite(v) ? std::string(text) : std::string("-");
  };
  char line[256];
  std::snprintf(line, sizeof line, "%-28s %6s %12s %12s   %s\n", "measure", "n", "mean", "sd",
                "95% interval");
  std::string out = line;
  for (const MeasureSummary& m : s) {
    char interval[80] = "-";
    if (std::isfinite(m.low))
      std::snprintf(interval, sizeof interval, "[%s, %s]", num(m.low).c_str(), num(m.high).c_str());
    std::snprintf(line, sizeof line, "%-28s %6d %12s %12s   %s\n",
                  (m.key + (m.share ? " (share)" : "")).c_str(), m.n, num(m.mean).c_str(), num(m.sd).c_str(),
                  interval);
    out += line;
  }
  return out;
}

}  // namespace physarum::app
