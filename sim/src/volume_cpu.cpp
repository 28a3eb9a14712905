// The volume model on the CPU (docs/MODEL.md, "Volume"): OpenMP over agents and over z planes.
// Deposits are integer counts and every voxel's update reads only the step before's values, so the
// thread count cannot change a bit.
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <new>
#include <string>

#include "ieee_subnormals.hpp"
#include "sim/backend.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"

namespace physarum {
namespace {

using cpu::IeeeSubnormals;

constexpr int kMaxVolumeSide = 65536;

size_t voxels_of(Size3 s) {
  return static_cast<size_t>(s.width) * static_cast<size_t>(s.height) * static_cast<size_t>(s.depth);
}

float angle_cos(float deg) {
  return rule::sin_cos(deg * (rule::kPi / 180.0f)).c;
}
float angle_sin(float deg) {
  return rule::sin_cos(deg * (rule::kPi / 180.0f)).s;
}

}  // namespace

Size3 parse_size3(const std::string& text) {
  Size3 s;
  char x1 = 0;
  char x2 = 0;
  int used = 0;
  const bool read =
      std::sscanf(text.c_str(), "%d%c%d%c%d%n", &s.width, &x1, &s.height, &x2, &s.depth, &used) == 5;
  const bool ok = read && used == static_cast<int>(text.size()) && (x1 == 'x' || x1 == 'X') &&
                  (x2 == 'x' || x2 == 'X') && s.width >= 1 && s.height >= 1 && s.depth >= 1 &&
                  s.width <= kMaxVolumeSide && s.height <= kMaxVolumeSide && s.depth <= kMaxVolumeSide;
  if (!ok) {
    throw Error("size '" + text + "': expected WxHxD, three whole numbers from 1 to " +
                std::to_string(kMaxVolumeSide) + " (e.g. 256x256x256)");
  }
  return s;
}

std::string format_size3(Size3 s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) + "x" + std::to_string(s.depth);
}

