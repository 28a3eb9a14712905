// Keys, the mouse and files dropped on the window. GLFW callbacks collect them; handle_input acts
// on them at their fixed place in the frame, after ImGui has had first claim.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "window/brush.hpp"
#include "window/drop.hpp"
#include "window/panel.hpp"
#include "window/window_core.hpp"

struct GLFWwindow;

namespace physarum::app {

// Keys are queued rather than polled: at 15 frames per second (the CPU backend) a quick tap can
// press and release between two frames, and polling would miss it.
struct WindowEvents {
  std::vector<DroppedFile> dropped;        // with the modifiers held at the drop (drop.hpp)
  std::vector<int> keys;                   // presses, and repeats of S (single step); see key_code
  std::optional<BrushStroke> last_stroke;  // while a paint/erase drag goes on
};
// A queued key: the GLFW key with the modifiers held when it was pressed (Ctrl+Z must not depend
// on Ctrl still being down when the frame handles it).
inline int key_code(int key, int mods) {
  return key | (mods << 16);
}

// Points the window's drop and key callbacks at `events` (the key callback forwards to ImGui's).
// Before `events` goes away: glfwSetWindowUserPointer(win, nullptr), and the callbacks do nothing.
void install_event_callbacks(GLFWwindow* win, WindowEvents* events);

// Acts on the queued keys and the mouse. The function keys become panel actions (they act even
// while a text field has the keyboard); the brush paints; the view pans and zooms.
void handle_input(WindowCore& core, PanelState& panel, WindowEvents& events, int fb_w, int fb_h);

}  // namespace physarum::app
