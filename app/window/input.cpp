#include "window/input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <cmath>

#include "window/orbit_input.hpp"

namespace physarum::app {
namespace {

void on_drop(GLFWwindow* w, int count, const char** paths) {
  auto* e = static_cast<WindowEvents*>(glfwGetWindowUserPointer(w));
  if (!e) return;
  // GLFW gives no modifiers with a drop: read the keys as they are now (Shift: food, Ctrl: walls).
  const auto down = [w](int key) { return glfwGetKey(w, key) == GLFW_PRESS; };
  int mods = 0;
  if (down(GLFW_KEY_LEFT_SHIFT) || down(GLFW_KEY_RIGHT_SHIFT)) mods |= GLFW_MOD_SHIFT;
  if (down(GLFW_KEY_LEFT_CONTROL) || down(GLFW_KEY_RIGHT_CONTROL)) mods |= GLFW_MOD_CONTROL;
  for (int i = 0; i < count; ++i) e->dropped.push_back(DroppedFile{paths[i], mods});
}

void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);  // ImGui sees every key first
  auto* e = static_cast<WindowEvents*>(glfwGetWindowUserPointer(w));
  if (e && (action == GLFW_PRESS || (action == GLFW_REPEAT && key == GLFW_KEY_S))) {
    e->keys.push_back(key_code(key, mods));  // the modifiers held at the press travel with the key
  }
}

void handle_keys(WindowCore& core, PanelState& panel, std::vector<int>& keys) {
  const bool typing = ImGui::GetIO().WantCaptureKeyboard;
  for (const int code : keys) {
    const int key = code & 0xffff, mods = code >> 16;
    switch (key) {
      case GLFW_KEY_F9: panel.actions.push_back(PanelAction::ToggleRecording); continue;
      case GLFW_KEY_F12:  // Shift+F12: the whole window with the panel; F12: the field alone
        panel.actions.push_back((mods & GLFW_MOD_SHIFT) != 0 ? PanelAction::ScreenshotWindow
                                                             : PanelAction::Screenshot);
        continue;
      case GLFW_KEY_F11: panel.actions.push_back(PanelAction::ToggleFullscreen); continue;
      default: break;
    }
    if (typing) continue;
    const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0, shift = (mods & GLFW_MOD_SHIFT) != 0;
    switch (key) {
      case GLFW_KEY_Z:
        if (ctrl) panel.actions.push_back(shift ? PanelAction::Redo : PanelAction::Undo);
        break;
      case GLFW_KEY_Y:
        if (ctrl) panel.actions.push_back(PanelAction::Redo);
        break;
      case GLFW_KEY_E: panel.actions.push_back(PanelAction::Explore); break;
      case GLFW_KEY_K: panel.actions.push_back(PanelAction::AddKeyframe); break;
      case GLFW_KEY_SPACE: core.toggle_pause(); break;
      case GLFW_KEY_S: core.step_once(); break;
      case GLFW_KEY_BACKSPACE: (void)core.reset(); break;  // a refusal shows as the notice
      case GLFW_KEY_R:
        if (core.is_volume()) {
          orbit_reset(core.preset.display);
        } else {
          core.view.reset();
        }
        break;
      case GLFW_KEY_TAB: panel.visible = !panel.visible; break;
      case GLFW_KEY_P: panel.layout.performance_open = !panel.layout.performance_open; break;
      case GLFW_KEY_A: panel.layout.atlas_open = !panel.layout.atlas_open; break;
      case GLFW_KEY_ESCAPE: panel.actions.push_back(PanelAction::Quit); break;
      default: break;
    }
  }
  keys.clear();
}

// A volume's picture: left drag turns the camera, the wheel brings it nearer, middle drag pans.
void handle_orbit(WindowCore& core, int fb_w, int fb_h) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse) return;
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const render::Area area = core.area(fb_w, fb_h);
  DisplayParams& d = core.preset.display;
  if (io.MouseWheel != 0.0f && area.contains(io.MousePos.x * sx, io.MousePos.y * sy))
    orbit_zoom(d, io.MouseWheel);
  const float dx = io.MouseDelta.x * sx, dy = io.MouseDelta.y * sy;
  if (dx == 0.0f && dy == 0.0f) return;
  if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) orbit_rotate(d, dx, dy, area);
  if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) orbit_pan(d, dx, dy, area, core.field_size());
}

void handle_mouse(WindowCore& core, const BrushSettings& brush, WindowEvents& events, int fb_w, int fb_h) {
  const ImGuiIO& io = ImGui::GetIO();
  const Size field = core.backend().size();
  // A drag ends when neither button is down, wherever the mouse is: a drag that ends over the panel
  // must not join the next click with a line from its last dab.
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left) && !ImGui::IsMouseDown(ImGuiMouseButton_Right)) {
    events.last_stroke.reset();
  }
  if (io.WantCaptureMouse) return;
  // Mouse positions are in window units; the view works in framebuffer pixels (HiDPI).
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const float px = io.MousePos.x * sx, py = io.MousePos.y * sy;
  const render::Area area = core.area(fb_w, fb_h);
  if (io.MouseWheel != 0.0f && area.contains(px, py))
    core.view.zoom_at(std::pow(1.15f, io.MouseWheel), px, py, area, field);
  if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) {
    core.view.pan(io.MouseDelta.x * sx, io.MouseDelta.y * sy, area, field);
  }
  const bool paint = ImGui::IsMouseDown(ImGuiMouseButton_Left),
             erase = ImGui::IsMouseDown(ImGuiMouseButton_Right);
  const auto stroke =
      (paint || erase) ? brush_stroke_at(core.view, px, py, area, field, brush, erase) : std::nullopt;
  if (!stroke) {
    events.last_stroke.reset();
    return;
  }
  // Fill the gap since the last frame's dab, so a fast drag paints a line.
  if (events.last_stroke) {
    for (const BrushStroke& dab : brush_segment(*events.last_stroke, *stroke)) core.brush(dab);
  } else {
    core.brush(*stroke);
  }
  events.last_stroke = stroke;
}

}  // namespace

void install_event_callbacks(GLFWwindow* win, WindowEvents* events) {
  glfwSetWindowUserPointer(win, events);
  glfwSetDropCallback(win, on_drop);
  glfwSetKeyCallback(win, on_key);  // replaces ImGui's, which on_key calls
}

void handle_input(WindowCore& core, PanelState& panel, WindowEvents& events, int fb_w, int fb_h) {
  handle_keys(core, panel, events.keys);
  if (core.is_volume()) {
    events.last_stroke.reset();
    handle_orbit(core, fb_w, fb_h);
  } else {
    handle_mouse(core, panel.brush, events, fb_w, fb_h);
  }
}

}  // namespace physarum::app
