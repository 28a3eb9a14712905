// The volume model on the GPU (docs/MODEL.md, "Volume"): one thread an agent, then for each species'
// channel G (a kernel over the voxels) and the update (one fused pass: row sums, plane sums slid
// along z and the update, the CPU's sums in the CPU's order), then the walls' voxels set to 0.
// Every sort_every_ steps the agents are regrouped by voxel (a prefix sum of the step's counts
// and a scatter), so neighbouring threads read and count nearby voxels; agents carry their ids,
// which key their random streams, so the order changes no value. A field of more than twice the L2
// cache is regrouped every 16 steps, a smaller one every 32 (H200, 50 MB of L2: 512^3 with 100M
// agents, a 512 MB field, 12.1 -> 8.2 ms a step at 16; 256^3 with 10M, 64 MB, 0.56 ms at 32 and
// 0.60 at 16). All arithmetic is
// sim/rule3d.hpp's, so every value is the CPU's bit for bit.
// Tuning knobs for benchmarking (environment, read at creation): PHYSARUM_CUDA_VOLUME_SORT_EVERY
// (steps between regroupings, 0 = never) and PHYSARUM_CUDA_VOLUME_FUSED (0: the three passes of the
// CPU as three kernels).
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "backends.hpp"
#include "cuda_check.cuh"
#include "sim/cuda_info.hpp"
#include "sim/rule3d.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "volume/volumes.hpp"

namespace physarum {
namespace {

using cuda::DeviceBuffer;
using cuda::Stream;

constexpr int kThreads = 256;

struct Agents3Device {
  float* x;
  float* y;
  float* z;
  float* hx;
  float* hy;
  float* hz;
  uint32_t* id;
};

__device__ __forceinline__ void copy_agent(const Agents3Device& from, uint32_t i, const Agents3Device& to,
                                           uint32_t j) {
  to.x[j] = from.x[i];
  to.y[j] = from.y[i];
  to.z[j] = from.z[i];
  to.hx[j] = from.hx[i];
  to.hy[j] = from.hy[i];
  to.hz[j] = from.hz[i];
  to.id[j] = from.id[i];
}

// Agent i to slot offsets[its species' channel, its voxel]++ (offsets: per species the exclusive
// prefix sum of its voxels' counts from the species' first slot).
template <int S>
__global__ void scatter3_kernel(Agents3Device from, Agents3Device to, uint32_t n,
                                uint32_t* __restrict__ offsets, rule3::Species3 sp, size_t voxels) {
  const uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= n) return;
  const size_t channel = static_cast<size_t>(rule3::species3_of<S>(from.id[i], sp)) * voxels;
  const int v = rule3::voxel_at(from.x[i], from.y[i], from.z[i], sp.p[0]);
  copy_agent(from, i, to, atomicAdd(offsets + channel + static_cast<size_t>(v), 1U));
}

// Agent i to slot id[i]: the agents in id order.
__global__ void order3_kernel(Agents3Device from, Agents3Device to, uint32_t n) {
  const uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i < n) copy_agent(from, i, to, from.id[i]);
}

__global__ void iota3_kernel(uint32_t* id, uint32_t n) {
  const uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i < n) id[i] = i;
}

