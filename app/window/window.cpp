// The interactive window. The loop is DESIGN.md's fixed frame loop: poll, ImGui frame, panel,
// input (only what ImGui does not want), sim steps, publish field, draw, ImGui draw, swap.
#include "window/window.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "common/seeding.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "render/png.hpp"
#include "sim/backend.hpp"
#include "video/process.hpp"
#include "video/recorder.hpp"
#include "video/signals.hpp"
#include "window/brush.hpp"
#include "window/panel.hpp"
#include "window/window_core.hpp"
#include "window/window_recording.hpp"

namespace physarum::app {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// GLFW init/terminate and the window as owned resources, destroyed in reverse order.
struct GlfwLibrary {
  bool ok = false;
  GlfwLibrary() { ok = glfwInit() == GLFW_TRUE; }
  ~GlfwLibrary() {
    if (ok) glfwTerminate();
  }
};
struct WindowDeleter {
  void operator()(GLFWwindow* w) const { glfwDestroyWindow(w); }
};
struct ImGuiSession {
  ImGuiSession(GLFWwindow* w, float scale) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini files left in the user's folders
    ImGui::StyleColorsDark();
    ImGui::GetStyle().ScaleAllSizes(scale);
    ImGui::GetIO().FontGlobalScale = scale;
    ImGui_ImplGlfw_InitForOpenGL(w, true);
    ImGui_ImplOpenGL3_Init("#version 450 core");
  }
  ~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
};

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

struct Fullscreen {
  bool on = false;
  int x = 0, y = 0, w = 0, h = 0;
  void toggle(GLFWwindow* win) {
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
};

// "physarum-20250101-120000.png" in the current directory; a suffix when that name is taken.
std::string timestamped_name(const char* extension) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  return unused_path(std::string("physarum-") + stamp + extension).string();
}

// Files dropped on the window and keys pressed, collected by GLFW callbacks and handled at their
// fixed place in the frame. Keys are queued rather than polled: at 15 frames per second (the CPU
// backend) a quick tap can press and release between two frames, and polling would miss it.
struct WindowEvents {
  std::vector<std::string> dropped;
  std::vector<int> keys;                   // presses, and repeats of S (single step)
  std::optional<BrushStroke> last_stroke;  // while a paint/erase drag goes on
};
void on_drop(GLFWwindow* w, int count, const char** paths) {
  auto* e = static_cast<WindowEvents*>(glfwGetWindowUserPointer(w));
  if (!e) return;
  for (int i = 0; i < count; ++i) e->dropped.emplace_back(paths[i]);
}
void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);  // ImGui sees every key first
  auto* e = static_cast<WindowEvents*>(glfwGetWindowUserPointer(w));
  if (e && (action == GLFW_PRESS || (action == GLFW_REPEAT && key == GLFW_KEY_S))) e->keys.push_back(key);
}

