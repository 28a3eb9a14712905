// What people read: the summary table on stdout, and the JSON with the recipe and every series.
#pragma once

#include <string>
#include <vector>

#include "sensitivity/summary.hpp"

namespace physarum::app::sensitivity {

std::string summary_text(const CsvHeader& header, const std::vector<RunData>& runs, const Analysis& a);
std::string json_text(const CsvHeader& header, const std::vector<RunData>& runs, const Analysis& a);

}  // namespace physarum::app::sensitivity
