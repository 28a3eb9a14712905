// The backend interface: what the program, the renderer and the tests call. CPU and CUDA
// implement it; callers never know which one they hold.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/environment.hpp"
#include "sim/params.hpp"
#include "sim/world.hpp"

namespace physarum {

// Agents as the model defines them, structure of arrays. Backends may reorder agents internally;
// read_agents() returns them sorted by id.
struct AgentState {
  std::vector<float> x;
  std::vector<float> y;
  std::vector<float> theta;
  std::vector<uint32_t> id;
  size_t size() const { return id.size(); }
};

// What a brush stroke paints (docs/MODEL.md, "Seeding and the brush"): the trail (amount > 0 adds,
// < 0 erases), food (E = max(0, E + amount)), walls, or erases walls (amount and channel unused).
enum class BrushMode { Trail, Food, Wall, EraseWall };

// A brush stroke in field coordinates (cells, y down).
struct BrushStroke {
  float x = 0;
  float y = 0;
  float radius = 10;
  float amount = 5;
  int channel = -1;  // Trail: the species' channel it paints into; -1: every channel
  BrushMode mode = BrushMode::Trail;
};

// set_field/brush: every channel at once.
inline constexpr int kAllChannels = -1;

struct SimConfig {
  Size size{1920, 1080};
  uint64_t agents = 2'000'000;
  uint32_t seed = 1;
  ModelParams model;
  SpawnParams spawn;
  SpeciesSet species;       // empty: one species, `model` and `spawn.mode` (docs/MODEL.md, "Several species")
  Environment environment;  // food, walls, boundary (docs/MODEL.md, "Environment"); default: none
  int scale = 1;            // the detail K, 1 to kMaxScale (docs/MODEL.md, "Scale")
  int threads = 0;          // CPU backend: 0 = default_threads(), else 1 to kMaxThreads
};

// The most CPU backend threads a run may ask for (--threads and SimConfig::threads).
inline constexpr int kMaxThreads = 1024;
// The threads the CPU backend uses for threads = 0: OpenMP's default (omp_get_max_threads(), which
// honours OMP_NUM_THREADS).
int default_threads();
// `scale` when it is 1 to kMaxScale and divides both sides of the field; throws Error naming it
// otherwise.
int checked_scale(int scale, Size size);

// A plane (sim/world.hpp): W x H cells, on the CPU or CUDA.
class Backend : public World {
 public:
  const ModelParams& model() const { return model_; }  // species 0's
  const SpeciesSet& species() const override { return species_; }
  // The detail K: the model's lengths run K times longer and the blur spreads K^2 times as far
  // (docs/MODEL.md, "Scale"); model() and species() hold the values as given, at K = 1.
  int scale() const { return scale_; }

  // Live: takes effect at the next step, no reallocation. Throws Error on invalid params.
  // With several species it sets species 0's model (set_species sets them all).
  void set_model(const ModelParams& m);
  // Live: every species' parameters, shares and the matrix. The number of species must stay the
  // same (another count needs a new backend). Throws Error and changes nothing otherwise.
  virtual void set_species(const SpeciesSet& s) = 0;
  // Replace the field. channel = kAllChannels: `values` is one plane (W x H, row-major), copied into
  // every channel, or species_count() planes (S, H, W). channel = c: one plane, into channel c.
  virtual void set_field(const std::vector<float>& values, int channel) = 0;
  void set_field(const std::vector<float>& values) { set_field(values, kAllChannels); }
  // Replace the agents (any order; ids must be a permutation of 0..N-1, N = agent_count()).
  virtual void set_agents(const AgentState& agents) = 0;
  virtual void brush(const BrushStroke& stroke) = 0;
  virtual AgentState read_agents() = 0;
  virtual StageTimings timings() = 0;
  // Each stage's milliseconds added up over every step so far, samples the steps: where every step
  // is timed stage by stage (the CPU backend), so the difference of two calls partitions exactly
  // the steps between them. samples 0 where the stages are only sampled (CUDA: one call in 8).
  virtual StageTimings stage_totals() const { return {}; }
  // Of stage_totals() around the step where they count every step, else timings().
  StageTimings timed_step() override;
  FieldStorage field_storage() override { return {}; }
  // set_live_parameters (sim/keyframes.hpp).
  void set_live_model(const Preset& p) override;

  // The environment (docs/MODEL.md, "Environment"). set_environment replaces food, walls, strengths
  // and boundary, live: validated first (Error, nothing changed); trail in walls becomes 0 and agents
  // standing in a new wall are moved out. brush() with a Food, Wall or EraseWall stroke edits it the
  // same way. environment() is what was set (the wall map without the boundary ring).
  void set_environment(const Environment& e);
  const Environment& environment() const { return env_; }
  // W x H planes for overlays: the food map (0 where none) and the run's walls (1 = wall, the
  // boundary ring included). environment_version() changes whenever either may have changed.
  void read_food(std::vector<float>& out) const;
  void read_walls(std::vector<uint8_t>& out) const;
  uint64_t environment_version() const { return env_version_; }

  // Publishing into a GPU surface handed in by the renderer (a cudaSurfaceObject_t as 64 bits, a
  // 2D surface of size(): R32F for one species, RGBA32F with channel c in component c for several,
  // unused components 0). Only the CUDA backend can; the others say no.
  virtual bool can_publish() const { return false; }
  virtual void publish(uint64_t surface_object) { (void)surface_object; }
  // The CUDA stream (a cudaStream_t as 64 bits) publish() writes on, so the renderer can map and
  // unmap the texture on it and never wait for the whole device; 0: unknown, the renderer waits.
  virtual uint64_t publish_stream() const { return 0; }

 protected:
  Backend(const SimConfig& c)
      : World(c.size, c.agents),
        model_(c.species.list.empty() ? c.model : c.species.list[0].model),
        species_(resolve_species(c.species, c.model, c.spawn.mode)),
        env_(c.environment),
        walls_(run_walls(c.environment, c.size)),
        scale_(checked_scale(c.scale, c.size)) {}
  // set_environment and environment brushes on a backend: env_ and walls_ already hold the new
  // environment; make the state follow (trail in walls 0, agents out of walls when `walls_added`).
  virtual void environment_changed(bool walls_added) { (void)walls_added; }
  // An environment brush stroke (Food, Wall, EraseWall) applied through set_environment.
  void brush_environment(const BrushStroke& stroke);
  // Versions are unique in the process, not per backend: a renderer that draws several backends in
  // turn (the window after a reallocation, the Python module) never takes one's maps for another's.
  static uint64_t next_environment_version();
  ModelParams model_;
  SpeciesSet species_;
  Environment env_;
  std::vector<uint8_t> walls_;  // run_walls(env_, size_): empty when the run has no walls
  uint64_t env_version_ = next_environment_version();
  int scale_ = 1;
};

// Creates a backend with agents spawned by spawn_agents(config) and a zero field. Auto picks CUDA
// when it was built and a device is present, else the CPU; `note` (if given) says what was chosen
// and why. Throws Error (e.g. "--backend cuda: no CUDA device", out of memory) and leaves nothing.
std::unique_ptr<Backend> create_backend(BackendKind kind, const SimConfig& config,
                                        std::string* note = nullptr);

bool cuda_built();          // compiled with the CUDA backend
std::string cuda_device();  // name of device 0, or "" when there is none (or it was not built)

}  // namespace physarum