// Keys and mouse, read at their fixed place in the frame; ImGui gets first claim on both (the
// function keys act even while a text field has the keyboard).
void handle_input(GLFWwindow* win, WindowCore& core, PanelState& panel, Fullscreen& fs, WindowEvents& events,
                  int fb_w, int fb_h) {
  const ImGuiIO& io = ImGui::GetIO();
  const Size field = core.backend().size();
  for (const int key : events.keys) {
    switch (key) {
      case GLFW_KEY_F9: panel.record_toggle = true; continue;
      case GLFW_KEY_F12: panel.screenshot_request = true; continue;
      case GLFW_KEY_F11: panel.fullscreen_request = true; continue;
      default: break;
    }
    if (io.WantCaptureKeyboard) continue;
    switch (key) {
      case GLFW_KEY_SPACE: core.paused = !core.paused; break;
      case GLFW_KEY_S:
        core.paused = true;
        core.single_step = true;
        break;
      case GLFW_KEY_BACKSPACE: core.reset(); break;
      case GLFW_KEY_R: core.view.reset(); break;
      case GLFW_KEY_TAB: panel.visible = !panel.visible; break;
      case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(win, GLFW_TRUE); break;
      default: break;
    }
  }
  events.keys.clear();
  if (panel.fullscreen_request) {
    fs.toggle(win);
    panel.fullscreen_request = false;
  }
  // A drag ends when neither button is down, wherever the mouse is: a drag that ends over the panel
  // must not join the next click with a line from its last dab.
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left) && !ImGui::IsMouseDown(ImGuiMouseButton_Right)) {
    events.last_stroke.reset();
  }
  if (io.WantCaptureMouse) return;
  // Mouse positions are in window units; the view works in framebuffer pixels (HiDPI).
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const float px = io.MousePos.x * sx, py = io.MousePos.y * sy;
  if (io.MouseWheel != 0.0f) core.view.zoom_at(std::pow(1.15f, io.MouseWheel), px, py, fb_w, fb_h, field);
  if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) {
    core.view.pan(io.MouseDelta.x * sx, io.MouseDelta.y * sy, fb_w, fb_h, field);
  }
  const bool paint = ImGui::IsMouseDown(ImGuiMouseButton_Left),
             erase = ImGui::IsMouseDown(ImGuiMouseButton_Right);
  const auto stroke = (paint || erase)
                          ? brush_stroke_at(core.view, px, py, fb_w, fb_h, field, panel.brush, erase)
                          : std::nullopt;
  if (!stroke) {
    events.last_stroke.reset();
    return;
  }
  // Fill the gap since the last frame's dab, so a fast drag paints a line.
  if (events.last_stroke) {
    for (const BrushStroke& dab : brush_segment(*events.last_stroke, *stroke)) core.backend().brush(dab);
  } else {
    core.backend().brush(*stroke);
  }
  events.last_stroke = stroke;
}

}  // namespace

