// The interactive window (no subcommand): GLFW, the fixed frame loop, ImGui panel, input.
#pragma once

#include <string>

#include "run/recipe.hpp"

namespace physarum::app {

struct WindowOptions {
  run::Recipe sim;
  int frames = 0;           // quit after this many frames (0 = run until closed)
  std::string screenshot;   // PNG of the last frame, panel included
  std::string size_window;  // "WxH" of the window in screen units; empty = fit the field
  bool vsync = true;
  bool fullscreen = false;
  bool hide_panel = false;
  std::string record;          // MP4 to start recording to at once (F9 / the panel stop it)
  bool record_window = false;  // record the whole window with the panel, not the field alone
  int record_fps = 60;
  std::string record_timing = "smooth";  // pacing_name (video/video_pacer.hpp)
  bool record_every_frame = false;       // --record-every-frame: record_timing "every-frame"
  std::string twin;                      // start a perturbed twin at once (--twin SPEC, window/twin_view.hpp)
  int osc_port = -1;                     // listen for OSC on this UDP port (0: a free one; -1: not at all)
  bool midi = false;                     // MIDI knobs: bindings, learn mode (window/midi_control.hpp)
  bool atlas = false;                    // open the Atlas window and grow its grid at once
  float ui_scale = 0;                    // --ui-scale; 0: the panel's saved choice or the monitor's
};

// Returns the exit code: 0, 1 with no display (it says so and points to `physarum render`), or
// 128 + signal after Ctrl-C / SIGTERM (an open recording is finalised first).
int run_window(const WindowOptions& o);

}  // namespace physarum::app
