// The volume model (docs/MODEL.md, "Volume"): agents in a W x H x D torus of voxels, one species,
// Jones's rule with a ring of sensors (sim/rule3d.hpp), on the CPU's threads. The field and the
// agents are the same bytes at every thread count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/rule3d.hpp"

namespace physarum {

// "WxHxD"; throws Error naming the text when it is not three whole numbers from 1 to 65536.
Size3 parse_size3(const std::string& text);
std::string format_size3(Size3 s);

inline constexpr int kMaxRing = 16;

struct VolumeConfig {
  Size3 size{64, 64, 64};
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

class CpuVolume {
 public:
  // Spawns the agents (rule3::spawn_agent3) into a zero field. Throws Error for a bad config or
  // OutOfMemoryError when it would not fit in memory.
  explicit CpuVolume(const VolumeConfig& c);

  Size3 size() const { return size_; }
  uint64_t agent_count() const { return x_.size(); }
  uint64_t steps_done() const { return steps_; }
  const rule3::Params3& params() const { return p_; }
  std::string name() const;

  void step(int n);
  // (D, H, W), z slowest.
  const std::vector<float>& field() const { return field_; }
  // Replaces the field ((D, H, W) values, finite); throws Error and changes nothing otherwise.
  void set_field(const std::vector<float>& values);
  Agents3 agents() const;
  // Replaces the agents (agent_count() of them, positions inside the volume, headings of length 1
  // within 1e-3); throws Error and changes nothing otherwise.
  void set_agents(const Agents3& a);

 private:
  void step_agents();
  void update_field();

  Size3 size_;
  rule3::Params3 p_;
  int threads_;
  uint64_t steps_ = 0;
  std::vector<float> x_, y_, z_, hx_, hy_, hz_;
  std::vector<int32_t> cell_;  // the voxel each agent deposits into this step
  std::vector<uint32_t> counts_;
  std::vector<float> field_, next_, rows_, planes_;  // next_ holds G, then F'
};

}  // namespace physarum