// One species with W = [[1]] and no walls (Plain, Walls3::None) is the one-species step itself: no
// species lookup, no matrix, no wall byte, the same loads and stores an agent as a single species.
// Mcpm: some species' rule is mcpm (each agent takes its species'); without it the kernel carries
// none of MCPM's code.
template <int S, bool Plain, rule3::Walls3 K, bool Mcpm>
__global__ void agents3_kernel(Agents3Device a, uint32_t n, const float* __restrict__ field,
                               uint32_t* __restrict__ counts, rule3::Species3 sp, size_t voxels,
                               const uint8_t* __restrict__ walls, uint32_t step) {
  const uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= n) return;
  rule3::Agent3 ag{a.x[i], a.y[i], a.z[i], {a.hx[i], a.hy[i], a.hz[i]}};
  int s = 0;
  const int v = rule3::step_species_agent3<S, Plain, K, Mcpm>(ag, a.id[i], step, sp, field, voxels, walls, s,
                                                              [](const float* f) { return __ldg(f); });
  a.x[i] = ag.x;
  a.y[i] = ag.y;
  a.z[i] = ag.z;
  a.hx[i] = ag.h.x;
  a.hy[i] = ag.h.y;
  a.hz[i] = ag.h.z;
  atomicAdd(counts + static_cast<size_t>(s) * voxels + static_cast<size_t>(v), 1U);
}

// The voxel of this thread (x fastest); false past the end.
__device__ __forceinline__ bool voxel_of(const rule3::Params3& p, int& x, int& y, int& z) {
  const uint64_t v = static_cast<uint64_t>(blockIdx.x) * kThreads + threadIdx.x;
  const uint64_t plane = static_cast<uint64_t>(p.width) * static_cast<uint64_t>(p.height);
  if (v >= plane * static_cast<uint64_t>(p.depth)) return false;
  z = static_cast<int>(v / plane);
  y = static_cast<int>((v % plane) / static_cast<uint64_t>(p.width));
  x = static_cast<int>(v % static_cast<uint64_t>(p.width));
  return true;
}
__device__ __forceinline__ size_t at(const rule3::Params3& p, int x, int y, int z) {
  return (static_cast<size_t>(z) * static_cast<size_t>(p.height) + static_cast<size_t>(y)) *
             static_cast<size_t>(p.width) +
         static_cast<size_t>(x);
}

// Point data: each listed voxel (each once) F + k E before the update.
__global__ void emit3_kernel(float* __restrict__ f, const uint32_t* __restrict__ at,
                             const float* __restrict__ w, uint32_t n, float strength) {
  const uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= n) return;
  f[at[i]] = rule::emit(f[at[i]], strength, w[i]);
}

// Walls hold no trail: each listed wall voxel of every channel to +0.
__global__ void mask3_kernel(float* __restrict__ f, const uint32_t* __restrict__ at, uint32_t n, int channels,
                             size_t voxels) {
  const uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= n) return;
  for (int c = 0; c < channels; ++c) f[static_cast<size_t>(c) * voxels + at[i]] = 0.0f;
}

__global__ void deposit3_kernel(const float* __restrict__ f, const uint32_t* __restrict__ c,
                                float* __restrict__ g, size_t voxels, rule3::Params3 p) {
  const size_t v = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (v < voxels) g[v] = rule::deposited(f[v], c[v], p.deposit);
}

// The plane sum P(z) of G at (x, y): the row sums along x, then the three rows along y, in the
// order of rows3_kernel and planes3_kernel (docs/MODEL.md, "Volume").
__device__ __forceinline__ float plane_sum3(const float* __restrict__ g, const rule3::Params3& p, int z,
                                            int xl, int x, int xr, int ya, int y, int yb) {
  const size_t plane = static_cast<size_t>(z) * static_cast<size_t>(p.height);
  const auto row = [&](int yy) {
    const float* r = g + (plane + static_cast<size_t>(yy)) * static_cast<size_t>(p.width);
    return rule::row_sum(__ldg(r + xl), __ldg(r + x), __ldg(r + xr));
  };
  return rule::sum9(row(ya), row(y), row(yb));
}

