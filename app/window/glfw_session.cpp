#include "window/glfw_session.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>

#include "render/gl_objects.hpp"
#include "window/layout.hpp"
#include "window/ui_scale.hpp"

namespace physarum::app {

GlfwLibrary::GlfwLibrary() : ok(glfwInit() == GLFW_TRUE) {}
GlfwLibrary::~GlfwLibrary() {
  if (ok) glfwTerminate();
}

void WindowDeleter::operator()(GLFWwindow* w) const {
  glfwDestroyWindow(w);
}

ImGuiSession::ImGuiSession(GLFWwindow* w) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ini_file_ = prepare_ini_file().string();
  // Never ImGui's default, an imgui.ini in the current folder.
  ImGui::GetIO().IniFilename = ini_file_.empty() ? nullptr : ini_file_.c_str();
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(w, true);
  ImGui_ImplOpenGL3_Init("#version 450 core");
}

ImGuiSession::~ImGuiSession() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void no_display(const char* why) {
  std::fprintf(stderr,
               "physarum: cannot open a window: %s.\n"
               "  Headless, without a display: physarum render --steps 500 --out physarum.png\n"
               "  (see 'physarum render --help'; 'make run' does this for you).\n",
               why);
}

std::string glfw_error() {
  const char* d = nullptr;
  glfwGetError(&d);
  return d ? d : "unknown GLFW error";
}

void Fullscreen::toggle(GLFWwindow* win) {
  if (!on) {
    glfwGetWindowPos(win, &x, &y);
    glfwGetWindowSize(win, &w, &h);
    GLFWmonitor* m = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
    if (!mode) return;
    glfwSetWindowMonitor(win, m, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(win, nullptr, x, y, w, h, 0);
  }
  on = !on;
}

Size window_size(const std::string& asked, Size f) {
  if (!asked.empty()) return parse_size(asked);
  const float fit = std::min(1280.0f / static_cast<float>(f.width), 800.0f / static_cast<float>(f.height));
  if (fit > 1.0f) return {1280, 800};
  return {std::max(640, static_cast<int>(static_cast<float>(f.width) * fit)),
          std::max(480, static_cast<int>(static_cast<float>(f.height) * fit))};
}

WindowPtr open_window(Size size, bool vsync) {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
#if !defined(NDEBUG)
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif
  WindowPtr window(glfwCreateWindow(size.width, size.height, "physarum", nullptr, nullptr));
  if (!window) {
    no_display(("cannot create an OpenGL 4.5 core window: " + glfw_error()).c_str());
    return window;
  }
  glfwMakeContextCurrent(window.get());
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    throw Error("cannot load the OpenGL 4.5 functions");
  }
  render::enable_gl_debug_output();
  glfwSwapInterval(vsync ? 1 : 0);
  return window;
}

float monitor_content_scale() {
  float x = 1.0f, y = 1.0f;
  if (GLFWmonitor* m = glfwGetPrimaryMonitor()) glfwGetMonitorContentScale(m, &x, &y);
  return std::max(1.0f, x);
}

float primary_monitor_ui_scale() {
  GLFWmonitor* m = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
  int mm_w = 0, mm_h = 0;
  if (m) glfwGetMonitorPhysicalSize(m, &mm_w, &mm_h);
  return app::monitor_ui_scale(monitor_content_scale(), mode ? mode->width : 0, mm_w);
}

Size grown_window_size(Size base, float factor) {
  if (!(factor > 1.0f)) return base;
  int x = 0, y = 0, w = 0, h = 0;
  if (GLFWmonitor* m = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(m, &x, &y, &w, &h);
  if (w <= 0 || h <= 0) return base;
  const float fit = std::min({factor, static_cast<float>(w) / static_cast<float>(base.width),
                              static_cast<float>(h) / static_cast<float>(base.height)});
  if (fit <= 1.0f) return base;
  return {static_cast<int>(static_cast<float>(base.width) * fit),
          static_cast<int>(static_cast<float>(base.height) * fit)};
}

}  // namespace physarum::app
