// The volume model's set-up shared by its backends (docs/MODEL.md, "Volume"): sizes, the step's
// parameters, the checks of a field or agents handed in, the spawn, and the choice of backend.
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "ieee_subnormals.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "volumes.hpp"

namespace physarum {
namespace {

using cpu::IeeeSubnormals;

float angle_cos(float deg) {
  return rule::sin_cos(deg * (rule::kPi / 180.0f)).c;
}
float angle_sin(float deg) {
  return rule::sin_cos(deg * (rule::kPi / 180.0f)).s;
}

}  // namespace

size_t voxels_of(Size s) {
  return static_cast<size_t>(s.width) * static_cast<size_t>(s.height) * static_cast<size_t>(s.depth);
}

rule3::Params3 make_params3(const VolumeConfig& c) {
  validate(c.model);
  const Size s = c.size;
  if (s.width < 1 || s.height < 1 || s.depth < 1 || s.width > kMaxSide || s.height > kMaxSide ||
      s.depth > kMaxSide || voxels_of(s) >= (size_t{1} << 31)) {
    throw Error("size " + format_size(s) + " is out of range: each side 1 to " + std::to_string(kMaxSide) +
                ", fewer than 2^31 voxels in all");
  }
  if (c.agents < 1 || c.agents > kMaxAgents) {
    throw Error("agents = " + std::to_string(c.agents) + " is out of range: 1 to " +
                std::to_string(kMaxAgents));
  }
  if (c.ring < 1 || c.ring > kMaxRing) {
    throw Error("ring = " + std::to_string(c.ring) + " is out of range: 1 to " + std::to_string(kMaxRing) +
                " sensors on the cone");
  }
  if (c.threads < 0 || c.threads > kMaxThreads) {
    throw Error("threads = " + std::to_string(c.threads) + " is out of range: allowed 0 (all) to " +
                std::to_string(kMaxThreads));
  }
  const ModelParams& m = c.model;
  rule3::Params3 p{};
  p.width = s.width;
  p.height = s.height;
  p.depth = s.depth;
  p.ring = c.ring;
  p.fwidth = static_cast<float>(s.width);
  p.fheight = static_cast<float>(s.height);
  p.fdepth = static_cast<float>(s.depth);
  p.inv_width = 1.0f / p.fwidth;
  p.inv_height = 1.0f / p.fheight;
  p.inv_depth = 1.0f / p.fdepth;
  p.inv_ring = 1.0f / static_cast<float>(c.ring);
  p.sensor_distance = m.sensor_distance;
  p.cos_sa = angle_cos(m.sensor_angle_deg);
  p.sin_sa = angle_sin(m.sensor_angle_deg);
  p.cos_ra = angle_cos(m.rotation_angle_deg);
  p.sin_ra = angle_sin(m.rotation_angle_deg);
  p.step_size = m.step_size;
  p.seed = c.seed;
  p.deposit = m.deposit;
  p.keep = 1.0f - m.decay;
  p.self_w = 1.0f - m.diffuse;
  p.neighbour_w = m.diffuse / 27.0f;
  return p;
}

Volume::Volume(const VolumeConfig& c) : size_(c.size), agents_(c.agents), p_(make_params3(c)) {}

void Volume::set_field(const std::vector<float>& values) {
  const size_t voxels = voxels_of(size_);
  if (values.size() != voxels) {
    throw Error("a field of " + std::to_string(values.size()) + " values for a volume of " +
                format_size(size_) + " (" + std::to_string(voxels) + " voxels)");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || std::fabs(values[i]) > 1e30f)
      throw Error("field value " + std::to_string(values[i]) + " at voxel " + std::to_string(i) +
                  " is not a finite number of at most 1e30");
  }
  upload_field(values);
}

void Volume::set_agents(const Agents3& a) {
  const size_t n = agents_;
  for (const auto* v : {&a.x, &a.y, &a.z, &a.hx, &a.hy, &a.hz}) {
    if (v->size() != n)
      throw Error("agents: " + std::to_string(v->size()) + " values for " + std::to_string(n) + " agents");
  }
  for (size_t i = 0; i < n; ++i) {
    const bool inside = a.x[i] >= 0 && a.x[i] < p_.fwidth && a.y[i] >= 0 && a.y[i] < p_.fheight &&
                        a.z[i] >= 0 && a.z[i] < p_.fdepth;
    const double len =
        std::sqrt(double{a.hx[i]} * a.hx[i] + double{a.hy[i]} * a.hy[i] + double{a.hz[i]} * a.hz[i]);
    if (!inside || !(std::fabs(len - 1.0) <= 1e-3))
      throw Error("agent " + std::to_string(i) + ": its position must lie inside " + format_size(size_) +
                  " and its heading have length 1");
  }
  upload_agents(a);
}

void Volume::set_food(const std::vector<VoxelFood>& food, float strength) {
  if (!std::isfinite(strength) || std::fabs(strength) > 1000.0f)
    throw Error("food strength " + std::to_string(strength) + " is out of range: -1000 to 1000");
  const uint64_t voxels = voxels_of(size_);
  std::vector<uint32_t> at;
  std::vector<float> values;
  for (size_t i = 0; i < food.size(); ++i) {
    const VoxelFood& f = food[i];
    if (f.voxel >= voxels || (i > 0 && f.voxel <= food[i - 1].voxel))
      throw Error("food entry " + std::to_string(i) + ": voxel " + std::to_string(f.voxel) +
                  " is outside the volume or out of order (each voxel once, increasing)");
    if (!std::isfinite(f.weight) || f.weight < 0.0f)
      throw Error("food entry " + std::to_string(i) + ": weight " + std::to_string(f.weight) +
                  " is not a finite number >= 0");
    at.push_back(static_cast<uint32_t>(f.voxel));
    values.push_back(f.weight);
  }
  // E = weight and k = strength, as rule::emit takes them: F + k * E.
  upload_food(at, values);
  food_strength_ = strength;
}

Agents3 spawn_volume_agents(const VolumeConfig& c, const rule3::Params3& p, int threads) {
  Agents3 a;
  for (auto* v : {&a.x, &a.y, &a.z, &a.hx, &a.hy, &a.hz}) v->resize(c.agents);
#pragma omp parallel num_threads(threads)
  {
    const IeeeSubnormals ieee;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(c.agents); ++i) {
      const rule3::Agent3 s = rule3::spawn_agent3(static_cast<uint32_t>(i), c.seed, p);
      const auto k = static_cast<size_t>(i);
      a.x[k] = s.x;
      a.y[k] = s.y;
      a.z[k] = s.z;
      a.hx[k] = s.h.x;
      a.hy[k] = s.h.y;
      a.hz[k] = s.h.z;
    }
  }
  return a;
}

std::unique_ptr<Volume> create_volume(BackendKind kind, const VolumeConfig& c) {
  (void)make_params3(c);  // a bad config is refused before anything is made
  bool cuda = false;
  if (kind != BackendKind::Cpu) {
    cuda = !cuda_device().empty();
    if (!cuda && kind == BackendKind::Cuda) {
      throw Error(
          cuda_built()
              ? "--backend cuda: no CUDA device or driver found"
              : "--backend cuda: this build has no CUDA backend (nvcc was not found when it was built)");
    }
  }
#if defined(PHYSARUM_HAS_CUDA)
  if (cuda) return make_cuda_volume(c);
#endif
  return make_cpu_volume(c);
}

}  // namespace physarum