// The fused update: rows3, planes3 and update3 in one pass over G, each thread an (x, y) column
// of kFieldPlanes planes whose plane sums slide along z (each computed once, the same sums in the
// same order, so the same bits). G is read through the cache by the neighbouring columns; F is
// written once.
constexpr int kFieldPlanes = 16;
__global__ void field3_kernel(const float* __restrict__ g, float* __restrict__ f, rule3::Params3 p) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= p.width || y >= p.height) return;
  const int z0 = static_cast<int>(blockIdx.z) * kFieldPlanes;
  const int z1 = min(z0 + kFieldPlanes, p.depth);
  const int xl = rule::wrap_index(x - 1, p.width);
  const int xr = rule::wrap_index(x + 1, p.width);
  const int ya = rule::wrap_index(y - 1, p.height);
  const int yb = rule::wrap_index(y + 1, p.height);
  float before = plane_sum3(g, p, rule::wrap_index(z0 - 1, p.depth), xl, x, xr, ya, y, yb);
  float here = plane_sum3(g, p, z0, xl, x, xr, ya, y, yb);
  for (int z = z0; z < z1; ++z) {
    const float after = plane_sum3(g, p, rule::wrap_index(z + 1, p.depth), xl, x, xr, ya, y, yb);
    const size_t v = at(p, x, y, z);
    f[v] = rule3::field_update3(__ldg(g + v), rule::sum9(before, here, after), p);
    before = here;
    here = after;
  }
}

// MCPM's trace, one channel (rule3::trace_update).
__global__ void trace3_kernel(float* __restrict__ t, const uint32_t* __restrict__ c, rule3::Params3 p) {
  int x, y, z;
  if (!voxel_of(p, x, y, z)) return;
  const size_t v = at(p, x, y, z);
  t[v] = rule3::trace_update(t[v], c[v], p);
}

__global__ void rows3_kernel(const float* __restrict__ g, float* __restrict__ r, rule3::Params3 p) {
  int x, y, z;
  if (!voxel_of(p, x, y, z)) return;
  r[at(p, x, y, z)] = rule::row_sum(g[at(p, rule::wrap_index(x - 1, p.width), y, z)], g[at(p, x, y, z)],
                                    g[at(p, rule::wrap_index(x + 1, p.width), y, z)]);
}

__global__ void planes3_kernel(const float* __restrict__ r, float* __restrict__ pl, rule3::Params3 p) {
  int x, y, z;
  if (!voxel_of(p, x, y, z)) return;
  pl[at(p, x, y, z)] = rule::sum9(r[at(p, x, rule::wrap_index(y - 1, p.height), z)], r[at(p, x, y, z)],
                                  r[at(p, x, rule::wrap_index(y + 1, p.height), z)]);
}

__global__ void update3_kernel(const float* __restrict__ pl, const float* __restrict__ g,
                               float* __restrict__ f, rule3::Params3 p) {
  int x, y, z;
  if (!voxel_of(p, x, y, z)) return;
  const float s27 = rule::sum9(pl[at(p, x, y, rule::wrap_index(z - 1, p.depth))], pl[at(p, x, y, z)],
                               pl[at(p, x, y, rule::wrap_index(z + 1, p.depth))]);
  f[at(p, x, y, z)] = rule3::field_update3(g[at(p, x, y, z)], s27, p);
}

// Steps between regroupings by default: more often when the field is far larger than the L2 cache,
// where the sensors' reads come from memory unless neighbouring agents share them.
int default_sort_every(uint64_t voxels) {
  int l2 = 0;
  PHYS_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, kCudaDevice));
  return voxels * sizeof(float) > 2 * static_cast<uint64_t>(l2) ? 16 : 32;
}

