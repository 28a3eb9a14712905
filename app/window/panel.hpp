// The ImGui panel: a side panel (window/layout.hpp) with the Simulation, Record, Model, Display,
// Volume (a volume only), Presets, Seed image & brush, Twin and Graph (a plane only) and Help
// sections, and the Performance window when it is open. Call between ImGui::NewFrame() and
// ImGui::Render(); it changes the WindowCore directly (live parameters).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/area_fit.hpp"
#include "run/preset_library.hpp"
#include "window/brush.hpp"
#include "window/gallery.hpp"
#include "window/graph_overlay.hpp"
#include "window/layout.hpp"
#include "window/species_edit.hpp"
#include "window/toast.hpp"
#include "window/twin_panel.hpp"
#include "window/window_core.hpp"
#include "window/window_recording.hpp"

namespace physarum::app {

// What the panel and the function keys ask of the window, which acts on it at one place in the
// frame (drained in order, once a frame).
enum class PanelAction {
  ToggleRecording,   // start with the Record settings below, or stop
  Screenshot,        // F12: the field alone at field resolution, to physarum-<date>-<time>.png
  ScreenshotWindow,  // Shift+F12: the whole window, panel included
  ToggleFullscreen,
  ApplyVsync,    // `vsync` below changed
  Undo,          // Ctrl+Z (window/history.hpp)
  Redo,          // Ctrl+Shift+Z or Ctrl+Y
  Explore,       // E (window/explore_strip.hpp)
  AddKeyframe,   // K (window/timeline.hpp)
  RenderDetail,  // the run grown again headless at kDetailScale (window/detail_render.hpp)
  Quit,          // Esc: asks first while recording or with unsaved changes (window/quit_guard.hpp)
};

struct PanelState {
  std::vector<PanelAction> actions;  // pushed by the panel and the keys; drained by the window's frame

  // Edits to size/agents/seed/spawn wait here until "Apply" (they reallocate).
  bool initialised = false;
  int width = 0, height = 0;
  int depth = 1;              // a volume's; a plane's is 1
  int turntable_steps = 600;  // a volume's turntable story: one turn over this many steps
  int agents_k = 0;           // thousands
  int detail = 1;             // run.scale: width, height and agents above are at the run's own detail
  int seed = 0;
  int spawn_mode = 0;
  bool vsync = true;
  float ui_scale_auto = 1;   // the monitor's UI scale (window/ui_scale.hpp)
  float ui_scale_asked = 0;  // --ui-scale; 0: none (the panel's choice is layout.ui_scale)
  float ui_ms = 0;           // measured by the window: building + drawing the panel last frame
  bool visible = true;       // Tab: the panel and every window but the field
  LayoutState layout;        // which windows are open, kept between sessions (window/layout.hpp)

  // Species added or removed wait here until their "Apply" (they reallocate); empty: none planned.
  SpeciesPlan species_plan;
  int species_tab = 0;  // the species whose tab is open: "Add" copies its model

  GraphOverlay graph;  // the network graph over the field (window/graph_overlay.hpp)

  // Seed image and brush.
  BrushSettings brush;
  int image_fit = 0;  // 0: fill (cover, cropped), 1: fit (all of it, letterboxed)

  // Presets: scanned when the section first shows and on "Rescan".
  bool presets_scanned = false;
  std::vector<run::PresetEntry> presets;
  int preset_selected = -1;
  Gallery gallery;  // the presets as thumbnails (window/gallery.hpp)
  char save_name[65] = "my-preset";

  // Recording and screenshots: the panel asks (actions above), the window acts.
  int record_source = 0;  // RecordSource
  int record_fps = 60;
  int record_pacing = 0;       // index into kWindowPacings: smooth, every frame, real time
  int record_format = 0;       // VideoFormat: MP4, WebM, GIF, PNG sequence
  char record_path[512] = "";  // empty: physarum-<time>.mp4 in the current directory
  RecordingStatus recording;   // filled by the window each frame
  std::string detail_status;   // a detail render running: what and how long; filled each frame

  TwinPanelState twin;  // the twin view's perturbation (window/twin_panel.hpp)

  std::optional<run::AreaFit> cpu_fit;  // a preset opened smaller on the CPU (window/cpu_fit_note.hpp)
};

// Never throws: a failing action becomes an error toast (see run_panel_guarded).
void draw_panel(WindowCore& core, PanelState& state, Toasts& toasts);

// Runs `draw` (ImGui calls between NewFrame and Render). An exception from it becomes an error
// toast, and whatever it left open is closed, so the frame still ends and the program goes on.
void run_panel_guarded(Toasts& toasts, const std::function<void()>& draw);

}  // namespace physarum::app
