// The interactive window. run_window sets up, runs WindowSession::frame until the window closes,
// and tears down. A frame is the fixed frame loop: poll, ImGui frame, panel, input (only
// what ImGui does not want), sim steps, publish field, draw, ImGui draw, the panel's actions, swap.
#include "window/window.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "run/area_fit.hpp"
#include "sensitivity/perturbation.hpp"
#include "sim/backend.hpp"
#include "sim/data_dir.hpp"
#include "sim/elapsed.hpp"
#include "sim/png_writer.hpp"
#include "system/process.hpp"
#include "system/signals.hpp"
#include "video/recorder.hpp"
#include "window/atlas_window.hpp"
#include "window/detail_render.hpp"
#include "window/drop.hpp"
#include "window/explore_strip.hpp"
#include "window/frame_windows.hpp"
#include "window/glfw_session.hpp"
#include "window/history.hpp"
#include "window/input.hpp"
#include "window/layout.hpp"
#include "window/midi_control.hpp"
#include "window/panel.hpp"
#include "window/quit_guard.hpp"
#include "window/remote_control.hpp"
#include "window/timeline.hpp"
#include "window/ui_scale.hpp"
#include "window/window_core.hpp"
#include "window/window_recording.hpp"

namespace physarum::app {
namespace {

using run::kExitOk;
using run::kExitRuntime;

using Clock = std::chrono::steady_clock;

bool has_display() {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (display && *display) || (wayland && *wayland);
}

// The recipe the window opens, and how a preset was fitted to the CPU (run/area_fit.hpp).
struct CpuStart {
  run::Recipe recipe;
  std::optional<run::AreaFit> fit;
};

bool asks_size_or_agents(const run::Recipe& r) {
  if (!r.size.empty() || !r.agents.empty() || r.scale != 0) return true;
  return std::any_of(r.sets.begin(), r.sets.end(), [](const std::string& s) {
    return s.starts_with("run.size=") || s.starts_with("run.agents=") || s.starts_with("run.density=") ||
           s.starts_with("run.scale=");
  });
}

// The built-in size (1920x1080, 2M agents) and the presets' are for a GPU. On the CPU backend with
// no size or agents asked for, start smaller so the window stays smooth: the plain default at
// 960x540 with 250K agents, a preset at its own density within the CPU's frame budget.
CpuStart smooth_on_cpu(const run::Recipe& asked) {
  CpuStart start{asked, std::nullopt};
  run::Recipe& o = start.recipe;
  const bool on_cpu = o.backend == "cpu" || (o.backend == "auto" && cuda_device().empty());
  if (!on_cpu || asks_size_or_agents(o) || o.base) return start;
  if (o.preset.empty()) {
    o.size = "960x540";
    o.agents = "250K";
    std::printf(
        "physarum: CPU backend: starting at 960x540 with 250K agents to stay smooth "
        "(--size and --agents choose more)\n");
    return start;
  }
  const Preset p = run::resolve(o);
  const run::AreaFit fit = run::fit_to_budget(p.run, p.species.count(), 1);
  if (!fit.scaled) return start;
  o.size = format_size(fit.run.size);
  o.agents = std::to_string(fit.run.agents);
  std::printf(
      "physarum: CPU backend: starting at %s to stay smooth (--size and --agents choose; the "
      "panel offers the full size)\n",
      run::describe_fit(fit).c_str());
  start.fit = fit;
  return start;
}

// Choosing the encoder runs ffmpeg twice (the encoder list, a trial encode): done at the first F9
// it would freeze the window, so it starts now in the background and F9 finds it cached (or waits
// for it). Waited for when run_window returns; run_capture's time limit bounds that.
std::future<void> probe_encoder_in_background(const WindowOptions& o) {
  if (!o.record.empty() || !find_on_path("ffmpeg")) return {};
  return std::async(std::launch::async, [] {
    try {
      (void)pick_h264_encoder();
    } catch (const std::exception&) {
      // F9 will report it.
    }
  });
}

void save_screenshot(const std::string& file, int fb_w, int fb_h) {
  write_picture(file, render::read_framebuffer_rgba(fb_w, fb_h), {fb_w, fb_h});
}

// Everything a frame uses, for as long as the window is open.
class WindowSession {
 public:
  // `remote`: the OSC control (--osc), or null. `monitor_scale`: the UI scale the monitor asks for.
  WindowSession(const WindowOptions& o, GLFWwindow* win, const run::Recipe& sim, RemoteControl* remote,
                float monitor_scale);
  ~WindowSession() { glfwSetWindowUserPointer(win_, nullptr); }  // the callbacks may outlive events_
  WindowSession(const WindowSession&) = delete;
  WindowSession& operator=(const WindowSession&) = delete;

