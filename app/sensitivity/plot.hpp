// The plot as a PNG, drawn by gnuplot (Debian: gnuplot-nox) started with an argument vector, no
// shell: field distance against steps on a log axis with each fitted line, coloured by the swept
// value; below it lambda against the swept parameter with 95% intervals (a sweep), or the
// parameters' derivative norms ranked (--average).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sensitivity/summary.hpp"

namespace physarum::app::sensitivity {

inline constexpr int kDefaultPlotWidth = 1000;
inline constexpr int kDefaultPlotHeight = 750;

// True when gnuplot is on $PATH.
bool can_plot();

// Writes `out` (through a temporary directory, so a failed plot leaves no half file). Throws Error
// when gnuplot is missing or fails, with its message.
void plot_png(const std::filesystem::path& out, const CsvHeader& header, const std::vector<RunData>& runs,
              const Analysis& a, int width = kDefaultPlotWidth, int height = kDefaultPlotHeight);

}  // namespace physarum::app::sensitivity
