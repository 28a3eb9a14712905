// A running simulation made from a recipe: the world (a plane's backend or a volume, sim/world.hpp)
// with the preset's environment loaded and the seed image applied, its live preset, and the one way
// to step it (keyframes applied). The command
// line, the window, the sensitivity twins and Python drive a Run, so the same recipe grows the same
// bytes on every surface.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "run/environment_maps.hpp"
#include "run/recipe.hpp"
#include "run/seeding.hpp"
#include "sim/backend.hpp"
#include "sim/keyframes.hpp"
#include "sim/params.hpp"
#include "sim/volume.hpp"
#include "sim/world.hpp"

namespace physarum::run {

class Run {
 public:
  // Resolves the recipe, loads the seed image and the environment maps (a bad file throws
  // InputError before anything large is allocated), creates the backend and seeds it. Throws
  // UsageError for a bad value, InputError for a bad file, Error for a backend that cannot be made.
  explicit Run(const Recipe& recipe);

  // n steps; before each, the live preset's keyframed values at that step reach the backend (or
  // the volume: its model live, its display keys for the camera).
  void step(uint64_t n);
  // A volume's one step, timed stage by stage (Volume::timed_step), keyframes applied as step() does.
  StageTimings timed_volume_step();

  // The world, a plane or a volume: what both are (sim/world.hpp).
  World& world() { return *world_; }
  const World& world() const { return *world_; }
  // A preset whose run.size has a depth grows a volume (docs/MODEL.md, "Volume"; run/volume_setup.hpp)
  // instead of a plane: volume() is it, and backend() and what acts on a plane (images, the brush,
  // maps) throw UsageError saying so. set() and set_live() change a volume's model live.
  bool is_volume() const { return world_->volume() != nullptr; }
  Volume& volume();
  const Volume& volume() const;
  Backend& backend();
  const Backend& backend() const;
  // What the world says of itself, a plane or a volume.
  uint64_t steps_done() const { return world_->steps_done(); }
  Size size() const { return world_->size(); }
  uint64_t agent_count() const { return world_->agent_count(); }
  int species_count() const { return world_->species_count(); }
  std::string name() const { return world_->name(); }
  BackendKind kind() const { return world_->kind(); }
  // The preset in force: the recipe's, as keyframes and live edits left it.
  const Preset& preset() const { return live_; }
  // For what no step reads (display keys, keyframes): the window's panel and timeline write here.
  // Once it is handed out, each step() compares the keyframes with those its timeline was made
  // from (a pass over them per call, not per step), so an edit applies from the next step.
  Preset& live_preset() {
    live_handed_out_ = true;
    return live_;
  }
  const Recipe& recipe() const { return recipe_; }
  // Which backend and why ("cuda: NVIDIA H200", "cpu: no CUDA device found").
  const std::string& note() const { return note_; }
  // What the volume's food is made of ("20000 points of galaxies.csv in 12345 voxels"), "" for none.
  const std::string& food_note() const { return food_note_; }
  // The size and agents chosen for a preset made at another (resolve()'s `chosen`), "" when none
  // was: what the command line and the window print.
  const std::string& chosen() const { return chosen_; }

  // `section.key=value` assignments, live from the next step. Throws UsageError and changes nothing
  // when one does not apply, when the result is invalid, or when it would change run.size,
  // run.agents, run.seed or the number of species (those need a new Run).
  void set(const std::vector<std::string>& assignments);
  // `p`'s model, species and environment live (the same run and number of species). Throws Error,
  // changing nothing, when the backend or a map image refuses them.
  void set_live(const Preset& p);

  // Throws Error (a brush out of range) and changes nothing.
  void brush(const BrushStroke& stroke);
  // Seeds the field from an image (times spawn.field_strength; spawn.agents_from_image respawns the
  // agents). Throws InputError for a bad file, Error for refused values; nothing changes then.
  // Not kept for restart(): a script that seeds every step would hold every image.
  void seed_image(const std::filesystem::path& file, ImageFit fit);
  void seed_image(const LumaImage& image, ImageFit fit);
  // The same for a file dropped on the window, kept with its step so that restart() applies it again
  // there: false, changing nothing, with the reason in `message` for a file that cannot seed
  // (run/seeding.hpp, seed_from_image); `message` says what it did.
  bool seed_from_image(const std::filesystem::path& file, ImageFit fit, std::string* message);
  // Replaces the food map or the walls with an image. Throws InputError, changing nothing, when the
  // image or the resulting environment is refused (e.g. walls everywhere).
  void set_map(MapKind kind, const std::filesystem::path& file, ImageFit fit);

  // A new backend from `recipe` (new size, agents, seed or spawn), then `live`'s model, species and
  // environment on it; `live` becomes the preset in force. Throws, changing nothing, when it fails.
  // Forgets the seeds dropped while it ran: it is another run.
  void rebuild(const Recipe& recipe, const Preset& live);
  // The same run again from step 0 with `live`'s values: the recipe's seed image, and each seed
  // dropped while it ran applied again at the step it was dropped, so stepping grows what it grew
  // before (a seek back in time). Throws, changing nothing, when it fails.
  void restart(const Preset& live);

 private:
  void make_volume(BackendKind kind);
  void set_volume_live(const Preset& p);
  // The keyframed values at the volume's next step applied; how many of the next `most` steps share
  // its model.
  uint64_t volume_keyframes_at(uint64_t most);
  // The plane; throws UsageError for a volume run: `what` needs a plane.
  Backend& need_plane(const char* what) const;

  // Steps follow `timeline` (made from live_'s keyframes once, so a step costs nothing per keyframe).
  void follow_keyframes(KeyframeTimeline timeline);

  // `n` steps, stopping at the steps of the dropped seeds to apply them again.
  void step_through_seeds(uint64_t n);
  void apply_seeds_at(uint64_t step);

  // A seed image dropped while the run grew, and the step it was dropped at.
  struct LateSeed {
    uint64_t step = 0;
    ImageSeed seed;
  };
  std::vector<LateSeed> late_seeds_;
  std::string chosen_;  // before live_, which resolve() fills it with
  Recipe recipe_;
  Preset live_;
  std::unique_ptr<World> world_;
  std::string food_note_;
  std::string note_;
  KeyframeTimeline timeline_;
  std::vector<Keyframe> timeline_keyframes_;  // what timeline_ was made from
  bool live_handed_out_ = false;
};

}  // namespace physarum::run
