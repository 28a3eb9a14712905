// The ImGui panel: Simulation, Model, Display, Performance and Help sections. Call between
// ImGui::NewFrame() and ImGui::Render(); it changes the WindowCore directly (live parameters).
#pragma once

#include "window_core.hpp"

namespace physarum::app {

struct PanelState {
  // Edits to size/agents/seed/spawn wait here until "Apply" (they reallocate).
  bool initialised = false;
  int width = 0, height = 0;
  int agents_k = 0;  // thousands
  int seed = 0;
  int spawn_mode = 0;
  bool vsync = true;
  bool fullscreen_request = false;  // set by the panel; the window acts on it
  bool vsync_changed = false;
  float ui_ms = 0;  // measured by the window: building + drawing the panel last frame
  bool visible = true;
};

void draw_panel(WindowCore& core, PanelState& state);

}  // namespace physarum::app
