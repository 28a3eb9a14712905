// The mouse on a volume's picture moves its orbit camera (render/orbit_camera.hpp), which is the
// display keys camera_*: so what the mouse does is saved in presets, undone, and keyframed like any
// other value. Plain functions of pixels, no window, so the tests drive them directly.
#pragma once

#include <cstdint>

#include "render/view.hpp"
#include "sim/keyframes.hpp"
#include "sim/params.hpp"

namespace physarum::app {

// A drag across the whole height of the picture turns the camera half a turn, whatever the window's
// size, as orbit controls of volume viewers do.
inline constexpr float kOrbitDegreesPerHeight = 180.0f;
// One notch of the wheel moves the camera this factor nearer (scrolled away: farther).
inline constexpr float kOrbitZoomPerNotch = 1.15f;

// A left drag of (dx, dy) framebuffer pixels over `area` as if grabbing the volume: dragging right
// turns its near side to the right (the camera goes round to the left, its yaw up), dragging down
// shows it more from above (the pitch goes up). The yaw stays within -180..180 degrees, the pitch
// within the registry's range.
void orbit_rotate(DisplayParams& d, float dx, float dy, const render::Area& area);
// `notches` of the wheel (positive: away from the user, nearer), within the registry's distances.
void orbit_zoom(DisplayParams& d, float notches);
// A middle drag of (dx, dy) pixels: the volume follows the mouse in the picture's plane through
// the target (the target moves the other way), for a volume of `volume` voxels.
void orbit_pan(DisplayParams& d, float dx, float dy, const render::Area& area, Size volume);
// R: every camera key back to its default (the registry's), the 3/4 view of the whole volume.
void orbit_reset(DisplayParams& d);

// A turntable story: keyframes of display.camera_yaw_deg from its value now at step `from` to one
// whole turn more at `from + steps`, added to the keyframes there: new keyframes are linear, one
// already at either step keeps its ease and its other values. Throws Error, changing nothing, when the
// keyframes that result are refused (validate_keyframes) or steps is 0.
void add_turntable(Preset& p, uint64_t from, uint64_t steps);

}  // namespace physarum::app
