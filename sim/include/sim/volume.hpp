// The volume model (docs/MODEL.md, "Volume"): agents in a W x H x D torus of voxels, one species,
// Jones's rule with a ring of sensors (sim/rule3d.hpp), on the CPU's threads. The field and the
// agents are the same bytes at every thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/points.hpp"
#include "sim/rule3d.hpp"

namespace physarum {

inline constexpr int kMaxRing = 16;

struct VolumeConfig {
  Size size{64, 64, 64};
  uint64_t agents = 100'000;
  uint32_t seed = 1;
  // The angles, distances, deposit, decay and diffuse as in two dimensions (the sensor angle is the
  // cone's half-angle); turn_rule and jitter do not apply.
  ModelParams model;
  int ring = 4;     // K, the sensors on the cone: 1 to kMaxRing
  int threads = 0;  // 0: default_threads()
};

// The step's parameters of a config; throws Error naming the first value out of range (and
// changes nothing).
rule3::Params3 make_params3(const VolumeConfig& c);

// Agents in id order, structure of arrays.
struct Agents3 {
  std::vector<float> x, y, z;
  std::vector<float> hx, hy, hz;
  size_t size() const { return x.size(); }
};

// A running volume on either backend: world 0 of nothing else, its own buffers.
class Volume {
 public:
  virtual ~Volume() = default;
  Volume(const Volume&) = delete;
  Volume& operator=(const Volume&) = delete;

  Size size() const { return size_; }
  uint64_t agent_count() const { return agents_; }
  uint64_t steps_done() const { return steps_; }
  const rule3::Params3& params() const { return p_; }
  virtual std::string name() const = 0;  // "cpu (2 threads)", "cuda (NVIDIA H200)"
  virtual BackendKind kind() const = 0;  // Cpu or Cuda (which queues its steps)

  virtual void step(int n) = 0;
  // (D, H, W), z slowest.
  virtual void read_field(std::vector<float>& out) = 0;
  // Replaces the field ((D, H, W) values, finite, |v| <= 1e30); throws Error and changes nothing
  // otherwise.
  void set_field(const std::vector<float>& values);
  virtual Agents3 agents() = 0;
  // The field where the volume keeps it, (D, H, W) floats one after another, after the queued steps
  // (for DLPack): host memory on the CPU, device memory on CUDA. The address stays while the volume
  // lives; the values are the latest step's.
  virtual FieldStorage field_storage() = 0;
  // Replaces the agents (agent_count() of them, positions inside the volume, headings of length 1
  // within 1e-3); throws Error and changes nothing otherwise.
  void set_agents(const Agents3& a);
  // Point data as food (sim/points.hpp, fit_points): each step, before the field update, every listed
  // voxel's F grows by strength x its weight (rule::emit). Voxels in increasing order, each once,
  // inside the volume; weights finite and >= 0; |strength| <= 1000. Throws Error and changes nothing
  // otherwise. An empty list: no food.
  void set_food(const std::vector<VoxelFood>& food, float strength = 1.0f);

 protected:
  explicit Volume(const VolumeConfig& c);
  virtual void upload_field(const std::vector<float>& values) = 0;
  virtual void upload_agents(const Agents3& a) = 0;
  // The checked food: its voxels and weights (E); food_strength_ is k.
  virtual void upload_food(const std::vector<uint32_t>& voxels, const std::vector<float>& weights) = 0;
  Size size_;
  uint64_t agents_;
  rule3::Params3 p_;
  uint64_t steps_ = 0;
  float food_strength_ = 1.0f;
};

// Spawns the agents (rule3::spawn_agent3) into a zero field. Auto takes CUDA when it was built and
// a device is there. Throws Error for a bad config or a missing backend, OutOfMemoryError when it
// does not fit.
std::unique_ptr<Volume> create_volume(BackendKind kind, const VolumeConfig& c);

// The spawned agents of a config, in id order (both backends start from these).
Agents3 spawn_volume_agents(const VolumeConfig& c, const rule3::Params3& p, int threads);

}  // namespace physarum
