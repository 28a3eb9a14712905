// The interactive window (no subcommand): GLFW, the fixed frame loop, ImGui panel, input.
#pragma once

#include <string>

#include "frame_sink.hpp"
#include "sim_options.hpp"

namespace physarum::app {

struct WindowOptions {
  SimOptions sim;
  int frames = 0;           // quit after this many frames (0 = run until closed)
  std::string screenshot;   // PNG of the last frame, panel included
  std::string size_window;  // "WxH" of the window in screen units; empty = fit the field
  bool vsync = true;
  bool fullscreen = false;
  bool hide_panel = false;
  FrameSink* sink = nullptr;  // when set, every frame is handed to it (recording)
};

// Returns the exit code. With no display it says so, points to `physarum render`, and returns 1.
int run_window(const WindowOptions& o);

}  // namespace physarum::app
