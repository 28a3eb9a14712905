// The volume model on the CPU (docs/MODEL.md, "Volume"): OpenMP over agents and over z planes,
// each species' channel updated in turn.
// Deposits are integer counts and every voxel's update reads only the step before's values, so the
// thread count cannot change a bit.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <string>

#include "ieee_subnormals.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "volumes.hpp"

namespace physarum {
namespace {

using cpu::IeeeSubnormals;

class CpuVolume final : public Volume {
 public:
  explicit CpuVolume(const VolumeConfig& c);
  std::string name() const override;
  BackendKind kind() const override { return BackendKind::Cpu; }
  void step(int n) override;
  StageTimings timed_step() override;
  void read_field(std::vector<float>& out) override { out = field_; }
  Agents3 agents() override { return {x_, y_, z_, hx_, hy_, hz_}; }
  FieldStorage field_storage() override { return {field_.data(), false, 0, 1}; }

 protected:
  void upload_field(const std::vector<float>& values) override { field_ = values; }
  void download_trace(std::vector<float>& out) override { out = trace_; }
  void upload_agents(const Agents3& a) override;
  void upload_food(const std::vector<uint32_t>& voxels, const std::vector<float>& weights) override {
    food_at_ = voxels;
    food_w_ = weights;
  }
  void upload_walls() override {}  // the steps read walls_ and wall_list_ themselves

 private:
  void step_agents();
  void update_field();
  template <rule3::Walls3 K, bool Mcpm>
  void step_agents_with(uint32_t step);
  template <int S, bool Plain, rule3::Walls3 K, bool Mcpm>
  void step_agents_as(uint32_t step);
  void update_channel(int c);
  void update_trace();

