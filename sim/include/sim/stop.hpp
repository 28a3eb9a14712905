// Long work (growth, cave clean-up, contours, network analysis, sweeps) asks its caller between
// its parts whether to stop. The library never sees a signal: the program answers the question
// (app/system/signals.hpp), and the Stopped it throws unwinds through the writers, so a stopped
// command leaves no temporary file and replaces nothing.
#pragma once

#include <functional>
#include <stdexcept>

namespace physarum {

// True when the work should end now; empty: never.
using StopCheck = std::function<bool()>;

// Not an Error: handlers that turn a bad value into a usage message must let it pass.
struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped") {}
};

inline void stop_if_asked(const StopCheck& stop) {
  if (stop && stop()) throw Stopped();
}

}  // namespace physarum
