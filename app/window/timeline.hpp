// The keyframe timeline under the field (shown when the preset has keyframes): play/pause, a
// marker at the current step, keyframes as diamonds that drag along the track (left button) and
// delete (right click, or the button), "Add keyframe here" capturing the panel's values, and the
// ease of the selected keyframe. Edits go straight into WindowCore::preset, so saving the preset
// saves them and undo sees them.
#pragma once

#include <cstdint>

#include "sim/params.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

struct TimelineState {
  int selected = -1;        // index into preset.keyframes, -1: none
  uint64_t drag_span = 0;   // the track's span frozen while a keyframe is dragged (0: not dragging)
  bool force_show = false;  // show even without keyframes (after the last one was deleted)
};

// The edits, without ImGui (tests call them). Each keeps the keyframes in increasing steps.
// A keyframe at `step` holding every keyframable value of p (replacing one already at that step);
// the ease of the keyframe before it, linear for the first. Returns its index.
size_t add_keyframe_here(Preset& p, uint64_t step);
// Moves keyframe `index` to `step`; refused (returns `index`, nothing changes) when another
// keyframe is at that step. Returns the keyframe's new index.
size_t move_keyframe(Preset& p, size_t index, uint64_t step);
void delete_keyframe(Preset& p, size_t index);
// The steps the track shows: a little past the last keyframe and the current step, at least 100.
uint64_t timeline_span(const Preset& p, uint64_t current);

// Draws the timeline window; true when it is shown.
bool draw_timeline(WindowCore& core, TimelineState& st, Toasts& toasts);

}  // namespace physarum::app
