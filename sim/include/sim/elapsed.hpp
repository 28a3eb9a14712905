// Milliseconds of wall time on the steady clock: stage timings, frame times, benchmarks.
#pragma once

#include <chrono>

namespace physarum {

inline double ms_between(std::chrono::steady_clock::time_point start,
                         std::chrono::steady_clock::time_point end) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return ms_between(start, std::chrono::steady_clock::now());
}

}  // namespace physarum
