#include "run/run.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "run/seeding.hpp"
#include "run/volume_setup.hpp"
#include "sim/keyframes.hpp"

namespace physarum::run {
namespace {

template <class F>
decltype(auto) as_input_error(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw InputError(e.what());
  }
}

ImageSeed recipe_image_seed(const Recipe& r, const Preset& p) {
  const ImageFit fit = image_fit(r);
  if (r.picture) return prepare_image_seed(*r.picture, p, p.run.size, p.run.agents, fit);
  return as_input_error([&] { return prepare_image_seed(r.image, p, p.run.size, p.run.agents, fit); });
}

}  // namespace

Run::Run(const Recipe& recipe) : recipe_(recipe), live_(resolve(recipe, &chosen_)) {
  const BackendKind kind = backend_kind(recipe_);
  if (live_.run.size.volume()) {
    make_volume(kind);
    return;
  }
  check_plane_preset(live_);
  // The images first: a bad file fails before anything large is allocated.
  const bool seeded = recipe_.picture.has_value() || !recipe_.image.empty();
  ImageSeed seed;
  if (seeded) seed = recipe_image_seed(recipe_, live_);
  SimConfig config = config_from(live_, recipe_.threads);
  config.environment =
      as_input_error([&] { return load_environment(live_.environment, live_.species, live_.run.size); });
  std::unique_ptr<Backend> plane = create_backend(kind, config, &note_);
  if (seeded) apply_image_seed(*plane, seed);
  world_ = std::move(plane);
  follow_keyframes(KeyframeTimeline(live_));
}

void Run::make_volume(BackendKind kind) {
  check_volume_preset(live_, recipe_);
  // The files first: a bad one fails before the volume is allocated.
  VolumeFood food = as_input_error([&] { return load_volume_food(live_.environment, live_.run.size); });
  const std::vector<uint8_t> walls =
      as_input_error([&] { return load_volume_walls(live_.environment, live_.run.size); });
  std::unique_ptr<Volume> volume;
  try {
    volume = create_volume(kind, volume_config(live_, recipe_.threads));
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error& e) {
    // A size or agent count the volume refuses is the caller's value.
    if (std::string(e.what()).rfind("--backend", 0) == 0) throw;
    throw UsageError(e.what());
  }
  // A walls volume that leaves no voxel free is the file's fault.
  if (!walls.empty()) as_input_error([&] { volume->set_walls(walls); });
  if (!food.food.empty()) volume->set_food(food.food, live_.environment.food_strength);
  food_note_ = std::move(food.note);
  note_ = volume->name();
  world_ = std::move(volume);
  follow_keyframes(KeyframeTimeline(live_));
}

void Run::set_volume_live(const Preset& p) {
  EnvironmentParams files = p.environment;
  files.food_strength = live_.environment.food_strength;
  if (!(files == live_.environment)) {
    throw UsageError(
        "a running volume keeps its food, walls, points and boundary; make a new one to change them");
  }
  check_volume_preset(p, recipe_);
  world_->set_live_model(p);
  live_ = p;
}

Volume& Run::volume() {
  Volume* v = world_->volume();
  if (!v)
    throw UsageError("this run is a plane (run.size = " + format_size(live_.run.size) + "), not a volume");
  return *v;
}

const Volume& Run::volume() const {
  return const_cast<Run*>(this)->volume();
}

Backend& Run::need_plane(const char* what) const {
  Backend* b = world_->plane();
  if (!b) {
    throw UsageError(std::string(what) + " works on a plane (run.size = WxH); " +
                     format_size(live_.run.size) +
                     " is a volume, which `physarum run`, `physarum bench` and Python grow");
  }
  return *b;
}

Backend& Run::backend() {
  return need_plane("this command");
}

const Backend& Run::backend() const {
  return need_plane("this command");
}

void Run::follow_keyframes(KeyframeTimeline timeline) {
  timeline_ = std::move(timeline);
  timeline_keyframes_ = live_.keyframes;
}

uint64_t Run::volume_keyframes_at(uint64_t most) {
  const uint64_t s = world_->steps_done();
  const Preset before = live_;
  timeline_.apply(live_, s);
  // Compared with what the volume runs, not with live_ before: a step() that ended at a keyframe left
  // live_ at its values already (for the display keys), and the volume still runs the earlier ones.
  if (!(world_->species() == resolve_species(live_.species, live_.model, SpawnMode::Random))) {
    const Preset keyed = live_;
    live_ = before;
    set_volume_live(keyed);
  }
  return timeline_.steps_sharing_the_model(s, most);
}

StageTimings Run::timed_volume_step() {
  if (live_handed_out_ && live_.keyframes != timeline_keyframes_) follow_keyframes(KeyframeTimeline(live_));
  Volume& v = volume();  // a plane's is refused here
  const bool keyed = !live_.keyframes.empty();
  if (keyed) (void)volume_keyframes_at(1);
  const StageTimings t = v.timed_step();
  if (keyed) timeline_.apply(live_, v.steps_done());
  return t;
}

void Run::step(uint64_t n) {
  if (live_handed_out_ && live_.keyframes != timeline_keyframes_) follow_keyframes(KeyframeTimeline(live_));
  if (Backend* plane = world_->plane()) {
    if (late_seeds_.empty()) {
      step_with_keyframes(*plane, live_, timeline_, n);
    } else {
      step_through_seeds(n);
    }
    return;
  }
  // A volume follows its keyframes here: step_with_keyframes and the seeds are a plane's.
  const bool keyed = !live_.keyframes.empty();
  for (uint64_t left = n; left > 0;) {
    const uint64_t most = std::min<uint64_t>(left, keyed ? 64 : 1U << 20);
    const int k = static_cast<int>(keyed ? volume_keyframes_at(most) : most);
    world_->step(k);
    left -= static_cast<uint64_t>(k);
  }
  // For whoever draws now: the display keys (a camera's turntable) at the step reached.
  if (keyed) timeline_.apply(live_, world_->steps_done());
}