int run_window(const WindowOptions& o) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    no_display("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)");
    return kExitRuntime;
  }
  // The built-in size (1920x1080, 2M agents) is for a GPU. On the CPU backend with nothing asked
  // for, start smaller so the window stays smooth; --size, --agents or a preset override this.
  SimOptions sim_options = o.sim;
  const bool on_cpu = o.sim.backend == "cpu" || (o.sim.backend == "auto" && cuda_device().empty());
  if (on_cpu && o.sim.preset.empty() && o.sim.size.empty() && o.sim.agents.empty()) {
    sim_options.size = "960x540";
    sim_options.agents = "250K";
    std::printf(
        "physarum: CPU backend: starting at 960x540 with 250K agents to stay smooth "
        "(--size and --agents choose more)\n");
  }
  // Bad options are reported before a window flashes up.
  const Preset preset = resolve_preset(sim_options);
  if (!o.record.empty()) (void)pick_h264_encoder();  // no ffmpeg: say so now
  install_signal_handlers();
  // Choosing the encoder runs ffmpeg twice (the encoder list, a trial encode): done at the first
  // F9 it would freeze the window, so it starts now in the background and F9 finds it cached (or
  // waits for it). Waited for when run_window returns; run_capture's time limit bounds that.
  std::future<void> encoder_probe;
  if (o.record.empty() && find_on_path("ffmpeg")) {
    encoder_probe = std::async(std::launch::async, [] {
      try {
        (void)pick_h264_encoder();
      } catch (const std::exception&) {
        // F9 will report it.
      }
    });
  }

  GlfwLibrary glfw;
  if (!glfw.ok) {
    no_display(("GLFW cannot initialise: " + glfw_error()).c_str());
    return kExitRuntime;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
#if !defined(NDEBUG)
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
#endif

  // Window size: as asked, else the field's aspect at up to 1280x800 screen units.
  int win_w = 1280, win_h = 800;
  if (!o.size_window.empty()) {
    const Size s = parse_size(o.size_window);
    win_w = s.width, win_h = s.height;
  } else {
    const Size f = preset.run.size;
    const float fit = std::min(1280.0f / static_cast<float>(f.width), 800.0f / static_cast<float>(f.height));
    win_w = std::max(640, static_cast<int>(static_cast<float>(f.width) * std::min(fit, 1.0f)));
    win_h = std::max(480, static_cast<int>(static_cast<float>(f.height) * std::min(fit, 1.0f)));
    if (fit > 1.0f) win_w = 1280, win_h = 800;
  }
  std::unique_ptr<GLFWwindow, WindowDeleter> window(
      glfwCreateWindow(win_w, win_h, "physarum", nullptr, nullptr));
  if (!window) {
    no_display(("cannot create an OpenGL 4.5 core window: " + glfw_error()).c_str());
    return kExitRuntime;
  }
  GLFWwindow* win = window.get();
  glfwMakeContextCurrent(win);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    throw Error("cannot load the OpenGL 4.5 functions");
  }
  render::enable_gl_debug_output();
  bool vsync = o.vsync;
  glfwSwapInterval(vsync ? 1 : 0);
  float content_scale = 1.0f, unused = 1.0f;
  glfwGetWindowContentScale(win, &content_scale, &unused);

  int status = kExitOk;
  {
    ImGuiSession imgui(win, std::max(1.0f, content_scale));
    WindowCore core(sim_options);
    std::printf("physarum: %s (%s)\n", core.backend().name().c_str(), core.backend_note().c_str());
    PanelState panel;
    panel.vsync = vsync;
    panel.visible = !o.hide_panel;
    panel.image_fit = o.sim.image_fit == "fit" ? 1 : 0;
    panel.record_fps = o.record_fps;
    panel.record_source = o.record_window ? 1 : 0;
    panel.record_pacing = o.record_every_frame ? 1 : 0;
    Toasts toasts;
    WindowEvents events;
    glfwSetWindowUserPointer(win, &events);
    glfwSetDropCallback(win, on_drop);
    glfwSetKeyCallback(win, on_key);  // replaces ImGui's, which on_key calls
    WindowRecording recording;
    // A failed recording is also told on stderr; one asked for with --record fails the run.
    const auto recording_failed = [&](const std::string& msg) {
      std::fprintf(stderr, "physarum: %s\n", msg.c_str());
      if (!o.record.empty()) status = kExitRuntime;
    };
    if (!o.record.empty()) {
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(win, &fb_w, &fb_h);
      // Throws: exit 1 with the message.
      recording.start(o.record, o.record_window ? RecordSource::Window : RecordSource::Field, o.record_fps,
                      o.record_every_frame ? Pacing::EveryFrame : Pacing::RealTime, core, fb_w, fb_h);
      toasts.info("recording to " + o.record);
    }
    Fullscreen fs;
    if (o.fullscreen) fs.toggle(win);
    int frame = 0;
    auto frame_start = Clock::now();
    while (!glfwWindowShouldClose(win) && !stop_requested()) {
      // A minimised window waits for events instead of spinning the CPU, with a timeout: GLFW 3.3
      // resumes its wait after a signal, so without one Ctrl-C / SIGTERM would go unseen.
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(win, &fb_w, &fb_h);
      if (glfwGetWindowAttrib(win, GLFW_ICONIFIED) || fb_w == 0 || fb_h == 0) {
        glfwWaitEventsTimeout(0.1);
        continue;
      }
      glfwPollEvents();

      const auto ui_start = Clock::now();
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      panel.recording = recording.status();
      draw_panel(core, panel, toasts);
      double ui_ms = ms_since(ui_start);
      if (panel.vsync_changed) {
        glfwSwapInterval(panel.vsync ? 1 : 0);
        panel.vsync_changed = false;
      }
      try {  // the brush and the keys' actions: a failure is told, the program goes on
        handle_input(win, core, panel, fs, events, fb_w, fb_h);
      } catch (const std::exception& e) {
        events.last_stroke.reset();
        events.keys.clear();  // a key whose action failed is not tried again every frame
        toasts.error(e.what());
      }
      for (const std::string& path : events.dropped) {
        std::string msg;
        const ImageFit fit = panel.image_fit == 1 ? ImageFit::Fit : ImageFit::Fill;
        if (seed_from_image(core.backend(), core.preset, path, fit, &msg)) {
          toasts.info(msg);
        } else {
          toasts.error(msg);
        }
      }
      events.dropped.clear();
      if (panel.record_toggle) {
        panel.record_toggle = false;
        if (recording.active()) {
          const std::string msg = recording.stop();
          if (recording.status().rec.error.empty()) {
            toasts.info(msg);
          } else {
            toasts.error(msg);
            recording_failed(msg);
          }
        } else {
          // A typed name is kept for the next F9 too: each recording gets its own file (-2, -3...).
          const std::string file =
              panel.record_path[0] ? unused_path(panel.record_path).string() : timestamped_name(".mp4");
          try {
            recording.start(
                file, panel.record_source == 1 ? RecordSource::Window : RecordSource::Field, panel.record_fps,
                panel.record_pacing == 1 ? Pacing::EveryFrame : Pacing::RealTime, core, fb_w, fb_h);
            toasts.info("recording to " + file);
          } catch (const std::exception& e) {
            toasts.error(std::string("cannot record: ") + e.what());
            recording_failed(std::string("cannot record: ") + e.what());
          }
        }
      }

      core.step();
      core.render(fb_w, fb_h);
      recording.capture_field(core);

      const auto ui_draw_start = Clock::now();
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      ui_ms += ms_since(ui_draw_start);
      panel.ui_ms = static_cast<float>(ui_ms);

      recording.capture_window(fb_w, fb_h);
      if (const std::string err = recording.poll(); !err.empty()) {
        toasts.error(err);
        recording_failed(err);
      }

      ++frame;
      const bool last = o.frames > 0 && frame >= o.frames;
      if (last && !o.screenshot.empty()) {
        const auto rgba = render::read_framebuffer_rgba(fb_w, fb_h);
        render::write_png_rgba(o.screenshot, rgba.data(), fb_w, fb_h);
        std::printf("physarum: wrote %s (%dx%d)\n", o.screenshot.c_str(), fb_w, fb_h);
      }
      if (panel.screenshot_request) {
        panel.screenshot_request = false;
        const std::string file = timestamped_name(".png");
        try {
          const auto rgba = render::read_framebuffer_rgba(fb_w, fb_h);
          render::write_png_rgba(file, rgba.data(), fb_w, fb_h);
          toasts.info("screenshot saved: " + file);
        } catch (const std::exception& e) {
          toasts.error(std::string("screenshot failed: ") + e.what());
        }
      }
      glfwSwapBuffers(win);
      const double frame_ms = ms_since(frame_start);
      frame_start = Clock::now();
      core.history.push(static_cast<float>(core.sim_ms), static_cast<float>(core.renderer().draw_ms()),
                        static_cast<float>(ui_ms), static_cast<float>(frame_ms));
      if (frame == 1) std::printf("physarum: field upload: %s\n", core.renderer().interop_status().c_str());
      if (last) break;
    }
    if (recording.active()) {
      const std::string msg = recording.stop();
      if (recording.status().rec.error.empty()) {
        std::printf("physarum: %s\n", msg.c_str());
      } else {
        recording_failed(msg);
      }
    }
    glfwSetWindowUserPointer(win, nullptr);
  }
  if (stop_requested()) status = exit_code_for_signal(stop_signal());
  return status;
}

