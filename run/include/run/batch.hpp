// Many runs grown together (docs/MODEL.md, "Batches"): the atlas's worlds, an ensemble's seeds,
// sensitivity's twins, Explore's previews. Recipes whose worlds can share a batch (one size, agent
// count and species count, detail 1, no food, walls, seed image or keyframes) on a CUDA device run as
// one sim WorldBatch, one launch per stage for all; others run as separate runs, side by side on
// the CPU (one thread each) or one after another on the GPU. Either way world i grows the bytes
// run::Run(recipes[i]) grows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "run/recipe.hpp"
#include "run/run.hpp"
#include "sim/world_batch.hpp"

namespace physarum::run {

class Batch {
 public:
  // Throws as Run does (UsageError, InputError, Error), having made nothing, for any recipe.
  // `threads`: the most CPU threads the worlds that ask for every core use together, 0 for every
  // core (the window keeps some for its own run); the bytes do not depend on it.
  explicit Batch(const std::vector<Recipe>& recipes, int threads = 0);

  size_t worlds() const { return presets_.size(); }
  // Every world n more steps.
  void step(uint64_t n);
  uint64_t steps_done() const { return steps_; }

  // World i: its field as Backend::read_field reads it ((S, H, W) planes), the preset it runs, its
  // resolved species, and its environment's maps as Backend::read_food and read_walls give them.
  void read_field(size_t i, std::vector<float>& out);
  const Preset& preset(size_t i) const { return presets_.at(i); }
  const SpeciesSet& species(size_t i) const { return species_.at(i); }
  Size size(size_t i) const { return presets_.at(i).run.size; }
  uint64_t agent_count() const { return presets_.front().run.agents; }  // a world's
  AgentState read_agents(size_t i);
  // World i's agents or field (every channel, (S, H, W) or one plane) replaced, as Backend::set_agents
  // and set_field do; throws Error and changes nothing when refused.
  void set_agents(size_t i, const AgentState& agents);
  void set_field(size_t i, const std::vector<float>& values);
  void read_food(size_t i, std::vector<float>& out) const;
  void read_walls(size_t i, std::vector<uint8_t>& out) const;

  // Whether the worlds share CUDA batches, and how they run, for a person:
  // "cuda (NVIDIA H200), 256 worlds a launch", "cpu, 8 worlds side by side on 8 threads",
  // "one after another on cuda (NVIDIA H200): world 3 has food or walls: ...".
  bool batched() const { return !groups_.empty(); }
  const std::string& note() const { return note_; }
  // The per-stage timings of the first batch (StageTimings of its recent steps; zeros unbatched).
  StageTimings timings();
  // The backend's name ("cuda (NVIDIA H200)", "cpu (1 thread)"): a batch's or the first run's.
  std::string backend_name() const;

 private:
  void make_groups(const std::vector<SimConfig>& configs);
  void make_runs(const std::vector<Recipe>& recipes, const std::string& why, int threads);

  std::vector<Preset> presets_;
  std::vector<SpeciesSet> species_;
  // Batched: the worlds in groups (as many as fit one batch each), world i in group i / group_size_.
  std::vector<std::unique_ptr<WorldBatch>> groups_;
  size_t group_size_ = 0;
  // Otherwise: a run each, side by side when side_by_side_.
  std::vector<std::unique_ptr<Run>> runs_;
  int lanes_ = 0;  // side by side on this many threads; 0: one after another
  uint64_t steps_ = 0;
  std::string note_;
};

// Why these recipes' worlds cannot share a CUDA batch, or "" when they can (they resolve, and the
// device is there).
std::string batch_refusal(const std::vector<Recipe>& recipes);
// How many worlds of preset `p` to grow at once: as many as keep their cells and agents within about
// 2^27 (a few GB on either backend), at least one.
size_t worlds_a_batch(const Preset& p);

// How many threads the recipes' worlds share when they run side by side (CPU worlds asking for every
// core, more than one of them, with more than one core to share: the machine's, or at most
// `threads` when that is above 0); 0 when they do not.
int side_by_side_lanes(const std::vector<Recipe>& recipes, int threads = 0);

}  // namespace physarum::run