void Run::step_through_seeds(uint64_t n) {
  Backend& plane = need_plane("a seed image");
  while (n > 0) {
    const uint64_t now = plane.steps_done();
    uint64_t run = n;
    for (const LateSeed& s : late_seeds_) {
      if (s.step > now) run = std::min(run, s.step - now);
    }
    step_with_keyframes(plane, live_, timeline_, run);
    n -= run;
    apply_seeds_at(plane.steps_done());
  }
}

void Run::apply_seeds_at(uint64_t step) {
  for (const LateSeed& s : late_seeds_) {
    if (s.step == step) apply_image_seed(need_plane("a seed image"), s.seed);
  }
}

void Run::set(const std::vector<std::string>& assignments) {
  Preset next = live_;
  for (const std::string& s : assignments) {
    try {
      apply_override(next, s);
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }
  try {
    validate(next);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  if (!(next.run == live_.run)) {
    throw UsageError(
        "run.size, run.agents and run.seed cannot change in a running simulation; make a new one");
  }
  if (next.species.list.size() != live_.species.list.size()) {
    throw UsageError("the number of species cannot change in a running simulation; make a new one");
  }
  try {
    set_live(next);
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

void Run::set_live(const Preset& p) {
  if (world_->volume()) {
    set_volume_live(p);
    return;
  }
  Backend& plane = *world_->plane();
  // Everything that can fail before anything changes. Map files are read again only when the
  // [environment] changed (a species edit in the panel must not reread them).
  std::optional<Environment> env;
  if (!(p.environment == live_.environment)) {
    env = as_input_error([&] { return load_environment(p.environment, p.species, plane.size()); });
  } else if (food_strengths(p.environment, p.species) != food_strengths(live_.environment, live_.species)) {
    env = plane.environment();
    env->food_strength = food_strengths(p.environment, p.species);
  }
  KeyframeTimeline timeline(p);
  plane.set_live_model(p);
  if (env) plane.set_environment(*env);
  live_ = p;
  follow_keyframes(std::move(timeline));
}

void Run::brush(const BrushStroke& stroke) {
  need_plane("the brush").brush(stroke);
}

void Run::seed_image(const std::filesystem::path& file, ImageFit fit) {
  Backend& plane = need_plane("a seed image");
  const ImageSeed seed =
      as_input_error([&] { return prepare_image_seed(file, live_, plane.size(), plane.agent_count(), fit); });
  apply_image_seed(plane, seed);
}

void Run::seed_image(const LumaImage& image, ImageFit fit) {
  Backend& plane = need_plane("a seed image");
  const ImageSeed seed = prepare_image_seed(image, live_, plane.size(), plane.agent_count(), fit);
  apply_image_seed(plane, seed);
}

bool Run::seed_from_image(const std::filesystem::path& file, ImageFit fit, std::string* message) {
  Backend* plane = world_->plane();
  if (!plane) {
    *message = "a seed image acts on a plane; this run is a volume";
    return false;
  }
  ImageSeed seed;
  if (!run::seed_from_image(*plane, live_, file, fit, message, &seed)) return false;
  late_seeds_.push_back({plane->steps_done(), std::move(seed)});
  return true;
}

void Run::set_map(MapKind kind, const std::filesystem::path& file, ImageFit fit) {
  Backend& plane = need_plane("a map image");
  std::string message;
  if (!set_map_from_image(plane, kind, file, fit, live_.environment.walls_threshold, &message)) {
    throw InputError(message);
  }
}

void Run::rebuild(const Recipe& recipe, const Preset& live) {
  Run next(recipe);
  const bool volume = world_->volume() != nullptr;
  if ((next.world_->volume() != nullptr) != volume) {
    throw UsageError(volume ? "a volume's run cannot become a plane; make a new one"
                            : "a plane's run cannot become a volume (run.size " +
                                  format_size(next.live_.run.size) +
                                  "); grow volumes with `physarum run --size WxHxD` or Python");
  }
  if (volume) {
    // A volume takes no live values: it is the recipe's, as made.
    world_ = std::move(next.world_);
    recipe_ = std::move(next.recipe_);
    note_ = std::move(next.note_);
    chosen_ = std::move(next.chosen_);
    food_note_ = std::move(next.food_note_);
    live_ = std::move(next.live_);
    timeline_ = std::move(next.timeline_);
    timeline_keyframes_ = std::move(next.timeline_keyframes_);
    late_seeds_.clear();
    return;
  }
  KeyframeTimeline timeline(live);
  Backend& plane = *next.world_->plane();
  plane.set_live_model(live);
  plane.set_environment(
      as_input_error([&] { return load_environment(live.environment, live.species, plane.size()); }));
  recipe_ = std::move(next.recipe_);
  world_ = std::move(next.world_);
  food_note_.clear();
  note_ = std::move(next.note_);
  chosen_ = std::move(next.chosen_);
  live_ = live;
  follow_keyframes(std::move(timeline));
  late_seeds_.clear();
}

void Run::restart(const Preset& live) {
  std::vector<LateSeed> seeds = late_seeds_;  // copied: a failed rebuild keeps them as they are
  rebuild(with_base(recipe_, live), live);
  late_seeds_ = std::move(seeds);
  apply_seeds_at(0);
}

}  // namespace physarum::run
