// Live control from outside the window: OSC messages (remote/osc_server.hpp) applied once a frame
// on the window's thread through WindowCore's commands, the path the panel takes, so a parameter
// changed from TouchDesigner is checked, undone and recorded like one changed with the mouse.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "remote/osc_server.hpp"
#include "remote/remote_command.hpp"
#include "window/panel.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

// One command on the window. `recording` is whether a recording runs, and follows a toggle this
// command asks for (pushed to `actions`, which the frame carries out as it does F9). Refused:
// nothing changed (a display.palette that is not loaded is refused too, not replaced).
CommandResult apply_remote(const RemoteCommand& c, WindowCore& core, bool& recording,
                           std::vector<PanelAction>& actions);

class RemoteControl {
 public:
  using Clock = std::chrono::steady_clock;
  // A stream of changes with pauses shorter than this is one edit for undo, as a slider's drag.
  static constexpr std::chrono::milliseconds kSettle{300};

  // Listens for OSC on UDP `port` (0: a free one). Throws Error naming the port when it cannot.
  explicit RemoteControl(int port) : server_(port) {}
  int port() const { return server_.port(); }

  // The same refusal again within this time is counted, not told: a controller that sends a bad
  // address every frame would otherwise bury the window in toasts and the terminal in lines.
  static constexpr std::chrono::seconds kQuiet{4};

  // Applies what arrived since the last frame, in order. Each refusal is an error toast (and so a
  // line on stderr) naming the address and the value; the same one again is told after kQuiet,
  // with how often it came meanwhile.
  // Returns true when the run was made anew (run.* or spawn.* changed), so the panel's fields for
  // them follow.
  bool apply(WindowCore& core, bool recording, std::vector<PanelAction>& actions, Toasts& toasts,
             Clock::time_point now = Clock::now());
  // True while changes are still arriving (the last one less than kSettle before `now`).
  bool editing(Clock::time_point now = Clock::now()) const;

  uint64_t applied() const { return applied_; }
  uint64_t refused() const { return refused_; }

 private:
  void refuse(std::string why, Toasts& toasts, Clock::time_point now);

  struct Told {
    std::string text;
    Clock::time_point at;  // when it was last told
    uint64_t since = 0;    // refused again since then, untold
  };
  std::vector<Told> told_;
  OscServer server_;
  Clock::time_point last_change_{};
  uint64_t applied_ = 0, refused_ = 0;
};

}  // namespace physarum::app
