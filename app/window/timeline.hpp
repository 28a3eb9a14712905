// The keyframe timeline under the field (shown when the preset has keyframes): play/pause, a step
// ruler with labels, a playhead that scrubs (a seek re-runs the run, window/timeline_seek.hpp), a
// loop range set on the ruler, keyframes as diamonds (left click selects, a drag moves one, snapped
// to the ruler's small ticks, Alt for single steps; right click deletes), "Add keyframe here"
// capturing the panel's values, and the selected keyframe's ease and values edited in place. Edits
// go straight into WindowCore::preset, so saving the preset saves them, and the window's undo
// history sees a whole drag as one step (an item is held until the button is released).
#pragma once

#include <cstdint>

#include "sim/params.hpp"
#include "window/timeline_seek.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

struct TimelineState {
  int selected = -1;        // index into preset.keyframes, -1: none
  uint64_t drag_span = 0;   // the track's span frozen while something is dragged (0: not dragging)
  bool moving = false;      // the selected keyframe follows the mouse
  bool scrubbing = false;   // the playhead follows the mouse
  uint64_t scrub_to = 0;    // where the playhead was dragged to
  bool force_show = false;  // show even without keyframes (after the last one was deleted)
  bool resume_after_seek = false;
  Seeker seeker;
  LoopRange loop;
  // The ruler and the track as last drawn, in screen pixels: for hit tests, and for tests that
  // drive the mouse.
  float x0 = 0, x1 = 1, ruler_mid = 0, track_mid = 0;
  float left = 0, bottom = 0, width = 0;  // the window's place, as the person left it (0: not yet placed)
  uint64_t span = 100;
};

// The edits, without ImGui (tests call them). Each keeps the keyframes in increasing steps.
// A keyframe at `step` holding every keyframable value of p (replacing one already at that step);
// the ease of the keyframe before it, linear for the first. Returns its index.
size_t add_keyframe_here(Preset& p, uint64_t step);
// Moves keyframe `index` to `step`; refused (returns `index`, nothing changes) when another
// keyframe is at that step. Returns the keyframe's new index.
size_t move_keyframe(Preset& p, size_t index, uint64_t step);
void delete_keyframe(Preset& p, size_t index);
// The steps the track shows: a little past the last keyframe, the current step and the loop's
// end, at least 100.
uint64_t timeline_span(const Preset& p, uint64_t current, uint64_t loop_out = 0);
// The screen x of a step on the track as last drawn, and the step under a screen x (unrounded).
float x_of_step(const TimelineState& st, uint64_t step);
double step_at_x(const TimelineState& st, float x);
// The grid a dragged keyframe snaps to: the ruler's small ticks.
uint64_t snap_grid(const TimelineState& st);

// The timeline's work of a frame, drawn or not: the seek's next chunk, the loop's wrap, the step
// time the estimates use. Call before the frame's own steps (WindowCore::step).
void advance_timeline(WindowCore& core, TimelineState& st);
// Starts a seek to `target`, pausing the run while it goes and playing on after it when it played.
void seek_to(WindowCore& core, TimelineState& st, uint64_t target);

// Draws the timeline window; true when it is shown.
bool draw_timeline(WindowCore& core, TimelineState& st, Toasts& toasts);

// Internals of the timeline's files.
void timeline_ruler(WindowCore& core, TimelineState& st);
void timeline_track(WindowCore& core, TimelineState& st);
// The selected keyframe's ease, its values with the registry's widgets (ranges from
// window/panel_values.hpp); a value the registry refuses is a toast and changes nothing.
void selected_keyframe_editor(WindowCore& core, TimelineState& st, Toasts& toasts);

}  // namespace physarum::app
