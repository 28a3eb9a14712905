// The volume model on the CPU (docs/MODEL.md, "Volume"): OpenMP over agents and over z planes.
// Deposits are integer counts and every voxel's update reads only the step before's values, so the
// thread count cannot change a bit.
#include <omp.h>

#include <algorithm>
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
  void read_field(std::vector<float>& out) override { out = field_; }
  Agents3 agents() override { return {x_, y_, z_, hx_, hy_, hz_}; }
  FieldStorage field_storage() override { return {field_.data(), false, 0, 1}; }

 protected:
  void upload_field(const std::vector<float>& values) override { field_ = values; }
  void upload_agents(const Agents3& a) override;
  void upload_food(const std::vector<uint32_t>& voxels, const std::vector<float>& weights) override {
    food_at_ = voxels;
    food_w_ = weights;
  }

 private:
  void step_agents();
  void update_field();

  int threads_;
  std::vector<float> x_, y_, z_, hx_, hy_, hz_;
  std::vector<int32_t> cell_;  // the voxel each agent deposits into this step
  std::vector<uint32_t> counts_;
  std::vector<float> field_, next_, rows_, planes_;  // next_ holds G
  std::vector<uint32_t> food_at_;                    // point data: voxels, increasing
  std::vector<float> food_w_;                        // and their weights
};

CpuVolume::CpuVolume(const VolumeConfig& c)
    : Volume(c), threads_(c.threads > 0 ? c.threads : default_threads()) {
  const size_t voxels = voxels_of(size_);
  try {
    cell_.resize(c.agents);
    counts_.assign(voxels, 0U);
    for (auto* v : {&field_, &next_, &rows_, &planes_}) v->assign(voxels, 0.0f);
    upload_agents(spawn_volume_agents(c, p_, threads_));
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("out of host memory: " + format_size(size_) + " voxels with " +
                           format_count(c.agents) + " agents need about " +
                           std::to_string((voxels * 20 + c.agents * 28) >> 20) + " MiB");
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
  for (size_t i = 0; i < food_at_.size(); ++i)
    field_[food_at_[i]] = rule::emit(field_[food_at_[i]], food_strength_, food_w_[i]);
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

}  // namespace

std::unique_ptr<Volume> make_cpu_volume(const VolumeConfig& c) {
  return std::make_unique<CpuVolume>(c);
}

}  // namespace physarum
