// GLFW and Dear ImGui for the window: the library, an OpenGL 4.5 core window sized for the field,
// the ImGui context, fullscreen. Owned resources, released in reverse order of their making.
#pragma once

#include <memory>
#include <string>

#include "sim/params.hpp"

struct GLFWwindow;

namespace physarum::app {

// glfwInit / glfwTerminate.
struct GlfwLibrary {
  bool ok = false;
  GlfwLibrary();
  ~GlfwLibrary();
  GlfwLibrary(const GlfwLibrary&) = delete;
  GlfwLibrary& operator=(const GlfwLibrary&) = delete;
};

struct WindowDeleter {
  void operator()(GLFWwindow* w) const;
};
using WindowPtr = std::unique_ptr<GLFWwindow, WindowDeleter>;

// The ImGui context with its GLFW and OpenGL 3 back ends, keeping its layout in the user's config
// folder (window/layout.hpp). The window scales it (window/ui_scale.hpp) once the layout is read.
struct ImGuiSession {
  explicit ImGuiSession(GLFWwindow* w);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

 private:
  std::string ini_file_;  // ImGui keeps a pointer to it
};

// F11: fullscreen on the primary monitor and back to where the window was.
struct Fullscreen {
  bool on = false;
  int x = 0, y = 0, w = 0, h = 0;
  void toggle(GLFWwindow* win);
};

// "cannot open a window: <why>" and how to run headless instead, on stderr.
void no_display(const char* why);
// GLFW's description of its last error.
std::string glfw_error();

// Window size in screen units: `asked` ("WxH") when given, else the field's aspect at up to
// 1280x800. Throws Error on a bad "WxH".
Size window_size(const std::string& asked, Size field);
// An OpenGL 4.5 core window with its context current and the GL functions loaded; null (told on
// stderr) when there is none to be had.
WindowPtr open_window(Size size, bool vsync);
// The primary monitor's content scale (the desktop's HiDPI setting), at least 1.
float monitor_content_scale();
// The UI scale the primary monitor asks for (window/ui_scale.hpp: monitor_ui_scale).
float primary_monitor_ui_scale();
// The window's default size grown by `factor` (a UI scale the desktop did not already apply), at
// most the primary monitor's work area, never smaller than `base`.
Size grown_window_size(Size base, float factor);

}  // namespace physarum::app
