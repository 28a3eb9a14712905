// The mouse on a volume's picture moves its orbit camera (render/orbit_camera.hpp), which is the
// display keys camera_*: so what the mouse does is saved in presets, undone, and keyframed like any
// other value. Plain functions of pixels, no window, so the tests drive them directly.
#pragma once

#include "render/view.hpp"
#include "sim/params.hpp"

namespace physarum::app {

// A drag across the whole height of the picture turns the camera half a turn, whatever the window's
// size, as orbit controls of volume viewers do.
inline constexpr float kOrbitDegreesPerHeight = 180.0f;
// One notch of the wheel moves the camera this factor nearer (scrolled away: farther).
inline constexpr float kOrbitZoomPerNotch = 1.15f;

// A left drag of (dx, dy) framebuffer pixels over `area`: dragging right turns the volume to the
// right (the camera's yaw goes down), dragging down shows it more from above (pitch goes up). The
// yaw stays within -180..180 degrees, the pitch within the registry's range.
void orbit_rotate(DisplayParams& d, float dx, float dy, const Area& area);
// `notches` of the wheel (positive: away from the user, nearer), within the registry's distances.
void orbit_zoom(DisplayParams& d, float notches);
// A middle drag of (dx, dy) pixels: the volume follows the mouse in the picture's plane through
// the target (the target moves the other way), for a volume of `volume` voxels.
void orbit_pan(DisplayParams& d, float dx, float dy, const Area& area, Size volume);
// R: every camera key back to its default (the registry's), the 3/4 view of the whole volume.
void orbit_reset(DisplayParams& d);

}  // namespace physarum::app