  int threads_;
  size_t voxels_;
  std::vector<float> x_, y_, z_, hx_, hy_, hz_;
  std::vector<int32_t> cell_;                // the voxel each agent deposits into this step
  std::vector<uint8_t> species_;             // and its species (S > 1)
  std::vector<uint32_t> counts_;             // (S, D, H, W)
  std::vector<float> field_;                 // (S, D, H, W)
  std::vector<float> trace_;                 // (S, D, H, W) with an MCPM species, else empty
  std::vector<float> next_, rows_, planes_;  // one channel's G and sums
  std::vector<uint32_t> food_at_;            // point data: voxels, increasing, none a wall
  std::vector<float> food_w_;                // and their weights
};

CpuVolume::CpuVolume(const VolumeConfig& c)
    : Volume(c), threads_(c.threads > 0 ? c.threads : default_threads()), voxels_(voxels_of(size_)) {
  const auto channels = static_cast<size_t>(sp_.count);
  try {
    cell_.resize(c.agents);
    if (channels > 1) species_.resize(c.agents);
    counts_.assign(voxels_ * channels, 0U);
    field_.assign(voxels_ * channels, 0.0f);
    if (has_trace()) trace_.assign(voxels_ * channels, 0.0f);
    for (auto* v : {&next_, &rows_, &planes_}) v->assign(voxels_, 0.0f);
    upload_agents(spawn_volume_agents(c, p_, threads_));
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError(
        "out of host memory: " + format_size(size_) + " voxels with " + format_count(c.agents) +
        " agents need about " +
        std::to_string((voxels_ * (12 + (has_trace() ? 12 : 8) * channels) + c.agents * 29) >> 20) + " MiB");
  }
}

void CpuVolume::upload_agents(const Agents3& a) {
  x_ = a.x;
  y_ = a.y;
  z_ = a.z;
  hx_ = a.hx;
  hy_ = a.hy;
  hz_ = a.hz;
}

std::string CpuVolume::name() const {
  return "cpu (" + std::to_string(threads_) + (threads_ == 1 ? " thread)" : " threads)");
}

void CpuVolume::step(int n) {
  for (int i = 0; i < n; ++i) {
    step_agents();
    update_field();
  }
}

StageTimings CpuVolume::timed_step() {
  const auto ms_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  };
  StageTimings t;
  auto t0 = std::chrono::steady_clock::now();
  step_agents();
  t.agents_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  update_field();
  t.field_ms = ms_since(t0);
  t.step_ms = t.agents_ms + t.field_ms;
  t.samples = 1;
  return t;
}

// Food, the update of every channel, the walls and the trace; then the step is done.
void CpuVolume::update_field() {
  for (size_t k = 0; k < food_at_.size(); ++k)
    for (int c = 0; c < sp_.count; ++c) {
      float& f = field_[static_cast<size_t>(c) * voxels_ + food_at_[k]];
      f = rule::emit(f, food_k_[c], food_w_[k]);
    }
  for (int c = 0; c < sp_.count; ++c) update_channel(c);
  for (int c = 0; c < sp_.count; ++c)
    for (const uint32_t v : wall_list_) field_[static_cast<size_t>(c) * voxels_ + v] = 0.0f;
  if (has_trace()) update_trace();
  ++steps_;
}

void CpuVolume::step_agents() {
  const auto step = static_cast<uint32_t>(steps_);
  const bool m = has_trace();
  switch (walls_kind()) {
    case rule3::Walls3::None:
      m ? step_agents_with<rule3::Walls3::None, true>(step)
        : step_agents_with<rule3::Walls3::None, false>(step);
      break;
    case rule3::Walls3::Wrapped:
      m ? step_agents_with<rule3::Walls3::Wrapped, true>(step)
        : step_agents_with<rule3::Walls3::Wrapped, false>(step);
      break;
    case rule3::Walls3::Closed:
      m ? step_agents_with<rule3::Walls3::Closed, true>(step)
        : step_agents_with<rule3::Walls3::Closed, false>(step);
      break;
  }
  std::fill(counts_.begin(), counts_.end(), 0U);
  if (sp_.count == 1) {
    for (const int32_t v : cell_) ++counts_[static_cast<size_t>(v)];
  } else {
    for (size_t k = 0; k < cell_.size(); ++k)
      ++counts_[species_[k] * voxels_ + static_cast<size_t>(cell_[k])];
  }
}

template <rule3::Walls3 K, bool Mcpm>
void CpuVolume::step_agents_with(uint32_t step) {
  switch (sp_.count) {
    case 1:
      sp_.plain ? step_agents_as<1, true, K, Mcpm>(step) : step_agents_as<1, false, K, Mcpm>(step);
      break;
    case 2: step_agents_as<2, false, K, Mcpm>(step); break;
    case 3: step_agents_as<3, false, K, Mcpm>(step); break;
    default: step_agents_as<4, false, K, Mcpm>(step); break;
  }
}

template <int S, bool Plain, rule3::Walls3 K, bool Mcpm>
void CpuVolume::step_agents_as(uint32_t step) {
  const int64_t n = static_cast<int64_t>(x_.size());
  const float* field = field_.data();
  const uint8_t* walls = walls_.data();
#pragma omp parallel num_threads(threads_)
  {
    const IeeeSubnormals ieee;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<size_t>(i);
      rule3::Agent3 a{x_[k], y_[k], z_[k], {hx_[k], hy_[k], hz_[k]}};
      int s = 0;
      cell_[k] =
          rule3::step_species_agent3<S, Plain, K, Mcpm>(a, static_cast<uint32_t>(i), step, sp_, field,
                                                        voxels_, walls, s, [](const float* f) { return *f; });
      if constexpr (S > 1) species_[k] = static_cast<uint8_t>(s);
      x_[k] = a.x;
      y_[k] = a.y;
      z_[k] = a.z;
      hx_[k] = a.h.x;
      hy_[k] = a.h.y;
      hz_[k] = a.h.z;
    }
  }
}

// Channel c: G, then the row sums along x, the plane sums along y and the update along z, each pass
// over z planes in parallel (every value it writes depends only on the pass before).
void CpuVolume::update_channel(int c) {
  const rule3::Params3& p = sp_.p[c];
  float* field = field_.data() + static_cast<size_t>(c) * voxels_;
  const uint32_t* counts = counts_.data() + static_cast<size_t>(c) * voxels_;
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
        next_[v] = rule::deposited(field[v], counts[v], p.deposit);
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
          field[at(x, y, z)] = rule3::field_update3(next_[at(x, y, z)], s27, p);
        }
  }
}

// Each channel's trace from this step's counts (rule3::trace_update).
void CpuVolume::update_trace() {
  for (int c = 0; c < sp_.count; ++c) {
    const rule3::Params3& p = sp_.p[c];
    float* trace = trace_.data() + static_cast<size_t>(c) * voxels_;
    const uint32_t* counts = counts_.data() + static_cast<size_t>(c) * voxels_;
    const auto n = static_cast<int64_t>(voxels_);
#pragma omp parallel num_threads(threads_)
    {
      const IeeeSubnormals ieee;
#pragma omp for schedule(static)
      for (int64_t i = 0; i < n; ++i) trace[i] = rule3::trace_update(trace[i], counts[i], p);
    }
  }
}

}  // namespace

std::unique_ptr<Volume> make_cpu_volume(const VolumeConfig& c) {
  return std::make_unique<CpuVolume>(c);
}

}  // namespace physarum
