// The volume model (docs/MODEL.md, "Volume"): agents in a W x H x D torus or closed box of voxels,
// one to four species, each with a ring of sensors (Jones's rule or the simple one) or MCPM's rule
// and its trace (sim/rule3d.hpp), walls as a volume, on the CPU's threads or CUDA. The field and the agents
// are the same bytes on both and at every thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/points.hpp"
#include "sim/rule3d.hpp"

namespace physarum {

struct VolumeConfig {
  Size size{64, 64, 64};
  uint64_t agents = 100'000;
  uint32_t seed = 1;
  // The angles, distances, deposit, decay and diffuse as in two dimensions (the sensor angle is the
  // cone's half-angle); turn_rule simple, jones or mcpm, with ring, sharpness and trace_decay;
  // jitter does not apply.
  ModelParams model;
  // Several species (docs/MODEL.md, "Volume", "Several species"): each its own model, share and
  // food_strength; spawn must be random. Empty: one species made of `model`, W = [[1]].
  SpeciesSet species;
  Boundary boundary = Boundary::Wrap;  // Walls: the outer shell of voxels is wall, the box closed
  int threads = 0;                     // 0: default_threads()
};

// The step's parameters of a config; throws Error naming the first value out of range (and
// changes nothing). make_params3 is species 0's.
rule3::Species3 make_species3(const VolumeConfig& c);
rule3::Params3 make_params3(const VolumeConfig& c);

// Agents in id order, structure of arrays.
struct Agents3 {
  std::vector<float> x, y, z;
  std::vector<float> hx, hy, hz;
  size_t size() const { return x.size(); }
};

// A running volume (sim/world.hpp) on either backend, its own buffers.
class Volume : public World {
 public:
  const rule3::Params3& params() const { return p_; }  // species 0's
  // As the config gave them, resolved (spawn random); set_live_model and set_live change them.
  const SpeciesSet& species() const override { return species_set_; }
  Boundary boundary() const { return boundary_; }
  // The walls of the run (the walls volume and a closed box's shell), (D, H, W), 1 = wall; empty
  // when there are none.
  const std::vector<uint8_t>& walls() const { return walls_; }

  // One step, timed stage by stage (`physarum bench`): the agents (clearing the counts, sensing,
  // moving, counting), the field (food, the update of every channel, the trace, the walls) and the
  // regrouping of the agents by voxel when this step ends with one (else 0). step_ms is their sum;
  // samples 1. Averaged over the steps between regroupings, they are the steps' average.
  StageTimings timed_step() override = 0;
  // MCPM's trace, shaped as the field; only a volume with a species whose rule is mcpm has one
  // (Error otherwise).
  bool has_trace() const { return mcpm_; }
  void read_trace(std::vector<float>& out);
  // Replaces the field: (D, H, W) values go into every channel, (S, D, H, W) values one plane a
  // channel; each finite, |v| <= 1e30. Wall voxels are set to 0. Throws Error and changes nothing
  // otherwise.
  void set_field(const std::vector<float>& values);
  virtual Agents3 agents() = 0;
  // The field where the volume keeps it, (S, D, H, W) floats one after another, after the queued steps
  // (for DLPack): host memory on the CPU, device memory on CUDA. The address stays while the volume
  // lives; the values are the latest step's.
  FieldStorage field_storage() override = 0;
  // Replaces the agents (agent_count() of them, positions inside the volume, headings of length 1
  // within 1e-3); those standing in a wall are moved out. Throws Error and changes nothing otherwise.
  void set_agents(const Agents3& a);
  // The walls volume: (D, H, W) bytes, non-zero = wall (empty: none; a closed box's shell stays).
  // The new walls' trail is set to 0 and the agents in them are moved out (docs/MODEL.md, "Walls
  // and the closed box"). Throws Error and changes nothing for a wrong size or when no voxel would
  // be free.
  void set_walls(const std::vector<uint8_t>& walls);
  // Point data as food (sim/points.hpp, fit_points): each step, before the field update, every listed
  // voxel that is not a wall grows by k_c x its weight in each channel c (rule::emit), k_c species
  // c's food_strength, else `strength`. Voxels in increasing order, each once,
  // inside the volume; weights finite and >= 0; |strength| <= 1000. Throws Error and changes nothing
  // otherwise. An empty list: no food.
  void set_food(const std::vector<VoxelFood>& food, float strength = 1.0f);
  // Live, from the next step: the model of `c` (each species' angles, distances, deposit, decay,
  // diffuse and food_strength, the ring, the matrix). Its size, agents, seed, boundary, number of
  // species and shares must be the volume's; throws Error naming the first that differs or a value
  // out of range, and changes nothing then. `food_strength` is the strength of species without one.
  void set_live(const VolumeConfig& c, float food_strength);
  // set_live(volume_config(p), p's environment.food_strength).
  void set_live_model(const Preset& p) override;

 protected:
  explicit Volume(const VolumeConfig& c);
  virtual void upload_field(const std::vector<float>& values) = 0;
  virtual void download_trace(std::vector<float>& out) = 0;  // called only when has_trace()
  virtual void upload_agents(const Agents3& a) = 0;
  // The checked food without the wall voxels: its voxels and weights (E); food_k_[c] is k_c.
  virtual void upload_food(const std::vector<uint32_t>& voxels, const std::vector<float>& weights) = 0;
  // The walls of the run (walls_) and their voxels in increasing order (wall_list_) have changed.
  virtual void upload_walls() = 0;
  // Moves the agents (in id order) that stand in a wall out (docs/MODEL.md, "Walls and the closed
  // box"); true when any moved.
  bool move_out_of_walls(Agents3& a) const;
  rule3::Walls3 walls_kind() const {
    return walls_.empty() ? rule3::Walls3::None
                          : (boundary_ == Boundary::Walls ? rule3::Walls3::Closed : rule3::Walls3::Wrapped);
  }
  rule3::Species3 sp_;
  rule3::Params3 p_;
  Boundary boundary_;
  bool mcpm_;  // some species' rule is mcpm: the volume keeps a trace
  float food_k_[rule3::kMaxSpecies] = {1.0f, 1.0f, 1.0f, 1.0f};
  std::vector<uint8_t> walls_;       // empty: none
  std::vector<uint32_t> wall_list_;  // the wall voxels, increasing

 private:
  void refresh_food();
  void apply_walls(std::vector<uint8_t> walls);
  SpeciesSet species_set_;
  std::vector<VoxelFood> food_;  // as handed in
  float food_strength_ = 1.0f;
  std::optional<float> species_food_[rule3::kMaxSpecies];  // a species' own strength
};

// Spawns the agents (rule3::spawn_agent3) into a zero field; a closed box's agents in its shell are
// moved out. Auto takes CUDA when it was built and
// a device is there. Throws Error for a bad config or a missing backend, OutOfMemoryError when it
// does not fit.
std::unique_ptr<Volume> create_volume(BackendKind kind, const VolumeConfig& c);

// The spawned agents of a config, in id order (both backends start from these).
Agents3 spawn_volume_agents(const VolumeConfig& c, const rule3::Params3& p, int threads);

}  // namespace physarum
