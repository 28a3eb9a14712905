// What the window does each frame, without the window: the simulation, its controls, the field
// renderer, palettes, the view and the numbers the panel shows. The GLFW loop (window.cpp) and
// the headless GPU test drive it the same way. Needs a current OpenGL 4.5 context.
#pragma once

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "render/palette_blend.hpp"
#include "render/view.hpp"
#include "render/volume_renderer.hpp"
#include "run/run.hpp"
#include "window/twin_view.hpp"

namespace physarum::app {

// A ring of the last kHistory frames' timings (ms) for the panel's plots.
struct PerfHistory {
  static constexpr int kHistory = 240;
  std::array<float, kHistory> step{}, draw{}, ui{}, frame{};
  int head = 0;  // next slot to write
  void push(float step_ms, float draw_ms, float ui_ms, float frame_ms);
};

// What a command of the window did: done, or refused with the reason (and then nothing changed).
class [[nodiscard]] CommandResult {
 public:
  static CommandResult done() { return {}; }
  static CommandResult refused(std::string why) {
    CommandResult r;
    r.error_ = std::move(why);
    return r;
  }
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  // Why it was refused; empty when it was done.
  const std::string& error() const { return error_ ? *error_ : kNone; }

 private:
  static inline const std::string kNone;
  std::optional<std::string> error_;
};

// The window's state and its commands. A command returns what it did; a refused one changes nothing
// and also leaves its reason as the panel's notice. The run is a plane or a volume (is_volume());
// a volume is drawn by the volume renderer through the orbit camera of its display keys, and what
// needs a plane (the brush, images, the twin) is refused for it.
class WindowCore {
  run::Run run_;  // first: `preset` below refers into it

 public:
  explicit WindowCore(const run::Recipe& recipe);

  // The sim steps of this frame: steps_per_frame when running, one after a single-step request.
  void step();
  // Publish the field (interop or host copy) and draw it into the bound framebuffer, fitted into
  // area(fb_w, fb_h); a volume's picture fills that area.
  void render(int fb_w, int fb_h);
  // Where the field is fitted in a fb_w x fb_h framebuffer: `field_area` below, or the whole
  // framebuffer while that is empty. The view's zoom, pan and the brush map the mouse through it.
  render::Area area(int fb_w, int fb_h) const {
    return field_area.w > 0 && field_area.h > 0 ? field_area : render::Area::whole(fb_w, fb_h);
  }

  // Live model change; refused when the values are invalid.
  CommandResult apply_model(const ModelParams& m);
  // Several species: parameters, colours and the matrix, live (same count and spawn modes).
  // Refused when the backend refuses them.
  CommandResult apply_species(const SpeciesSet& s);
  // Another set of species (added or removed ones): a new backend with the same size, agents and
  // seed, every species of `s` and its matrix. One species with W = [[1]] becomes a plain preset
  // (model and spawn mode, no [[species]]), as a one-species preset is written.
  CommandResult apply_species_set(const SpeciesSet& s);
  // New backend with the same recipe: run parameters from `run`, spawn mode from `spawn`.
  CommandResult rebuild(const RunParams& run, const SpawnParams& spawn);
  CommandResult reset() { return rebuild(preset.run, preset.spawn); }
  // The same run again from step 0, seed images dropped meanwhile applied again at their steps
  // (run::Run::restart): a seek back grows what was grown.
  CommandResult restart();
  void reload_palettes();
  void select_palette(size_t index);
  const render::PaletteSet& palettes() const { return palettes_; }
  size_t palette_index() const { return palette_index_; }

  bool paused() const { return paused_; }
  void toggle_pause() { paused_ = !paused_; }
  // Pauses, and the next frame makes one step.
  void step_once() {
    paused_ = true;
    single_step_ = true;
  }
  // Draws this frame's field again into the bound framebuffer with another view (the recorder's
  // offscreen copy), after render(): the same range, and not counted in the draw timing.
  // (With the twin's overlay showing, the overlay; a volume's picture from its camera, `v` unused.)
  void draw_field(const render::View& v, int w, int h);
  // The size of the field alone as F12 and a recording of the field take it: a plane's cells, or
  // for a volume the picture as the window shows it (area(fb_w, fb_h)), even on each side for the
  // video encoders.
  Size picture_size(int fb_w, int fb_h) const;
  // Switches to a loaded preset: model and display live; a new backend only when the size,
  // agents, seed or spawn differ.
  CommandResult apply_preset(const Preset& p, const std::string& file);
  // Any edit of the live preset (an OSC message, a script): as apply_preset, but the file stays and
  // the maps' paths are taken as they are (the live preset's are already found).
  CommandResult apply_edit(const Preset& p);

