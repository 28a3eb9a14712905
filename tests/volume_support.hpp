// What the volume's tests share: a CPU volume, its field as a vector, a voxel's index, a sum.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sim/volume.hpp"

namespace physarum::test {

// A small volume of one species with `rule` and the model's defaults otherwise.
inline VolumeConfig small_config(Size size, uint64_t agents, uint32_t seed, int threads, TurnRule rule) {
  VolumeConfig c;
  c.size = size;
  c.agents = agents;
  c.seed = seed;
  c.threads = threads;
  c.model.turn_rule = rule;
  return c;
}

inline std::unique_ptr<Volume> cpu(const VolumeConfig& c) {
  return create_volume(BackendKind::Cpu, c);
}

inline std::vector<float> field_of(Volume& v) {
  std::vector<float> f;
  v.read_field(f);
  return f;
}

inline double total(const std::vector<float>& f) {
  double s = 0;
  for (float v : f) s += v;
  return s;
}

// (z H + y) W + x.
inline size_t voxel(Size s, int x, int y, int z) {
  return (static_cast<size_t>(z) * static_cast<size_t>(s.height) + static_cast<size_t>(y)) *
             static_cast<size_t>(s.width) +
         static_cast<size_t>(x);
}

}  // namespace physarum::test