unsigned blocks_for(uint64_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

class CudaVolume final : public Volume {
 public:
  explicit CudaVolume(const VolumeConfig& c)
      : Volume(c), device_(cuda_device_name()), voxels_(voxels_of(size_)), channels_(sp_.count) {
    const auto ch = static_cast<uint64_t>(channels_);
    const uint64_t passes = fused_ ? 1 : 3;  // G, and the row and plane sums when unfused
    const uint64_t need =
        voxels_ * (ch * (has_trace() ? 4 : 3) * sizeof(float) + passes * sizeof(float) + 1) +
        agents_ * 2 * 28;
    size_t free_b = 0;
    size_t total_b = 0;
    PHYS_CUDA_CHECK(cudaSetDevice(kCudaDevice));
    PHYS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (need + (64U << 20) > free_b) {
      throw OutOfMemoryError("out of GPU memory: " + format_size(size_) + " voxels with " +
                             format_count(agents_) + " agents need " + std::to_string(need >> 20) +
                             " MiB on " + device_ + ", which has " + std::to_string(free_b >> 20) +
                             " MiB free");
    }
    stream_ = Stream::create();
    for (auto& e : ev_) e = cuda::Event::create();
    for (int k = 0; k < 2; ++k) {
      for (auto* b : {&x_[k], &y_[k], &z_[k], &hx_[k], &hy_[k], &hz_[k]})
        *b = DeviceBuffer<float>(agents_, "the volume's agents");
      id_[k] = DeviceBuffer<uint32_t>(agents_, "the volume's agent ids");
    }
    size_t scan_bytes = 0;
    PHYS_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, scan_bytes, static_cast<const uint32_t*>(nullptr),
                                                   static_cast<uint32_t*>(nullptr), ::cuda::std::plus<>{}, 0U,
                                                   static_cast<int>(voxels_)));
    scan_temp_ = DeviceBuffer<unsigned char>(std::max<size_t>(scan_bytes, 1), "the volume's scan scratch");
    offsets_ = DeviceBuffer<uint32_t>(voxels_ * ch, "the volume's sort offsets");
    field_ = DeviceBuffer<float>(voxels_ * ch, "the volume's field");
    g_ = DeviceBuffer<float>(voxels_, "the volume's field");
    if (!fused_) {
      for (auto* b : {&rows_, &planes_}) *b = DeviceBuffer<float>(voxels_, "the volume's field");
    }
    counts_ = DeviceBuffer<uint32_t>(voxels_ * ch, "the volume's counts");
    PHYS_CUDA_CHECK(cudaMemsetAsync(field_.get(), 0, field_.bytes(), stream_.get()));
    if (has_trace()) {
      trace_ = DeviceBuffer<float>(voxels_ * ch, "the volume's trace");
      PHYS_CUDA_CHECK(cudaMemsetAsync(trace_.get(), 0, trace_.bytes(), stream_.get()));
    }
    upload_agents(spawn_volume_agents(c, p_, c.threads > 0 ? c.threads : default_threads()));
  }

  std::string name() const override { return "cuda (" + device_ + ")"; }
  BackendKind kind() const override { return BackendKind::Cuda; }

  void step(int n) override {
    for (int i = 0; i < n; ++i) one_step(nullptr);
  }

  StageTimings timed_step() override {
    StageTimings t;
    one_step(&t);
    return t;
  }

  // A step; with `t`, timed stage by stage between events (bench).
  void one_step(StageTimings* t) {
    cudaStream_t s = stream_.get();
    if (t != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(ev_[0].get(), s));
    {
      PHYS_CUDA_CHECK(cudaMemsetAsync(counts_.get(), 0, counts_.bytes(), s));
      launch_agents();
      if (t != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(ev_[1].get(), s));
      for (int c = 0; c < channels_; ++c) update_channel(c);
      if (has_trace()) {
        for (int c = 0; c < channels_; ++c) {
          const size_t at = static_cast<size_t>(c) * voxels_;
          trace3_kernel<<<blocks_for(voxels_), kThreads, 0, s>>>(trace_.get() + at, counts_.get() + at,
                                                                 sp_.p[c]);
        }
      }
      if (n_walls_ > 0) {
        mask3_kernel<<<blocks_for(n_walls_), kThreads, 0, s>>>(field_.get(), wall_list_d_.get(), n_walls_,
                                                               channels_, voxels_);
      }
      PHYS_CUDA_CHECK_LAUNCH();
      if (t != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(ev_[2].get(), s));
      ++steps_;
      if (sort_every_ > 0 && steps_ % static_cast<uint64_t>(sort_every_) == 0) {
        sort();  // the step's counts are where the agents stand now
        if (t != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(ev_[3].get(), s));
        if (t != nullptr) t->sort_ms = elapsed(2, 3);
      }
    }
    if (t == nullptr) return;
    t->agents_ms = elapsed(0, 1);
    t->field_ms = elapsed(1, 2);
    t->step_ms = t->agents_ms + t->field_ms + t->sort_ms;
    t->samples = 1;
  }

  double elapsed(int from, int to) {
    PHYS_CUDA_CHECK(cudaEventSynchronize(ev_[to].get()));
    float ms = 0;
    PHYS_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_[from].get(), ev_[to].get()));
    return ms;
  }

  void read_field(std::vector<float>& out) override {
    out.resize(voxels_ * static_cast<size_t>(channels_));
    PHYS_CUDA_CHECK(
        cudaMemcpyAsync(out.data(), field_.get(), field_.bytes(), cudaMemcpyDeviceToHost, stream_.get()));
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  FieldStorage field_storage() override {
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return {field_.get(), true, kCudaDevice, 1};
  }

  // In id order, through the other agent buffers.
  Agents3 agents() override {
    const int other = 1 - cur_;
    order3_kernel<<<blocks_for(agents_), kThreads, 0, stream_.get()>>>(
        device_agents(cur_), device_agents(other), static_cast<uint32_t>(agents_));
    PHYS_CUDA_CHECK_LAUNCH();
    Agents3 a;
    for (auto [from, to] :
         {std::pair{&x_[other], &a.x}, std::pair{&y_[other], &a.y}, std::pair{&z_[other], &a.z},
          std::pair{&hx_[other], &a.hx}, std::pair{&hy_[other], &a.hy}, std::pair{&hz_[other], &a.hz}}) {
      to->resize(agents_);
      PHYS_CUDA_CHECK(
          cudaMemcpyAsync(to->data(), from->get(), from->bytes(), cudaMemcpyDeviceToHost, stream_.get()));
    }
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return a;
  }

 protected:
  void download_trace(std::vector<float>& out) override {
    out.resize(trace_.size());
    PHYS_CUDA_CHECK(
        cudaMemcpyAsync(out.data(), trace_.get(), trace_.bytes(), cudaMemcpyDeviceToHost, stream_.get()));
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  void upload_field(const std::vector<float>& values) override {
    PHYS_CUDA_CHECK(
        cudaMemcpyAsync(field_.get(), values.data(), field_.bytes(), cudaMemcpyHostToDevice, stream_.get()));
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }
  void upload_food(const std::vector<uint32_t>& voxels, const std::vector<float>& weights) override {
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // the old lists may be in use
    if (food_at_.size() < voxels.size()) {
      food_at_ = DeviceBuffer<uint32_t>(voxels.size(), "the volume's food");
      food_w_ = DeviceBuffer<float>(voxels.size(), "the volume's food");
    }
    if (!voxels.empty()) {
      PHYS_CUDA_CHECK(cudaMemcpyAsync(food_at_.get(), voxels.data(), voxels.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice, stream_.get()));
      PHYS_CUDA_CHECK(cudaMemcpyAsync(food_w_.get(), weights.data(), weights.size() * sizeof(float),
                                      cudaMemcpyHostToDevice, stream_.get()));
    }
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    n_food_ = static_cast<uint32_t>(voxels.size());
  }
  void upload_walls() override {
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // the old walls may be in use
    if (!walls_.empty() && walls_d_.size() == 0)
      walls_d_ = DeviceBuffer<uint8_t>(voxels_, "the volume's walls");
    if (wall_list_d_.size() < wall_list_.size())
      wall_list_d_ = DeviceBuffer<uint32_t>(wall_list_.size(), "the volume's walls");
    if (!walls_.empty()) {
      PHYS_CUDA_CHECK(
          cudaMemcpyAsync(walls_d_.get(), walls_.data(), voxels_, cudaMemcpyHostToDevice, stream_.get()));
      PHYS_CUDA_CHECK(cudaMemcpyAsync(wall_list_d_.get(), wall_list_.data(),
                                      wall_list_.size() * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                      stream_.get()));
    }
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    n_walls_ = static_cast<uint32_t>(wall_list_.size());
  }

  // In id order: ids 0..N-1.
  void upload_agents(const Agents3& a) override {
    for (auto [from, to] :
         {std::pair{&a.x, &x_[cur_]}, std::pair{&a.y, &y_[cur_]}, std::pair{&a.z, &z_[cur_]},
          std::pair{&a.hx, &hx_[cur_]}, std::pair{&a.hy, &hy_[cur_]}, std::pair{&a.hz, &hz_[cur_]}}) {
      PHYS_CUDA_CHECK(
          cudaMemcpyAsync(to->get(), from->data(), to->bytes(), cudaMemcpyHostToDevice, stream_.get()));
    }
    iota3_kernel<<<blocks_for(agents_), kThreads, 0, stream_.get()>>>(id_[cur_].get(),
                                                                      static_cast<uint32_t>(agents_));
    PHYS_CUDA_CHECK_LAUNCH();
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

 private:
  Agents3Device device_agents(int k) {
    return {x_[k].get(), y_[k].get(), z_[k].get(), hx_[k].get(), hy_[k].get(), hz_[k].get(), id_[k].get()};
  }

  template <int S, bool Plain, rule3::Walls3 K, bool Mcpm>
  void launch_agents_as() {
    agents3_kernel<S, Plain, K, Mcpm><<<blocks_for(agents_), kThreads, 0, stream_.get()>>>(
        device_agents(cur_), static_cast<uint32_t>(agents_), field_.get(), counts_.get(), sp_, voxels_,
        walls_d_.get(), static_cast<uint32_t>(steps_));
  }
  template <rule3::Walls3 K, bool Mcpm>
  void launch_agents_with() {
    switch (channels_) {
      case 1: sp_.plain ? launch_agents_as<1, true, K, Mcpm>() : launch_agents_as<1, false, K, Mcpm>(); break;
      case 2: launch_agents_as<2, false, K, Mcpm>(); break;
      case 3: launch_agents_as<3, false, K, Mcpm>(); break;
      default: launch_agents_as<4, false, K, Mcpm>(); break;
    }
  }
  template <bool Mcpm>
  void launch_agents_for() {
    switch (walls_kind()) {
      case rule3::Walls3::None: launch_agents_with<rule3::Walls3::None, Mcpm>(); break;
      case rule3::Walls3::Wrapped: launch_agents_with<rule3::Walls3::Wrapped, Mcpm>(); break;
      case rule3::Walls3::Closed: launch_agents_with<rule3::Walls3::Closed, Mcpm>(); break;
    }
  }
  void launch_agents() { has_trace() ? launch_agents_for<true>() : launch_agents_for<false>(); }

  // Channel c's emission and field update, with species c's constants.
  void update_channel(int c) {
    cudaStream_t s = stream_.get();
    const unsigned vb = blocks_for(voxels_);
    const rule3::Params3& p = sp_.p[c];
    float* field = field_.get() + static_cast<size_t>(c) * voxels_;
    if (n_food_ > 0) {
      emit3_kernel<<<blocks_for(n_food_), kThreads, 0, s>>>(field, food_at_.get(), food_w_.get(), n_food_,
                                                            food_k_[c]);
    }
    deposit3_kernel<<<vb, kThreads, 0, s>>>(field, counts_.get() + static_cast<size_t>(c) * voxels_, g_.get(),
                                            voxels_, p);
    if (fused_) {
      const dim3 block(32, 8);
      const dim3 grid((size_.width + 31) / 32, (size_.height + 7) / 8,
                      (size_.depth + kFieldPlanes - 1) / kFieldPlanes);
      field3_kernel<<<grid, block, 0, s>>>(g_.get(), field, p);
    } else {
      rows3_kernel<<<vb, kThreads, 0, s>>>(g_.get(), rows_.get(), p);
      planes3_kernel<<<vb, kThreads, 0, s>>>(rows_.get(), planes_.get(), p);
      update3_kernel<<<vb, kThreads, 0, s>>>(planes_.get(), g_.get(), field, p);
    }
  }

  // The agents regrouped by species, then voxel, from the counts of the step just taken (where they
  // stand now): species s's slots start at its first id.
  void sort() {
    cudaStream_t s = stream_.get();
    for (int c = 0; c < channels_; ++c) {
      size_t bytes = scan_temp_.bytes();
      const uint32_t first = c == 0 ? 0U : sp_.end[c - 1];
      const size_t at = static_cast<size_t>(c) * voxels_;
      PHYS_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(scan_temp_.get(), bytes, counts_.get() + at,
                                                     offsets_.get() + at, ::cuda::std::plus<>{}, first,
                                                     static_cast<int>(voxels_), s));
    }
    const unsigned ab = blocks_for(agents_);
    const auto n = static_cast<uint32_t>(agents_);
    const Agents3Device from = device_agents(cur_);
    const Agents3Device to = device_agents(1 - cur_);
    switch (channels_) {
      case 1: scatter3_kernel<1><<<ab, kThreads, 0, s>>>(from, to, n, offsets_.get(), sp_, voxels_); break;
      case 2: scatter3_kernel<2><<<ab, kThreads, 0, s>>>(from, to, n, offsets_.get(), sp_, voxels_); break;
      case 3: scatter3_kernel<3><<<ab, kThreads, 0, s>>>(from, to, n, offsets_.get(), sp_, voxels_); break;
      default: scatter3_kernel<4><<<ab, kThreads, 0, s>>>(from, to, n, offsets_.get(), sp_, voxels_); break;
    }
    PHYS_CUDA_CHECK_LAUNCH();
    cur_ = 1 - cur_;
  }

  std::string device_;
  size_t voxels_;
  int channels_;
  Stream stream_;
  int cur_ = 0;  // which agent buffers hold the agents
  std::array<DeviceBuffer<float>, 2> x_, y_, z_, hx_, hy_, hz_;
  std::array<DeviceBuffer<uint32_t>, 2> id_;
  DeviceBuffer<unsigned char> scan_temp_;
  DeviceBuffer<uint32_t> offsets_;
  DeviceBuffer<float> field_, g_, rows_, planes_;  // field_ (S, D, H, W); the others one channel's
  DeviceBuffer<uint32_t> counts_;                  // (S, D, H, W)
  DeviceBuffer<float> trace_;                      // (S, D, H, W) with an MCPM species, else none
  DeviceBuffer<uint32_t> food_at_;
  DeviceBuffer<float> food_w_;
  uint32_t n_food_ = 0;
  int sort_every_ = cuda::env_int("PHYSARUM_CUDA_VOLUME_SORT_EVERY", default_sort_every(voxels_), 0, 1 << 20);
  bool fused_ = cuda::env_int("PHYSARUM_CUDA_VOLUME_FUSED", 1, 0, 1) != 0;
  std::array<cuda::Event, 4> ev_;  // timed_step's
  DeviceBuffer<uint8_t> walls_d_;  // (D, H, W), none until the run has walls
  DeviceBuffer<uint32_t> wall_list_d_;
  uint32_t n_walls_ = 0;
};

}  // namespace

std::unique_ptr<Volume> make_cuda_volume(const VolumeConfig& c) {
  return std::make_unique<CudaVolume>(c);
}

}  // namespace physarum
