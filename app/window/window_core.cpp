#include "window/window_core.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "run/volume_setup.hpp"
#include "sim/elapsed.hpp"
#include "sim/keyframes.hpp"

namespace physarum::app {

void PerfHistory::push(float step_ms, float draw_ms, float ui_ms, float frame_ms) {
  step[head] = step_ms;
  draw[head] = draw_ms;
  ui[head] = ui_ms;
  frame[head] = frame_ms;
  head = (head + 1) % kHistory;
}

WindowCore::WindowCore(const run::Recipe& recipe) : run_(recipe), preset(run_.live_preset()) {
  preset_file = recipe.preset;
  reload_palettes();
}

void WindowCore::reload_palettes() {
  const std::string current =
      palettes_.palettes.empty() ? preset.display.palette : palettes_.palettes[palette_index_].name;
  palettes_ = render::load_palettes(render::palette_dir());
  palette_index_ = palettes_.index_of(current);
  if (palettes_.palettes[palette_index_].name != current) {
    notice_ = "no palette named '" + current + "' in " + render::palette_dir().string() + "; showing " +
              palettes_.palettes[palette_index_].name;
  }
  select_palette(palette_index_);
}

void WindowCore::select_palette(size_t index) {
  palette_index_ = std::min(index, palettes_.palettes.size() - 1);
  preset.display.palette = palettes_.palettes[palette_index_].name;
  set_palette(palettes_.palettes[palette_index_]);
  palette_follower_.forget();
}

void WindowCore::set_palette(const render::Palette& p) {
  renderer_.set_palette(p);
  if (volume_renderer_) volume_renderer_->set_palette(p);
}

render::VolumeRenderer& WindowCore::volume_renderer() {
  if (!volume_renderer_) {
    volume_renderer_ = std::make_unique<render::VolumeRenderer>();
    volume_renderer_->set_palette(palettes_.palettes[palette_index_]);
    palette_follower_.forget();  // a keyframed blend reaches it at the next step
  }
  return *volume_renderer_;
}

Size WindowCore::field_size() const {
  return run_.size();
}

uint64_t WindowCore::agent_count() const {
  return run_.agent_count();
}

int WindowCore::species_count() const {
  return run_.species_count();
}

SpeciesSet WindowCore::species() const {
  if (!run_.is_volume()) return run_.backend().species();
  return resolve_species(preset.species, preset.model, preset.spawn.mode);
}

BackendKind WindowCore::backend_kind() const {
  return run_.kind();
}

std::string WindowCore::backend_name() const {
  return run_.name();
}

StageTimings WindowCore::stage_timings() {
  return run_.is_volume() ? volume_timings_ : run_.backend().timings();
}

double WindowCore::draw_ms() const {
  return run_.is_volume() && volume_renderer_ ? volume_renderer_->draw_ms() : renderer_.draw_ms();
}

render::VolumeRenderer::StageMs WindowCore::volume_stage_ms() const {
  return volume_renderer_ ? volume_renderer_->stage_ms() : render::VolumeRenderer::StageMs{};
}

bool WindowCore::interop_active() const {
  return run_.is_volume() ? volume_renderer_ && volume_renderer_->interop_active()
                          : renderer_.interop_active();
}

const std::string& WindowCore::interop_status() const {
  return run_.is_volume() && volume_renderer_ ? volume_renderer_->interop_status()
                                              : renderer_.interop_status();
}

Size WindowCore::picture_size(int fb_w, int fb_h) const {
  if (!run_.is_volume()) return field_size();
  const render::Area a = area(fb_w, fb_h);
  const auto even = [](float v) { return std::max(2, static_cast<int>(v) & ~1); };
  return {even(a.w), even(a.h)};
}

void WindowCore::step() {
  const int n = paused_ ? (single_step_ ? 1 : 0) : std::clamp(steps_per_frame, 1, 64);
  single_step_ = false;
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t from = run_.steps_done();
  const Preset before = twin.active() ? preset : Preset{};  // the twin steps with A's values
  if (run_.is_volume() && n > 0 && (frame_ % kVolumeTimingFrames == 0 || volume_timings_.samples == 0)) {
    run_.step(static_cast<uint64_t>(n - 1));
    volume_timings_ = run_.timed_volume_step();
  } else {
    run_.step(static_cast<uint64_t>(n));
  }
  if (twin.active()) twin.follow(run_.backend(), before, from, n);
  if (preset.display.palette != palettes_.palettes[palette_index_].name) {  // a keyframe switched it
    select_palette(palettes_.index_of(preset.display.palette));
  }
  if (palette_follower_.update(palettes_, preset, run_.steps_done())) {  // keyframes blend it
    set_palette(palette_follower_.current());
  }
  const auto t1 = std::chrono::steady_clock::now();
  sim_ms = ms_between(t0, t1);
  rate_steps_ += static_cast<uint64_t>(n);
  const double elapsed = std::chrono::duration<double>(t1 - rate_start_).count();
  if (elapsed >= 0.5) {  // a rate over half a second reads steadily
    agent_steps_per_s = static_cast<double>(rate_steps_) * static_cast<double>(agent_count()) / elapsed;
    rate_steps_ = 0;
    rate_start_ = t1;
  }
}

void WindowCore::render(int fb_w, int fb_h) {
  ++frame_;
  if (run_.is_volume()) {
    render::VolumeRenderer& r = volume_renderer();
    if (std::exchange(volume_made_, false)) {  // its food and walls, as overlays
      const Size size = field_size();
      r.set_environment(run::load_volume_food(preset.environment, size).food, run_.volume().walls(), size);
    }
    r.update_volume(run_.volume(), preset.display, render::channel_colours(species()),
                    quantile_needs_host(r.has_host_range_for(preset.display)));
    r.draw(preset.display, area(fb_w, fb_h), fb_w, fb_h);
    return;
  }
  if (twin.showing_difference()) {  // A's field is not needed for the overlay (the twin reads it)
    twin.draw(view, area(fb_w, fb_h), fb_w, fb_h);
    return;
  }
  renderer_.update_field(run_.backend(), quantile_needs_host(renderer_.has_host_range_for(preset.display)));
  renderer_.draw(preset.display, view, area(fb_w, fb_h), fb_w, fb_h);
}

// With interop the field stays on the GPU; quantile levels need a host copy now and then, and at
// once when there is none yet or the cave mode / levels changed (else they would be stale or all
// zero: a flat image). `has_range`: the renderer's last host range serves this display.
bool WindowCore::quantile_needs_host(bool has_range) const {
  return preset.display.cave == CaveMode::Quantile &&
         (!has_range || (frame_ - 1) % static_cast<uint64_t>(std::max(host_copy_interval, 1)) == 0);
}

void WindowCore::draw_field(const render::View& v, int w, int h) {
  if (run_.is_volume()) {
    volume_renderer().draw(preset.display, w, h);
  } else if (twin.showing_difference()) {
    twin.draw(v, render::Area::whole(w, h), w, h);
  } else {
    renderer_.draw_again(preset.display, v, w, h);
  }
}

void WindowCore::brush(const BrushStroke& stroke) {
  run_.brush(stroke);
  twin.brush(stroke);
}

CommandResult WindowCore::start_twin(const std::string& spec) {
  try {
    twin.start(run_.backend(), run_.recipe(), preset, spec);
    return CommandResult::done();
  } catch (const std::exception& e) {
    return refuse("cannot start the twin: " + std::string(e.what()));
  }
}

CommandResult WindowCore::refuse(std::string why) {
  notice_ = why;
  return CommandResult::refused(std::move(why));
}

namespace {
std::vector<SpawnMode> spawn_modes(const SpeciesSet& s) {
  std::vector<SpawnMode> m;
  for (const Species& sp : s.list) m.push_back(sp.spawn);
  return m;
}
}  // namespace

CommandResult WindowCore::apply_model(const ModelParams& m) {
  try {
    Preset p = preset;
    p.model = m;
    run_.set_live(p);
    return CommandResult::done();
  } catch (const Error& e) {
    return refuse(e.what());
  }
}

CommandResult WindowCore::apply_species(const SpeciesSet& s) {
  try {
    Preset p = preset;
    p.species = s;
    run_.set_live(p);
    return CommandResult::done();
  } catch (const Error& e) {
    return refuse(e.what());
  }
}

void WindowCore::reallocate(const Preset& p) {
  const Size before = field_size();
  if (p.run.size.volume() != run_.is_volume()) {
    replace_run(p);
  } else {
    run_.rebuild(run::with_base(run_.recipe(), p), p);
  }
  twin.stop("the simulation was rebuilt, so the twin stopped");
  volume_made_ = true;
  if (!(field_size() == before)) view.reset();
}

void WindowCore::replace_run(const Preset& p) {
  run::Recipe recipe = run::with_base(run_.recipe(), p);
  // A seed image acts on a plane: a volume made from a plane's recipe leaves it out.
  if (p.run.size.volume()) {
    recipe.image.clear();
    recipe.picture.reset();
  }
  run::Run next(recipe);  // throws, changing nothing
  next.set_live(p);
  run_ = std::move(next);    // `preset` refers to the same member, now the new run's
  (void)run_.live_preset();  // the new run follows the panel's edits of its keyframes too
  volume_timings_ = {};
}

CommandResult WindowCore::apply_species_set(const SpeciesSet& s) {
  try {
    validate(s);
    if (s.list.empty()) throw Error("no species");
    Preset next_preset = preset;
    if (is_single_plain(s)) {
      next_preset.model = s.list[0].model;
      next_preset.spawn.mode = s.list[0].spawn;
      next_preset.species = {};
    } else {
      next_preset.species = s;
    }
    validate(next_preset);
    // Always new agents and channels, also for as many species as before (one removed, one added):
    // the old trails belong to the old species.
    reallocate(next_preset);
    // A cave map read from a channel that is gone reads the sum.
    if (next_preset.display.cave_channel >= species_count()) next_preset.display.cave_channel = kCaveFromSum;
    preset = next_preset;
    notice_.clear();
    return CommandResult::done();
  } catch (const std::exception& e) {
    return refuse(std::string("could not apply the species: ") + e.what());
  }
}

CommandResult WindowCore::rebuild(const RunParams& run, const SpawnParams& spawn) {
  try {
    Preset live = preset;
    live.run = run;
    live.spawn.mode = spawn.mode;
    run_.rebuild(run::with_base(run_.recipe(), live), live);
    twin.stop("the simulation was rebuilt, so the twin stopped");
    volume_made_ = true;
    notice_.clear();
    if (!(run.size == renderer_.field_size())) view.reset();
    return CommandResult::done();
  } catch (const std::exception& e) {
    return refuse(std::string("could not apply: ") + e.what());
  }
}

CommandResult WindowCore::restart() {
  try {
    run_.restart(preset);
    twin.stop("the simulation was rebuilt, so the twin stopped");
    volume_made_ = true;
    notice_.clear();
    return CommandResult::done();
  } catch (const std::exception& e) {
    return refuse(std::string("could not go back: ") + e.what());
  }
}

CommandResult WindowCore::apply_preset(const Preset& given, const std::string& file) {
  Preset p = given;
  if (!file.empty()) run::locate_maps_beside(p, file);  // as for --preset
  return change_to(p, file, "could not load the preset: ");
}

CommandResult WindowCore::apply_edit(const Preset& p) {
  return change_to(p, preset_file, "could not apply: ");
}

CommandResult WindowCore::change_to(const Preset& p, const std::string& file, const char* failed) {
  try {
    validate(p);
    // Another number of species, or species that spawn elsewhere, need new agents and channels.
    const bool realloc = !(p.run == preset.run) || !(p.spawn == preset.spawn) ||
                         p.species.count() != species_count() ||
                         spawn_modes(p.species) != spawn_modes(preset.species);
    if (realloc) {
      reallocate(p);
    } else {
      run_.set_live(p);  // maps first: a bad image throws before anything changed
    }
    preset = p;
    preset_file = file;
    const size_t i = palettes_.index_of(p.display.palette);
    select_palette(i);
    preset.display = p.display;
    if (palettes_.palettes[i].name != p.display.palette) {
      notice_ = "no palette named '" + p.display.palette + "'; showing " + palettes_.palettes[i].name;
      preset.display.palette = palettes_.palettes[i].name;
    } else {
      notice_.clear();
    }
    return CommandResult::done();
  } catch (const std::exception& e) {
    return refuse(failed + std::string(e.what()));
  }
}

}  // namespace physarum::app