CommandFn add_window_options(CLI::App& app) {
  auto o = std::make_shared<WindowOptions>();
  add_sim_options(app, o->sim);
  app.add_option("--frames", o->frames, "Quit after N frames (for scripts and tests)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::NonNegativeNumber);
  app.add_option("--screenshot", o->screenshot, "Save the last frame (panel included) as PNG")
      ->type_name("FILE.png");
  app.add_option("--window", o->size_window, "Window size in screen units, e.g. 1280x800")->type_name("WxH");
  app.add_flag("!--no-vsync", o->vsync, "Do not wait for the display's refresh (uncapped frame rate)");
  app.add_flag("--fullscreen", o->fullscreen, "Start fullscreen (F11 toggles)");
  app.add_flag("--hide-panel", o->hide_panel, "Start with the panel hidden (Tab toggles)");
  app.add_option("--record", o->record, "Start recording to this MP4 at once (F9 stops and starts)")
      ->type_name("FILE.mp4");
  app.add_flag("--record-window", o->record_window,
               "Record the whole window with the panel (default: the field)");
  app.add_option("--record-fps", o->record_fps, "Frame rate of recordings")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 240));
  app.add_flag("--record-every-frame", o->record_every_frame,
               "One video frame per window frame (default: real time, the video lasts as long as it ran)");

  return [o] { return run_window(*o); };
}

}  // namespace physarum::app
