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

// The ImGui context with its GLFW and OpenGL 3 back ends, scaled for the monitor, keeping its
// layout in the user's config folder (window/layout.hpp).
struct ImGuiSession {
  ImGuiSession(GLFWwindow* w, float scale);
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
// The monitor's content scale (HiDPI), at least 1.
float content_scale(GLFWwindow* win);

}  // namespace physarum::app
