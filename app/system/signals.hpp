// Ctrl-C, SIGTERM and SIGHUP (the terminal closed) without losing a recording. The handler only sets a flag;
// the frame loops check stop_requested() and end cleanly, and anything registered here (open recordings) is
// finalised by finalise_open(), which also runs at exit. SIGPIPE is ignored so a dying ffmpeg
// shows up as EPIPE on write instead of killing the program.
#pragma once

#include <cstdint>
#include <functional>

#include "sim/stop.hpp"

namespace physarum::app {

// Something that must be finished before the program ends (an open recording).
class Finalisable {
 public:
  virtual void finalise() noexcept = 0;

 protected:
  ~Finalisable() = default;
};

// Installs the SIGINT/SIGTERM/SIGHUP handlers (re-arming them when called again), ignores SIGPIPE and,
// the first time, registers finalise_open() with atexit. The handlers are one-shot: a second
// Ctrl-C ends the program the default way, for a person whose first one seemed to do nothing.
void install_signal_handlers();

bool stop_requested();  // a SIGINT, SIGTERM or SIGHUP arrived (or request_stop was called)
int stop_signal();      // the signal that asked, 0 when none or request_stop(0)
void request_stop(int signal = 0);
void clear_stop_request();
int exit_code_for_signal(int signal);  // the shell's convention: 128 + signal

// Long phases of the commands (growth, clean-up, sweeps, benchmarks) poll the flag through these:
// throw_if_stopped() throws Stopped once a stop was requested; stop_on_signal() asks the same
// question for library code that takes a StopCheck.
void throw_if_stopped();
StopCheck stop_on_signal();

// Runs step(k) for slices k that add up to n, asking throw_if_stopped() before each: slices start at
// one step and double while one takes under a tenth of a second, so a stop is seen within about
// that long on a slow backend and costs nothing on a fast one. Results do not depend on the slicing:
// every backend gives the same bits however its steps are cut into calls (render cuts them by frame).
void step_in_slices(uint64_t n, const std::function<void(uint64_t)>& step);

// For a command that Stopped ended: says so on stderr, naming the signal and what was left as it
// was, and returns 128 + signal.
int report_stopped(const char* command, const char* left_alone);

// Open recordings register themselves; finalise_open() finalises each one still registered.
void register_open(Finalisable* f);
void unregister_open(Finalisable* f);
void finalise_open() noexcept;

}  // namespace physarum::app
