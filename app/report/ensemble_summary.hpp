// What an ensemble's seeds say together: every measure of the single-run report, whatever keys it
// has, as a mean with its 95% interval over the seeds. Numbers get the mean, the sample standard
// deviation and Student's t interval of the mean; true/false measures (towns_connected) the share of
// seeds where true, with Wilson's score interval (a t interval of a share would be 1 +- 0 when every
// seed agrees). Nested objects count by their dotted keys ("graph.nodes"); lists and text are not
// measures, nor are the keys that say how the run was made (report/render_report.hpp, kReportRunKeys).
#pragma once

#include <string>
#include <vector>

#include "report/ensemble_report.hpp"
#include "sim/json_value.hpp"

namespace physarum::app {

struct MeasureSummary {
  std::string key;
  bool share = false;  // true/false values: `mean` is the share of true
  int n = 0;           // seeds whose report holds the measure (not null)
  double mean = 0;     // NaN when n = 0
  double sd = 0;       // numbers only; NaN when n < 2
  double low = 0;      // the 95% interval; NaN when it does not exist (a number's with n < 2)
  double high = 0;
};

// Measures in the order they first appear in the seeds' reports (in seed order).
std::vector<MeasureSummary> summarise(const std::vector<SeedReport>& runs);

// Wilson's 95% score interval of a share of `n` trials with `k` successes (NaN for n = 0).
void wilson95(int k, int n, double& low, double& high);

// The summary object of the ensemble file: key -> {n, mean, sd, ci95: [low, high]}, or for a share
// key -> {n, share, ci95: [low, high]}; what does not exist is null.
JsonValue summary_json(const std::vector<MeasureSummary>& s);

// The same as a table for a terminal.
std::string summary_table(const std::vector<MeasureSummary>& s);

}  // namespace physarum::app
