// The Performance window, opened on request (P, or the panel's menu bar): frames per second, what
// a simulation step and a frame cost, in words a user reads, and the last seconds as plots.
#pragma once

#include <string>

#include "window/window_core.hpp"

namespace physarum::app {

// `open` is the window's open state: its close button clears it.
void performance_window(WindowCore& core, float ui_ms, bool& open);

// A timing for a row: "3.582 ms", or empty when the stage did not run (0 ms, or nothing measured
// yet), so the row is left out instead of reading 0.000 ms.
std::string timing_text(double ms);

// Agent moves per second in words: "990 thousand", "12.3 million", "1.05 billion".
std::string rate_text(double per_second);

}  // namespace physarum::app