  // One frame; false after the last one (--frames).
  bool frame();
  // Stops an open recording; returns the exit status.
  int finish();
  void set_cpu_fit(const std::optional<run::AreaFit>& fit) { panel_.cpu_fit = fit; }

 private:
  void read_input(int fb_w, int fb_h);
  void take_dropped_files();
  void run_actions(int fb_w, int fb_h);
  void tell(const RecordingNote& note);
  void count_times(double ui_ms);
  ImageFit image_fit() const { return panel_.image_fit == 1 ? ImageFit::Fit : ImageFit::Fill; }
  void undo_redo(bool undo);
  void quit_or_ask();
  void render_detail();
  void poll_detail();
  // Before a frame: the UI scale the panel, --ui-scale or the monitor ask for, applied when it changed.
  void follow_ui_scale();

  const WindowOptions& o_;
  GLFWwindow* win_;
  RemoteControl* remote_;
  WindowCore core_;
  PanelState panel_;
  LayoutSettings layout_settings_{panel_.layout};
  QuitGuard quit_;
  SavedPreset saved_;
  Toasts toasts_;
  WindowEvents events_;
  WindowRecording recording_;
  Fullscreen fullscreen_;
  ParamHistory history_;
  std::unique_ptr<MidiControl> midi_;  // --midi
  TimelineState timeline_;
  ExploreStrip explore_;
  AtlasWindow atlas_;
  bool open_atlas_ = false;  // --atlas, done in the first frame: ImGui reads the saved layout in it
  DropDialog drops_;
  DetailRender detail_;
  int frame_ = 0;
  float ui_scale_ = 1;  // applied to ImGui
  Clock::time_point frame_start_ = Clock::now();
  int status_ = kExitOk;
};

WindowSession::WindowSession(const WindowOptions& o, GLFWwindow* win, const run::Recipe& sim,
                             RemoteControl* remote, float monitor_scale)
    : o_(o), win_(win), remote_(remote), core_(sim), explore_(std::random_device{}()) {
  // The layout file now, not at the first frame: its UI scale builds the first frame's font.
  if (const char* ini = ImGui::GetIO().IniFilename) ImGui::LoadIniSettingsFromDisk(ini);
  panel_.ui_scale_auto = monitor_scale;
  panel_.ui_scale_asked = o.ui_scale;
  ui_scale_ = chosen_ui_scale(o.ui_scale, panel_.layout.ui_scale, monitor_scale);
  apply_ui_scale(ui_scale_);  // the renderer makes its font texture at the first frame
  if (panel_.layout.written_at_scale > 0) rescale_panel(ui_scale_ / panel_.layout.written_at_scale);
  if (ui_scale_ != 1.0f) {
    std::printf("physarum: UI scale %s (%s; --ui-scale or the panel's UI scale choose)\n",
                scale_text(ui_scale_).c_str(),
                o.ui_scale > 0               ? "--ui-scale"
                : panel_.layout.ui_scale > 0 ? "chosen in the panel"
                                             : "the monitor's");
  }
  history_.reset(core_.preset);
  saved_.observe(core_.preset, core_.preset_file);
  if (core_.backend_note() == core_.backend_name()) {  // a volume's note is its name
    std::printf("physarum: %s\n", core_.backend_name().c_str());
  } else {
    std::printf("physarum: %s (%s)\n", core_.backend_name().c_str(), core_.backend_note().c_str());
  }
  open_atlas_ = o.atlas;
  panel_.vsync = o.vsync;
  panel_.visible = !o.hide_panel;
  panel_.image_fit = o.sim.image_fit == "fit" ? 1 : 0;
  panel_.record_fps = o.record_fps;
  panel_.record_source = o.record_window ? 1 : 0;
  const Pacing pacing =
      o.record_every_frame ? Pacing::EveryFrame : pacing_named(o.record_timing).value_or(Pacing::Smooth);
  panel_.record_pacing = static_cast<int>(
      std::find(std::begin(kWindowPacings), std::end(kWindowPacings), pacing) - std::begin(kWindowPacings));
  install_event_callbacks(win, &events_);
  if (!o.record.empty()) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(win, &fb_w, &fb_h);
    // Throws: exit 1 with the message.
    recording_.start(o.record, o.record_window ? RecordSource::Window : RecordSource::Field, o.record_fps,
                     pacing, core_, fb_w, fb_h);
    toasts_.info("recording to " + o.record + " (" + pacing_words(recording_.status().pacing, o.record_fps) +
                 ")");
  }
  if (remote_)
    toasts_.info("OSC: listening on UDP port " + std::to_string(remote_->port()) + " (/physarum/...)");
  if (o.midi) midi_ = std::make_unique<MidiControl>(midi_bindings_file(), true);
  if (o.fullscreen) fullscreen_.toggle(win);
  if (!o.twin.empty()) {
    std::snprintf(panel_.twin.spec, sizeof panel_.twin.spec, "%s", o.twin.c_str());
    if (const CommandResult r = core_.start_twin(o.twin); r) {
      toasts_.info("twin started: " + o.twin);
    } else {
      std::fprintf(stderr, "physarum: %s\n", r.error().c_str());
      toasts_.error(r.error());
    }
  }
}

bool WindowSession::frame() {
  // A minimised window waits for events instead of spinning the CPU, with a timeout: GLFW 3.3
  // resumes its wait after a signal, so without one Ctrl-C / SIGTERM would go unseen.
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(win_, &fb_w, &fb_h);
  if (glfwGetWindowAttrib(win_, GLFW_ICONIFIED) || fb_w == 0 || fb_h == 0) {
    glfwWaitEventsTimeout(0.1);
    return true;
  }
  glfwPollEvents();

  const auto ui_start = Clock::now();
  follow_ui_scale();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  if (std::exchange(open_atlas_, false)) {
    panel_.layout.atlas_open = true;
    if (!core_.is_volume()) atlas_.grow(core_, toasts_);
  }
  if (core_.is_volume() && (panel_.layout.atlas_open || panel_.layout.explore_open)) {
    panel_.layout.atlas_open = panel_.layout.explore_open = false;  // kept closed while a volume runs
    toasts_.error("the Atlas and Explore grow planes; this run is a volume");
  }
  panel_.recording = recording_.status();
  poll_detail();
  std::optional<Preset> before_ui;
  if (midi_) before_ui = core_.preset;  // MIDI learn binds the key the panel edits
  draw_frame_windows(core_, panel_, toasts_, timeline_, explore_, &atlas_);
  run_panel_guarded(toasts_, [&] { drops_.draw(core_, image_fit(), toasts_); });
  if (midi_) run_panel_guarded(toasts_, [&] { midi_->frame(*before_ui, core_, toasts_); });
  double ui_ms = ms_since(ui_start);
  read_input(fb_w, fb_h);
  take_dropped_files();
  if (remote_ && remote_->apply(core_, panel_.recording.active, panel_.actions, toasts_)) {
    panel_.initialised = false;  // the size, agents and seed fields follow
  }

  advance_timeline(core_, timeline_);  // a seek's next chunk, the loop's wrap
  core_.step();
  core_.render(fb_w, fb_h);
  recording_.capture_field(core_);

  const auto ui_draw_start = Clock::now();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ui_ms += ms_since(ui_draw_start);

  recording_.capture_window(fb_w, fb_h);
  if (std::string err = recording_.poll(); !err.empty()) tell({std::move(err), true});
  ++frame_;
  const bool last = o_.frames > 0 && frame_ >= o_.frames;
  if (last && !o_.screenshot.empty()) {
    save_screenshot(o_.screenshot, fb_w, fb_h);
    std::printf("physarum: wrote %s (%dx%d)\n", o_.screenshot.c_str(), fb_w, fb_h);
  }
  run_actions(fb_w, fb_h);  // after drawing: a screenshot shows this frame
  // A change that settled this frame (no widget held) is one undo step, whatever made it.
  (void)history_.observe(core_.preset, ImGui::IsAnyItemActive() || (remote_ && remote_->editing()) ||
                                           (midi_ && midi_->editing()));
  saved_.observe(core_.preset, core_.preset_file);
  glfwSwapBuffers(win_);
  count_times(ui_ms);
  return !last;
}

void WindowSession::follow_ui_scale() {
  const float want = chosen_ui_scale(panel_.ui_scale_asked, panel_.layout.ui_scale, panel_.ui_scale_auto);
  if (want == ui_scale_) return;
  apply_ui_scale(want);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  rescale_panel(want / ui_scale_);
  ui_scale_ = want;
}

// The brush and the keys' actions: a failure is told, the program goes on.
void WindowSession::read_input(int fb_w, int fb_h) {
  if (!drops_.waiting().empty()) {  // Esc answers the drop dialog instead of closing the window
    std::erase_if(events_.keys, [&](int code) {
      if ((code & 0xffff) != GLFW_KEY_ESCAPE) return false;
      drops_.cancel_first();
      return true;
    });
  }
  try {
    handle_input(core_, panel_, events_, fb_w, fb_h);
  } catch (const std::exception& e) {
    events_.last_stroke.reset();
    events_.keys.clear();  // a key whose action failed is not tried again every frame
    toasts_.error(e.what());
  }
}

// Dropped files with Shift or Ctrl load now; the others wait for the dialog (drop.hpp).
void WindowSession::take_dropped_files() {
  drops_.take(core_, events_.dropped, image_fit(), toasts_);
}

void WindowSession::run_actions(int fb_w, int fb_h) {
  for (const PanelAction action : panel_.actions) {
    switch (action) {
      case PanelAction::ToggleRecording: {
        const RecordingSettings settings{
            panel_.record_path, panel_.record_source == 1 ? RecordSource::Window : RecordSource::Field,
            panel_.record_fps, kWindowPacings[std::clamp(panel_.record_pacing, 0, 2)],
            kVideoFormats[std::clamp(panel_.record_format, 0, 3)]};
        tell(recording_.toggle(settings, core_, fb_w, fb_h));
        break;
      }
      case PanelAction::Screenshot:
      case PanelAction::ScreenshotWindow: {
        const std::string file = timestamped_name(".png");
        try {
          Size s{fb_w, fb_h};
          if (action == PanelAction::Screenshot) {
            s = save_picture(file, core_, fb_w, fb_h);
          } else {
            save_screenshot(file, fb_w, fb_h);
          }
          const std::string what = action == PanelAction::Screenshot ? "field" : "window";
          toasts_.info("Saved " + file + " (" + what + ", " + format_size(s) + ")");  // in the terminal too
        } catch (const std::exception& e) {
          toasts_.error(std::string("screenshot failed: ") + e.what());
        }
        break;
      }
      case PanelAction::ToggleFullscreen: fullscreen_.toggle(win_); break;
      case PanelAction::ApplyVsync: glfwSwapInterval(panel_.vsync ? 1 : 0); break;
      case PanelAction::Undo: undo_redo(true); break;
      case PanelAction::Redo: undo_redo(false); break;
      case PanelAction::Explore:
        if (core_.is_volume()) {
          toasts_.error("Explore grows planes; this run is a volume");
          break;
        }
        panel_.layout.explore_open = true;
        explore_.explore(core_, toasts_);
        break;
      case PanelAction::Quit: quit_or_ask(); break;
      case PanelAction::RenderDetail: render_detail(); break;
      case PanelAction::AddKeyframe:
        try {
          timeline_.selected = static_cast<int>(add_keyframe_here(core_.preset, core_.steps_done()));
          toasts_.info("keyframe at step " + std::to_string(core_.steps_done()));
        } catch (const std::exception& e) {
          toasts_.error(std::string("cannot add a keyframe: ") + e.what());
        }
        break;
    }
  }
  panel_.actions.clear();
}

// The preset before (after) the last settled change, applied as a preset load is.
void WindowSession::undo_redo(bool undo) {
  const std::optional<Preset> p = undo ? history_.undo(core_.preset) : history_.redo(core_.preset);
  if (!p) {
    toasts_.info(undo ? "nothing to undo" : "nothing to redo");
    return;
  }
  if (const CommandResult r = core_.apply_preset(*p, core_.preset_file); r) {
    panel_.initialised = false;  // the reallocation fields follow
    toasts_.info(undo ? "undone" : "redone");
  } else {
    toasts_.error(r.error());
  }
}

// The run's recipe grown again by this program in the background (window/detail_render.hpp), on
// the backend the window runs.
void WindowSession::render_detail() {
  if (core_.is_volume()) {
    toasts_.error("rendering at 4x detail grows a plane; this run is a volume");
    return;
  }
  const std::string backend = to_string(core_.backend_kind());
  // 4x the detail the window runs at: run.scale K0 becomes 4 K0.
  const int scale = core_.preset.run.scale * kDetailScale;
  if (scale > kMaxScale) {
    toasts_.error("the window runs at detail " + std::to_string(core_.preset.run.scale) + ": " +
                  std::to_string(kDetailScale) + "x that is past the finest detail, " +
                  std::to_string(kMaxScale));
    return;
  }
  const std::string picture = timestamped_name(("-" + std::to_string(kDetailScale) + "x.png").c_str());
  const uint64_t steps = core_.steps_done();
  const std::string why =
      detail_.start(core_.preset, steps, scale, backend, picture, executable_path().string());
  if (!why.empty()) {
    toasts_.error(why);
  } else {
    toasts_.info("rendering " + picture + " at " + std::to_string(kDetailScale) + "x detail, " +
                 std::to_string(steps) + " steps, in the background");
  }
}

void WindowSession::poll_detail() {
  if (const auto ended = detail_.poll()) {
    if (ended->ok) {
      toasts_.info(ended->message);
    } else {
      toasts_.error(ended->message);
    }
  }
  panel_.detail_status = detail_.running() ? detail_.status() : std::string();
}

void WindowSession::quit_or_ask() {
  const AtStake stake{recording_.status().active, saved_.unsaved(core_.preset), detail_.running()};
  if (quit_.press(stake, Clock::now())) {
    glfwSetWindowShouldClose(win_, GLFW_TRUE);
  } else {
    toasts_.info(QuitGuard::question(stake));
  }
}

// A recording's start, stop or failure as a toast; a failure also on stderr, and one asked for
// with --record fails the run.
void WindowSession::tell(const RecordingNote& note) {
  if (note.message.empty()) return;
  if (!note.error) {
    toasts_.info(note.message);
    return;
  }
  toasts_.error(note.message);
  std::fprintf(stderr, "physarum: %s\n", note.message.c_str());
  if (!o_.record.empty()) status_ = kExitRuntime;
}

void WindowSession::count_times(double ui_ms) {
  panel_.ui_ms = static_cast<float>(ui_ms);
  const double frame_ms = ms_since(frame_start_);
  frame_start_ = Clock::now();
  core_.history.push(static_cast<float>(core_.sim_ms), static_cast<float>(core_.draw_ms()),
                     static_cast<float>(ui_ms), static_cast<float>(frame_ms));
  if (frame_ == 1) std::printf("physarum: field upload: %s\n", core_.interop_status().c_str());
}

int WindowSession::finish() {
  const RecordingNote note = recording_.finish();
  if (note.error) {
    std::fprintf(stderr, "physarum: %s\n", note.message.c_str());
    if (!o_.record.empty()) status_ = kExitRuntime;
  } else if (!note.message.empty()) {
    std::printf("physarum: %s\n", note.message.c_str());
  }
  return status_;
}

}  // namespace