  // A brush stroke for the simulation (and its twin, when one runs).
  void brush(const BrushStroke& stroke);
  // Starts the twin view from this moment (window/twin_view.hpp).
  CommandResult start_twin(const std::string& spec);

  // The last refusal or notice (e.g. a palette that is missing), shown in the panel until dismissed.
  const std::string& notice() const { return notice_; }
  void dismiss_notice() { notice_.clear(); }

  // A plane's backend; throws UsageError for a volume (run::Run::backend()).
  Backend& backend() { return run_.backend(); }
  run::Run& run() { return run_; }  // stepping it directly skips the frame's timing (a timeline seek)
  bool is_volume() const { return run_.is_volume(); }
  // What the panel and the timeline read, of a plane or a volume.
  Size field_size() const;  // W x H, or W x H x D
  uint64_t steps_done() const { return run_.steps_done(); }
  uint64_t agent_count() const;
  int species_count() const;
  SpeciesSet species() const;  // as running (a volume's: its preset's)
  BackendKind backend_kind() const;
  std::string backend_name() const;
  // The per-stage timings of a step: a plane's backend's; a volume's measured every
  // kVolumeTimingFrames frames by one timed step (a timed step waits for the GPU).
  StageTimings stage_timings();
  static constexpr uint64_t kVolumeTimingFrames = 30;
  const std::string& backend_note() const { return run_.note(); }
  const render::FieldRenderer& renderer() const { return renderer_; }
  // The renderer of the run's picture: its last draw's GPU time and how the field reaches it.
  double draw_ms() const;
  // The volume's draw by stage (zeros before the first volume).
  render::VolumeRenderer::StageMs volume_stage_ms() const;
  bool interop_active() const;
  const std::string& interop_status() const;

  Preset& preset;           // the run's live values: model as applied, display as shown
  std::string preset_file;  // where `preset` came from; empty: the built-in defaults
  render::View view;
  render::Area field_area;      // framebuffer pixels; set each frame by the window's layout (layout.hpp)
  int steps_per_frame = 1;      // 1..64
  int host_copy_interval = 15;  // quantile levels with interop: host copy every N frames
  TwinRun twin;                 // the perturbed twin and its overlay (window/twin_panel.hpp)

  // Measurements of the last frame.
  double sim_ms = 0;  // wall clock of step() (CPU backend: the work; CUDA: launch + sync)
  double agent_steps_per_s = 0;
  PerfHistory history;

 private:
  // A new backend for `p` (its run, spawn and species; the model set live), replacing the current
  // one. Throws, changing nothing, when it cannot be made.
  void reallocate(const Preset& p);
  CommandResult refuse(std::string why);
  // Quantile cave levels this frame need a host copy of the field or volume (render()).
  bool quantile_needs_host(bool has_range) const;
  // apply_preset and apply_edit: `failed` starts the refusal's message.
  CommandResult change_to(const Preset& p, const std::string& file, const char* failed);

  std::string notice_;
  render::PaletteSet palettes_;
  size_t palette_index_ = 0;
  render::PaletteFollower palette_follower_;  // what keyframes blend between palettes
  bool paused_ = false;
  bool single_step_ = false;

  // The volume's renderer, made when a volume first shows (it builds its programs then).
  render::VolumeRenderer& volume_renderer();
  void set_palette(const render::Palette& p);
  // A run of the other kind (plane <-> volume): a new run::Run in place of this one.
  void replace_run(const Preset& p);

  render::FieldRenderer renderer_;
  std::unique_ptr<render::VolumeRenderer> volume_renderer_;
  StageTimings volume_timings_;
  bool volume_made_ = true;  // a new volume: its food and walls go to the renderer at the next draw
  uint64_t frame_ = 0;
  std::chrono::steady_clock::time_point rate_start_ = std::chrono::steady_clock::now();
  uint64_t rate_steps_ = 0;
};

}  // namespace physarum::app