rule3::Params3 make_params3(const VolumeConfig& c) {
  validate(c.model);
  const Size3 s = c.size;
  if (s.width < 1 || s.height < 1 || s.depth < 1 || s.width > kMaxVolumeSide || s.height > kMaxVolumeSide ||
      s.depth > kMaxVolumeSide || voxels_of(s) >= (size_t{1} << 31)) {
    throw Error("size " + format_size3(s) + " is out of range: each side 1 to " + std::to_string(kMaxVolumeSide) +
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

CpuVolume::CpuVolume(const VolumeConfig& c)
    : size_(c.size), p_(make_params3(c)), threads_(c.threads > 0 ? c.threads : default_threads()) {
  const size_t n = c.agents;
  const size_t voxels = voxels_of(size_);
  try {
    for (auto* v : {&x_, &y_, &z_, &hx_, &hy_, &hz_}) v->resize(n);
    cell_.resize(n);
    counts_.assign(voxels, 0U);
    for (auto* v : {&field_, &next_, &rows_, &planes_}) v->assign(voxels, 0.0f);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("out of host memory: " + format_size3(size_) + " voxels with " +
                           format_count(c.agents) + " agents need about " +
                           std::to_string((voxels * 20 + n * 28) >> 20) + " MiB");
  }
  const IeeeSubnormals ieee;
#pragma omp parallel for num_threads(threads_)
  for (int64_t i = 0; i < static_cast<int64_t>(n); ++i) {
    const rule3::Agent3 a = rule3::spawn_agent3(static_cast<uint32_t>(i), c.seed, p_);
    const auto k = static_cast<size_t>(i);
    x_[k] = a.x;
    y_[k] = a.y;
    z_[k] = a.z;
    hx_[k] = a.h.x;
    hy_[k] = a.h.y;
    hz_[k] = a.h.z;
  }
}

std::string CpuVolume::name() const {
  return "cpu (" + std::to_string(threads_) + (threads_ == 1 ? " thread)" : " threads)");
}

void CpuVolume::step(int n) {
  for (int i = 0; i < n; ++i) {
    step_agents();
    update_field();
    ++steps_;
  }
}

void CpuVolume::step_agents() {
  const auto step = static_cast<uint32_t>(steps_);
  const int64_t n = static_cast<int64_t>(x_.size());
#pragma omp parallel num_threads(threads_)
  {
    const IeeeSubnormals ieee;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<size_t>(i);
      rule3::Agent3 a{x_[k], y_[k], z_[k], {hx_[k], hy_[k], hz_[k]}};
      cell_[k] = rule3::step_agent3(a, static_cast<uint32_t>(i), step, p_,
                                    [this](int v) { return field_[static_cast<size_t>(v)]; });
      x_[k] = a.x;
      y_[k] = a.y;
      z_[k] = a.z;
      hx_[k] = a.h.x;
      hy_[k] = a.h.y;
      hz_[k] = a.h.z;
    }
  }
  std::fill(counts_.begin(), counts_.end(), 0U);
  for (const int32_t v : cell_) ++counts_[static_cast<size_t>(v)];
}

// G, then the row sums along x, the plane sums along y and the update along z, each pass over z
// planes in parallel (every value it writes depends only on the pass before).
void CpuVolume::update_field() {
  const int w = size_.width;
  const int h = size_.height;
  const int d = size_.depth;
  const auto at = [w, h](int x, int y, int z) {
    return (static_cast<size_t>(z) * static_cast<size_t>(h) + static_cast<size_t>(y)) *
               static_cast<size_t>(w) +
           static_cast<size_t>(x);
  };
#pragma omp parallel num_threads(threads_)
  {
    const IeeeSubnormals ieee;
#pragma omp for schedule(static)
    for (int z = 0; z < d; ++z)
      for (size_t v = at(0, 0, z); v < at(0, 0, z + 1); ++v)
        next_[v] = rule::deposited(field_[v], counts_[v], p_.deposit);
#pragma omp for schedule(static)
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          rows_[at(x, y, z)] = rule::row_sum(next_[at(rule::wrap_index(x - 1, w), y, z)], next_[at(x, y, z)],
                                             next_[at(rule::wrap_index(x + 1, w), y, z)]);
#pragma omp for schedule(static)
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          planes_[at(x, y, z)] = rule::sum9(rows_[at(x, rule::wrap_index(y - 1, h), z)], rows_[at(x, y, z)],
                                            rows_[at(x, rule::wrap_index(y + 1, h), z)]);
#pragma omp for schedule(static)
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const float s27 = rule::sum9(planes_[at(x, y, rule::wrap_index(z - 1, d))], planes_[at(x, y, z)],
                                       planes_[at(x, y, rule::wrap_index(z + 1, d))]);
          field_[at(x, y, z)] = rule3::field_update3(next_[at(x, y, z)], s27, p_);
        }
  }
}

void CpuVolume::set_field(const std::vector<float>& values) {
  if (values.size() != field_.size()) {
    throw Error("a field of " + std::to_string(values.size()) + " values for a volume of " +
                format_size3(size_) + " (" + std::to_string(field_.size()) + " voxels)");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || std::fabs(values[i]) > 1e30f)
      throw Error("field value " + std::to_string(values[i]) + " at voxel " + std::to_string(i) +
                  " is not a finite number of at most 1e30");
  }
  field_ = values;
}

Agents3 CpuVolume::agents() const {
  return {x_, y_, z_, hx_, hy_, hz_};
}

void CpuVolume::set_agents(const Agents3& a) {
  const size_t n = x_.size();
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
      throw Error("agent " + std::to_string(i) + ": its position must lie inside " + format_size3(size_) +
                  " and its heading have length 1");
  }
  x_ = a.x;
  y_ = a.y;
  z_ = a.z;
  hx_ = a.hx;
  hy_ = a.hy;
  hz_ = a.hz;
}

}  // namespace physarum