int run_window(const WindowOptions& o) {
  if (!has_display()) {
    no_display("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)");
    return kExitRuntime;
  }
  const CpuStart start = smooth_on_cpu(o.sim);
  const run::Recipe& sim = start.recipe;
  std::string chosen;
  const Preset preset = run::resolve(sim, &chosen);  // bad options are told before a window flashes up
  if (!start.fit && !chosen.empty()) std::fprintf(stderr, "physarum: %s\n", chosen.c_str());
  if (!o.twin.empty()) (void)sensitivity::parse_perturbation(o.twin);  // a bad spec too
  if (!o.record.empty()) (void)pick_h264_encoder();                    // no ffmpeg: say so now
  install_signal_handlers();
  const std::future<void> encoder_probe = probe_encoder_in_background(o);
  std::unique_ptr<RemoteControl> remote;  // a port in use fails here, before a window flashes up
  if (o.osc_port >= 0) {
    remote = std::make_unique<RemoteControl>(o.osc_port);
  }

  GlfwLibrary glfw;
  if (!glfw.ok) {
    no_display(("GLFW cannot initialise: " + glfw_error()).c_str());
    return kExitRuntime;
  }
  const float monitor_scale = primary_monitor_ui_scale();
  Size size = window_size(o.size_window, preset.run.size);
  // A UI scale the desktop did not apply (GLFW scales the window by its content scale) grows the
  // window with it, so the panel does not crowd the field.
  if (o.size_window.empty())
    size = grown_window_size(size, chosen_ui_scale(o.ui_scale, 0, monitor_scale) / monitor_content_scale());
  const WindowPtr window = open_window(size, o.vsync);
  if (!window) return kExitRuntime;
  int status = kExitOk;
  {
    ImGuiSession imgui(window.get());
    WindowSession session(o, window.get(), sim, remote.get(), monitor_scale);
    session.set_cpu_fit(start.fit);
    while (!glfwWindowShouldClose(window.get()) && !stop_requested() && session.frame()) {
    }
    status = session.finish();
  }
  if (remote) {
    std::printf("physarum: OSC: %llu messages applied, %llu refused\n",
                static_cast<unsigned long long>(remote->applied()),
                static_cast<unsigned long long>(remote->refused()));
  }
  if (stop_requested()) status = exit_code_for_signal(stop_signal());
  return status;
}

}  // namespace physarum::app
