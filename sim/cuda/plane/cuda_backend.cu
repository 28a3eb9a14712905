// The CUDA backend. State lives on the device: the field (double-buffered), two per-cell count
// buffers (one is counted into while the other is cleared by the field pass), the agents as
// structure of arrays (double-buffered for reordering), the step parameters and the step index.
//
// One step = agents kernel (sense, steer, move, atomic count) + fused field kernel. Every
// `sort_every` steps the agents are regrouped by cell with a counting sort built on the counts the
// previous step already made (prefix sum + scatter): sensing and atomics then hit nearby memory.
// Agents carry their ids and each moves independently, so the order never changes a result.
// Whole chunks of `sort_every` steps run as one CUDA graph, shorter runs (a window frame's few steps)
// as cached graphs of their length; the step index lives on the device and the field kernel
// advances it, so a graph replays unchanged.
//
// Tuning knobs for benchmarking (environment, read at creation): PHYSARUM_CUDA_SORT_EVERY (steps
// between reorderings, even, 0 = never; default 64), PHYSARUM_CUDA_AGGREGATE (0 = one atomic per
// agent instead of one per warp and cell; default 1), PHYSARUM_CUDA_STRIP_ROWS (rows each warp of
// the field pass walks: 8, 16 or 32; default 16, 32 for worlds of 2^24 cells in all) and, for batches of
// worlds, PHYSARUM_CUDA_WORLD_AGENTS_PER_THREAD (agents each thread of the agent kernel steps, 0 = the
// resident blocks shared among the worlds; default 4) and PHYSARUM_CUDA_AGENTS_ZERO_COUNTS (1: the
// agents zero the step before's counts, 0: the field pass clears them; default 1 below half an agent
// a cell with 32-bit counts) and PHYSARUM_CUDA_NARROW_COUNTS (0: 32-bit counts always; default 1: 16-bit
// counts where they suffice, cuda::Worlds::narrow_counts). docs/PERFORMANCE.md has the measurements.
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends.hpp"
#include "cuda_check.cuh"
#include "environment_kernels.cuh"
#include "event_query.hpp"
#include "kernels.cuh"
#include "moving_average.hpp"
#include "sim/cuda_info.hpp"

namespace physarum {
namespace {

// 16-bit counts (cuda::Worlds::narrow_counts) read as the 32-bit values the sort's scan adds up.
struct Widen {
  __host__ __device__ uint32_t operator()(uint16_t c) const { return c; }
};
thrust::transform_iterator<Widen, const uint16_t*, uint32_t> widened(const uint32_t* counts) {
  return thrust::make_transform_iterator(reinterpret_cast<const uint16_t*>(counts), Widen{});
}

using cuda::AgentArrays;
using cuda::DeviceBuffer;
using cuda::Event;
using cuda::GraphExec;
using cuda::Stream;

using cuda::env_int;

std::string device_name_or_throw() {
  std::string name = cuda_device_name();
  if (name.empty()) throw Error("no CUDA device or driver found");
  return name;
}

// Puts cur_ back when a graph capture ends, by return or by throw: capture only records the work
// (enqueue_sort flips cur_ as it records), the launch after it does the work.
class RestoreOnExit {
 public:
  RestoreOnExit(int& target, int value) : target_(target), value_(value) {}
  ~RestoreOnExit() { target_ = value_; }
  RestoreOnExit(const RestoreOnExit&) = delete;
  RestoreOnExit& operator=(const RestoreOnExit&) = delete;

 private:
  int& target_;
  int value_;
};

// Any world's species need the weighted kernel, or any world's ids: the batch's kernel does.
bool any_weighted(const std::vector<SpeciesSet>& worlds) {
  return std::any_of(worlds.begin(), worlds.end(), [](const SpeciesSet& s) { return !is_single_plain(s); });
}
std::vector<SpeciesSet> resolved_species(const std::vector<SimConfig>& worlds) {
  std::vector<SpeciesSet> out;
  for (const SimConfig& c : worlds) out.push_back(resolve_species(c.species, c.model, c.spawn.mode));
  return out;
}
// Each world's step parameters, as its own backend would make them (its species and seed).
std::vector<rule::SpeciesParams> world_step_params(const std::vector<SimConfig>& worlds,
                                                   const std::vector<SpeciesSet>& species, int scale) {
  std::vector<rule::SpeciesParams> out;
  for (size_t k = 0; k < worlds.size(); ++k)
    out.push_back(make_species_params(species[k], worlds[k].size, worlds[k].seed, worlds[k].agents, scale));
  return out;
}

// The single-species kernel's rule (kernels.cuh): every world's kernel rule when they agree (a rule
// that draws nothing, whose kernel loads no ids, or rule::kRuleFromParams), else kRuleFromParams.
int worlds_kernel_rule(const std::vector<rule::SpeciesParams>& worlds) {
  const int first = rule::kernel_rule(worlds.front().p[0]);
  for (const rule::SpeciesParams& w : worlds) {
    if (rule::kernel_rule(w.p[0]) != first) return rule::kRuleFromParams;
  }
  return first;
}

std::string mib(uint64_t bytes) {
  return std::to_string((bytes + (1U << 20) - 1) >> 20) + " MiB";
}

// Four events around one step's stages: [0] sort [1] agents [2] field [3].
struct StageSample {
  std::array<Event, 4> ev;
  bool pending = false;
  bool sorted = false;
  bool sort_only = false;  // a sort outside a sampled step: only ev[0] and ev[1] were recorded
};
// Two events around a whole step(n) call.
struct BatchSample {
  Event begin;
  Event end;
  int steps = 0;
  bool pending = false;
};
struct PublishSample {
  Event begin;
  Event end;
  bool pending = false;
};

// Ready without waiting? Throws on a real error (a device fault surfaces here).
bool event_done(const Event& e) {
  const cudaError_t query = cudaEventQuery(e.get());
  const cuda::EventQueryOutcome o = cuda::classify_event_query(query, cudaPeekAtLastError());
  if (o.clear_last_error) (void)cudaGetLastError();
  if (o.report != cudaSuccess) {
    cuda::throw_cuda_error(
        o.report, query == o.report ? "cudaEventQuery" : "an earlier CUDA call (found by cudaEventQuery)",
        __FILE__, __LINE__);
  }
  return o.done;
}
double elapsed_ms(const Event& a, const Event& b) {
  float ms = 0;
  PHYS_CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
  return ms;
}

// One world, or a batch of B worlds of one size (sim/world_batch.hpp): every per-cell buffer holds the B
// worlds one after another, the agent arrays world b's agents in [b * N, (b + 1) * N) (kept there by
// the sort, which numbers cells across the worlds), the parameters one entry a world, and each
// kernel launch covers every world. The Backend interface reads and writes world 0; the batch
// reads each world through read_world_field and read_world_agents.
class CudaBackend final : public Backend {
 public:
  // `worlds`: one config, or a batch's (checked by create_cuda_batch: one size, agent count, species
  // count, detail 1, no environment); `agents`: each world's agents, world after world.
  CudaBackend(const std::vector<SimConfig>& worlds, AgentState agents)
      : Backend(worlds.front()),
        device_(device_name_or_throw()),
        cells_(static_cast<size_t>(size_.width) * static_cast<size_t>(size_.height)),
        worlds_(static_cast<int>(worlds.size())),
        seed_(worlds.front().seed),
        channels_(species_count()),
        stride_(static_cast<size_t>(cuda::channel_stride(channels_))),
        world_species_(resolved_species(worlds)),
        weighted_(any_weighted(world_species_)),
        world_params_(world_step_params(worlds, world_species_, scale_)),
        kernel_rule_(worlds_kernel_rule(world_params_)) {
    if (worlds_ == 1) validate_agents(agents, agents_, size_);  // the CPU backend's checks (backend.cpp)
    validate(worlds.front().environment, size_, channels_);
    move_out_of_walls(agents, walls_, size_, seed_);  // spawned agents never stand in a wall
    read_knobs();
    PHYS_CUDA_CHECK(cudaSetDevice(kCudaDevice));
    const size_t scan_bytes = check_memory();
    // Any allocation that still fails throws; the buffers made so far free themselves.
    stream_ = Stream::create();
    for (int b = 0; b < 2; ++b) {
      field_[b] = DeviceBuffer<float>(all_cells() * stride_, "the field");
      counts_[b] = DeviceBuffer<uint32_t>(all_cells() * stride_, "the deposit counts");
      x_[b] = DeviceBuffer<float>(all_agents(), "agent positions");
      y_[b] = DeviceBuffer<float>(all_agents(), "agent positions");
      theta_[b] = DeviceBuffer<float>(all_agents(), "agent headings");
      id_[b] = DeviceBuffer<uint32_t>(all_agents(), "agent ids");
    }
    offsets_ = DeviceBuffer<uint32_t>(all_cells(), "the sort offsets");
    if (channels_ > 1) cell_counts_ = DeviceBuffer<uint32_t>(all_cells(), "the agents per cell");
    scan_temp_ = DeviceBuffer<unsigned char>(std::max<size_t>(scan_bytes, 1), "the scan scratch");
    d_species_ = DeviceBuffer<rule::SpeciesParams>(static_cast<size_t>(worlds_), "the parameters");
    d_step_ = DeviceBuffer<uint32_t>(1, "the step index");
    // A detail K > 1 may blur several times a step, as many as the species' diffuse asks (live).
    if (scale_ > 1) {
      d_blur_species_ = DeviceBuffer<rule::SpeciesParams>(1, "the blur passes' parameters");
      zero_counts_ = DeviceBuffer<uint32_t>(cells_ * stride_, "the blur passes' (zero) counts");
      PHYS_CUDA_CHECK(cudaMemsetAsync(zero_counts_.get(), 0, zero_counts_.bytes(), stream_.get()));
      blur_scratch_ = DeviceBuffer<float>(cells_ * stride_, "the blur scratch");
      sense_ = DeviceBuffer<float>(cells_ * stride_, "the sensing field");
    }
    for (int b = 0; b < 2; ++b) {
      PHYS_CUDA_CHECK(cudaMemsetAsync(field_[b].get(), 0, field_[b].bytes(), stream_.get()));
      PHYS_CUDA_CHECK(cudaMemsetAsync(counts_[b].get(), 0, counts_[b].bytes(), stream_.get()));
    }
    PHYS_CUDA_CHECK(cudaMemsetAsync(d_step_.get(), 0, sizeof(uint32_t), stream_.get()));
    upload_species(world_params_[0]);
    if (worlds_ > 1) {
      PHYS_CUDA_CHECK(cudaMemcpyAsync(d_species_.get(), world_params_.data(),
                                      world_params_.size() * sizeof(rule::SpeciesParams),
                                      cudaMemcpyHostToDevice, stream_.get()));
    }
    for (auto& s : stage_) {
      for (auto& e : s.ev) e = Event::create();
    }
    for (auto& b : batch_) {
      b.begin = Event::create();
      b.end = Event::create();
    }
    for (auto& p : publish_) {
      p.begin = Event::create();
      p.end = Event::create();
    }
    upload_environment();
    narrow_ = narrow_counts_fit();  // the walls are known now; both count buffers are still zero
    choose_count_clearing();
    upload_agents(agents);
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  // The tuning knobs (the comment at the top of this file), read once at creation.
  void read_knobs() {
    sort_every_ = env_int("PHYSARUM_CUDA_SORT_EVERY", 64, 0, 1024);
    if (sort_every_ % 2 != 0) ++sort_every_;  // chunks must keep the field's buffer parity
    chunk_ = sort_every_ > 0 ? sort_every_ : 16;
    aggregate_ = env_int("PHYSARUM_CUDA_AGGREGATE", 1, 0, 1) != 0;
    // Many worlds: longer strips (fewer halo rows) over their many small fields, where there are
    // blocks enough for that (256 worlds of 256x256 on an H200: 41.2 against 40.4 G agent-steps/s;
    // 64 of them, a quarter of the cells: 28.1 against 34.8).
    const bool many = worlds_ > 1 && all_cells() >= (size_t{1} << 24);
    strip_rows_ = env_int("PHYSARUM_CUDA_STRIP_ROWS", many ? 32 : 16, 8, 32);
    world_agents_per_thread_ = env_int("PHYSARUM_CUDA_WORLD_AGENTS_PER_THREAD", 4, 0, 1024);
    zero_knob_ = env_int("PHYSARUM_CUDA_AGENTS_ZERO_COUNTS", -1, -1, 1);
    // 16-bit counts halve the count bytes each pass moves. (256 worlds of 256x256/20K on an H200:
    // docs/PERFORMANCE.md.)
    allow_narrow_ = env_int("PHYSARUM_CUDA_NARROW_COUNTS", 1, 0, 1) != 0 && channels_ == 1 && scale_ == 1 &&
                    agents_ < 65536 && size_.width % 4 == 0;
  }
  // Who zeroes the spent counts, for the count width in force. Sparse agents (fewer than one a cell
  // in two) with 32-bit counts zero their own: that writes back the count lines under agents only,
  // where clearing in the field pass writes every cell's 4 bytes; denser agents, and 16-bit counts
  // (2 bytes a cell, streamed), leave it to the field pass. (256x256 worlds of 20K agents on an H200,
  // 32-bit: the field pass 0.079 -> 0.063 ms a step of 256 worlds; 16-bit: 40.1 against 36.1 G
  // agent-steps/s with the field pass clearing; 3840x2160 with 10M agents: the agent pass 0.116 ->
  // 0.127 ms when the agents zero.)
  void choose_count_clearing() {
    const double per_cell = static_cast<double>(agents_) / static_cast<double>(cells_);
    agents_zero_counts_ = zero_knob_ >= 0 ? zero_knob_ == 1 : !narrow_ && per_cell < 0.5;
  }
  // Whether the kernels the run takes now can keep 16-bit counts (the weighted and walled kernels
  // cannot): fixed by the size, agents and species count, and by the live W and walls.
  bool narrow_counts_fit() const { return allow_narrow_ && !weighted_ && walls_mode_ == cuda::kWallsNone; }
  // After a live change of W or the walls, between steps (the caller has synchronised): a change of
  // width leaves both count buffers zero, as after agents written from the host.
  void refresh_count_width() {
    if (narrow_counts_fit() == narrow_) return;
    narrow_ = !narrow_;
    choose_count_clearing();
    for (auto& c : counts_) PHYS_CUDA_CHECK(cudaMemsetAsync(c.get(), 0, c.bytes(), stream_.get()));
    counts_valid_ = false;
  }

  // Refuses, with numbers, a run the device's free memory cannot hold; returns the scan's scratch
  // bytes (sized first, so the check is complete).
  size_t check_memory() const {
    // Scan scratch size first, so the memory check below is complete.
    size_t scan_bytes = 0;
    PHYS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<const uint32_t*>(nullptr),
                                                  static_cast<uint32_t*>(nullptr),
                                                  static_cast<int>(all_cells())));
    size_t narrow_bytes = 0;
    PHYS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, narrow_bytes, widened(nullptr),
                                                  static_cast<uint32_t*>(nullptr),
                                                  static_cast<int>(all_cells())));
    scan_bytes = std::max(scan_bytes, narrow_bytes);
    // Fields and counts hold stride_ channels per cell; the sort's per-cell counts come on top with species.
    const uint64_t need =
        2 * all_cells() * stride_ * sizeof(float) + 2 * all_cells() * stride_ * sizeof(uint32_t) +
        all_cells() * sizeof(uint32_t) * (channels_ > 1 ? 2 : 1) + 2 * all_agents() * 16 + scan_bytes +
        (scale_ > 1 ? cells_ * stride_ * (sizeof(float) + sizeof(uint32_t)) : 0);
    size_t free_b = 0;
    size_t total_b = 0;
    PHYS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (need + (64U << 20) > free_b) {
      throw OutOfMemoryError("out of GPU memory: " + worlds_text() + format_size(size_) + " with " +
                             format_count(agents_) + " agents needs " + mib(need) + " on " + device_ +
                             ", which has " + mib(free_b) + " free of " + mib(total_b));
    }
    return scan_bytes;
  }

  ~CudaBackend() override {
    if (stream_.get() != nullptr) PHYS_CUDA_LOG(cudaStreamSynchronize(stream_.get()));
  }

  std::string name() const override { return "cuda (" + device_ + ")"; }
  bool narrow_counts() const { return narrow_; }
  BackendKind kind() const override { return BackendKind::Cuda; }

  // Every run of steps goes through a graph: whole sort-to-sort chunks as one, shorter runs (a
  // window frame's 1-8 steps, a video frame every few) as a graph of exactly those steps, cached by
  // (length, field parity, agent buffer), the sort before them as its own. Runs never cross a sort
  // boundary, so a short graph holds only agent and field kernels. One call in kSampleEvery runs its
  // first step kernel by kernel between events, for the per-stage timings; every sort is timed by
  // events around its graph.
  void step(int n) override {
    if (n <= 0) return;
    harvest();
    BatchSample* batch = free_slot(batch_);
    if (batch != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(batch->begin.get(), stream_.get()));
    const int total = n;
    if (calls_++ % kSampleEvery == 0) {
      if (StageSample* s = free_slot(stage_)) {
        single_step(s);
        --n;
      }
    }
    while (n > 0) {
      if (steps_ % static_cast<uint64_t>(chunk_) == 0 && n >= chunk_) {
        run_chunk();
        n -= chunk_;
        continue;
      }
      // Up to the next chunk boundary (where a sort is due when sorting), never across it.
      const int to_boundary = chunk_ - static_cast<int>(steps_ % static_cast<uint64_t>(chunk_));
      const int run = std::min(n, to_boundary);
      if (sort_due()) timed_sort();
      run_short(run);
      n -= run;
    }
    if (batch != nullptr) {
      PHYS_CUDA_CHECK(cudaEventRecord(batch->end.get(), stream_.get()));
      batch->steps = total;
      batch->pending = true;
    }
  }

  void set_species(const SpeciesSet& s) override { set_world_species(0, s); }

  // World `w`'s species, live (as set_species for world 0).
  void set_world_species(int w, const SpeciesSet& s) {
    const auto k = static_cast<size_t>(w);
    const Species& was = world_species_[k].list[0];
    const SpeciesSet next = resolve_species_change(s, was.model, was.spawn, channels_);
    const rule::SpeciesParams p =
        make_species_params(next, size_, world_params_[k].p[0].seed, agents_, scale_);  // validates first
    if (w == 0) {
      upload_species(p);
    } else {
      cuda::launch_set_species(stream_.get(), d_species_.get() + w, p);
    }
    std::vector<SpeciesSet> after = world_species_;
    after[k] = next;
    std::vector<rule::SpeciesParams> params_after = world_params_;
    params_after[k] = p;
    const bool weighted = any_weighted(after);
    const int kernel_rule = worlds_kernel_rule(params_after);
    // Another kernel, or another number of blur passes: the captured graphs hold the old ones.
    if (weighted != weighted_ || kernel_rule != kernel_rule_ ||
        p.blur_passes != world_params_[k].blur_passes) {
      PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
      drop_graphs();
      weighted_ = weighted;
      kernel_rule_ = kernel_rule;
      refresh_count_width();
    }
    world_params_[k] = p;
    world_species_[k] = next;
    if (w == 0) {
      species_ = next;
      model_ = next.list[0].model;
    }
  }

  void set_field(const std::vector<float>& values, int channel) override {
    validate_field(values, size_, channel, channels_);
    upload_field(0, values, channel);
    enqueue_clear_walls(stream_.get(), current_field());  // the seed never writes into walls
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  // A batch's world w: its field, every channel (a batch has no walls to clear).
  void set_world_field(int w, const std::vector<float>& values) {
    validate_field(values, size_, kAllChannels, channels_);
    upload_field(w, values, kAllChannels);
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  // A batch's world w: its agents (its own ids 0..N-1), into its slice of the agent arrays.
  void set_world_agents(int w, const AgentState& a) {
    validate_agents(a, agents_, size_);
    const AgentArrays to = world_agents(cur_, w);
    const size_t fb = agents_ * sizeof(float);
    cudaStream_t s = stream_.get();
    PHYS_CUDA_CHECK(cudaMemcpyAsync(to.x, a.x.data(), fb, cudaMemcpyHostToDevice, s));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(to.y, a.y.data(), fb, cudaMemcpyHostToDevice, s));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(to.theta, a.theta.data(), fb, cudaMemcpyHostToDevice, s));
    PHYS_CUDA_CHECK(
        cudaMemcpyAsync(to.id, a.id.data(), agents_ * sizeof(uint32_t), cudaMemcpyHostToDevice, s));
    forget_counts();
    PHYS_CUDA_CHECK(cudaStreamSynchronize(s));
  }

  void upload_field(int w, const std::vector<float>& values, int channel) {
    float* dst = current_field() + static_cast<size_t>(w) * cells_ * stride_;
    if (channels_ == 1) {
      PHYS_CUDA_CHECK(
          cudaMemcpyAsync(dst, values.data(), cells_ * sizeof(float), cudaMemcpyHostToDevice, stream_.get()));
      return;
    }
    // Interleave on the host (one channel: into the current field, the others kept).
    std::vector<float> all;
    if (channel != kAllChannels) read_interleaved(w, all);
    all.resize(cells_ * stride_, 0.0f);
    const auto s = static_cast<size_t>(channels_);
    for (size_t i = 0; i < cells_; ++i) {
      for (size_t c = 0; c < s; ++c) {
        if (channel != kAllChannels && c != static_cast<size_t>(channel)) continue;
        all[i * stride_ + c] = values.size() == cells_ ? values[i] : values[c * cells_ + i];
      }
    }
    PHYS_CUDA_CHECK(
        cudaMemcpyAsync(dst, all.data(), all.size() * sizeof(float), cudaMemcpyHostToDevice, stream_.get()));
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // `all` dies here
  }

  void set_agents(const AgentState& a) override {
    if (worlds_ > 1) throw Error("a batch of worlds takes its agents when it is made");
    validate_agents(a, agents_, size_);
    if (walls_.empty()) {
      upload_agents(a);
    } else {
      AgentState moved = a;
      move_out_of_walls(moved, walls_, size_, seed_);
      upload_agents(moved);
    }
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  void brush(const BrushStroke& b) override {
    if (b.mode != BrushMode::Trail) {
      brush_environment(b);
      return;
    }
    validate_brush(b, size_, channels_);
    const int w = size_.width;
    const int h = size_.height;
    const int cx = static_cast<int>(std::floor(b.x));
    const int cy = static_cast<int>(std::floor(b.y));
    const int r = static_cast<int>(std::ceil(b.radius));
    const int box_w = static_cast<int>(std::min<int64_t>(2 * int64_t{r} + 1, w));
    const int box_h = static_cast<int>(std::min<int64_t>(2 * int64_t{r} + 1, h));
    const int c0 = b.channel == kAllChannels ? 0 : b.channel;
    const int c1 = b.channel == kAllChannels ? channels_ : b.channel + 1;
    for (int c = c0; c < c1; ++c) {
      cuda::launch_brush(stream_.get(), current_field(), w, h, ((cx % w) + w) % w, ((cy % h) + h) % h, r,
                         box_w, box_h, b.radius, b.amount, static_cast<int>(stride_), c);
    }
    enqueue_clear_walls(stream_.get(), current_field());  // walls hold no trail
  }

  void read_field(std::vector<float>& out) override { read_world_field(0, out); }
  AgentState read_agents() override { return read_world_agents(0); }

  void read_world_field(int w, std::vector<float>& out) {
    if (channels_ == 1) {
      read_interleaved(w, out);
      return;
    }
    std::vector<float> all;
    read_interleaved(w, all);
    const auto s = static_cast<size_t>(channels_);
    out.resize(cells_ * s);
    for (size_t c = 0; c < s; ++c)
      for (size_t i = 0; i < cells_; ++i) out[c * cells_ + i] = all[i * stride_ + c];
  }

  // World w's agents in id order (its slice of the other agent buffer is the scratch).
  AgentState read_world_agents(int w) {
    const int other = 1 - cur_;
    const AgentArrays from = world_agents(cur_, w);
    const AgentArrays to = world_agents(other, w);
    cuda::launch_order_by_id(stream_.get(), from, to, agents_);
    AgentState out;
    out.x.resize(agents_);
    out.y.resize(agents_);
    out.theta.resize(agents_);
    out.id.resize(agents_);
    const size_t fb = agents_ * sizeof(float);
    PHYS_CUDA_CHECK(cudaMemcpyAsync(out.x.data(), to.x, fb, cudaMemcpyDeviceToHost, stream_.get()));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(out.y.data(), to.y, fb, cudaMemcpyDeviceToHost, stream_.get()));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(out.theta.data(), to.theta, fb, cudaMemcpyDeviceToHost, stream_.get()));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(out.id.data(), to.id, agents_ * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                    stream_.get()));
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return out;
  }

  StageTimings timings() override {
    harvest();
    StageTimings t;
    t.agents_ms = agents_ms_.mean();
    t.field_ms = field_ms_.mean();
    t.sort_ms = sort_every_ > 0 ? sort_ms_.mean() / sort_every_ : 0.0;
    t.publish_ms = publish_ms_.mean();
    t.step_ms = step_ms_.mean();
    t.samples = static_cast<int>(step_ms_.units());
    return t;
  }

  FieldStorage field_storage() override {
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return {current_field(), true, kCudaDevice, static_cast<int>(stride_)};
  }

  bool can_publish() const override { return true; }
  uint64_t publish_stream() const override { return reinterpret_cast<uint64_t>(stream_.get()); }

 protected:
  void environment_changed(bool walls_added) override {
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    drop_graphs();  // they name the old lists and the old agent kernel
    upload_environment();
    refresh_count_width();
    enqueue_clear_walls(stream_.get(), current_field());
    if (walls_added) {
      AgentState a = read_agents();
      if (move_out_of_walls(a, walls_, size_, seed_) > 0) upload_agents(a);
    }
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  void publish(uint64_t surface_object) override {
    harvest();
    PublishSample* s = free_slot(publish_);
    if (s != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(s->begin.get(), stream_.get()));
    cuda::launch_publish(stream_.get(), current_field(), size_.width, size_.height, channels_,
                         static_cast<cudaSurfaceObject_t>(surface_object));
    if (s != nullptr) {
      PHYS_CUDA_CHECK(cudaEventRecord(s->end.get(), stream_.get()));
      s->pending = true;
    }
  }

 private:
  // The environment on the device: the run's walls (for the agent kernel) and the lists of wall and
  // food cells (environment_kernels.cuh). Buffers grow as needed; the caller synchronises.
  void upload_environment() {
    const EnvironmentCells e = environment_cells(env_, walls_);
    walls_mode_ = walls_.empty() ? cuda::kWallsNone
                                 : (env_.boundary == Boundary::Walls ? cuda::kWallsClosed : cuda::kWallsMap);
    if (!walls_.empty() && d_walls_.size() < walls_.size())
      d_walls_ = DeviceBuffer<uint8_t>(cells_, "the walls");
    if (d_wall_cells_.size() < e.walls.size())
      d_wall_cells_ = DeviceBuffer<uint32_t>(e.walls.size(), "the walls");
    if (d_food_cells_.size() < e.food.size()) {
      d_food_cells_ = DeviceBuffer<uint32_t>(e.food.size(), "the food cells");
      d_food_values_ = DeviceBuffer<float>(e.food.size(), "the food cells");
    }
    cudaStream_t s = stream_.get();
    if (!walls_.empty()) {
      PHYS_CUDA_CHECK(
          cudaMemcpyAsync(d_walls_.get(), walls_.data(), walls_.size(), cudaMemcpyHostToDevice, s));
    }
    if (!e.walls.empty()) {
      PHYS_CUDA_CHECK(cudaMemcpyAsync(d_wall_cells_.get(), e.walls.data(), e.walls.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice, s));
    }
    if (!e.food.empty()) {
      PHYS_CUDA_CHECK(cudaMemcpyAsync(d_food_cells_.get(), e.food.data(), e.food.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice, s));
      PHYS_CUDA_CHECK(cudaMemcpyAsync(d_food_values_.get(), e.food_values.data(),
                                      e.food_values.size() * sizeof(float), cudaMemcpyHostToDevice, s));
    }
    PHYS_CUDA_CHECK(cudaStreamSynchronize(s));  // the host lists die here
    n_wall_cells_ = static_cast<uint32_t>(e.walls.size());
    n_food_cells_ = static_cast<uint32_t>(e.food.size());
    for (int c = 0; c < channels_; ++c) strengths_.k[c] = food_strength_of(env_, c);
  }

  void enqueue_clear_walls(cudaStream_t s, float* field) {
    cuda::launch_clear_walls(s, field, d_wall_cells_.get(), n_wall_cells_, static_cast<int>(stride_));
  }

  // One step's kernels in the model's order: agents, emission (in place), field update, walls to 0.
  // At a detail K > 1 the agents sense each K x K block's mean (docs/MODEL.md, "Scale").
  void enqueue_agents(cudaStream_t s, unsigned p) {
    const float* sensed = field_[p].get();
    if (scale_ > 1) {
      cuda::launch_block_mean(s, field_[p].get(), sense_.get(), size_.width, size_.height, scale_,
                              static_cast<int>(stride_));
      sensed = sense_.get();
    }
    cuda::launch_agents(s, agents(cur_), agents_, sensed, counts_[p].get(),
                        agents_zero_counts_ ? counts_[1 - p].get() : nullptr, d_species_.get(), d_step_.get(),
                        aggregate_, channels_, weighted_, kernel_rule_, d_walls_.get(), walls_mode_,
                        worlds_arg());
  }
  // A detail K > 1 may blur several times (docs/MODEL.md, "Scale"): the first pass deposits, decays and
  // advances the step; the others read zero counts, keep = 1 and leave the step index. The step must
  // still end in field_[1 - p] (the graphs and current_field() follow the step's parity): an odd
  // number of passes alternates between the two fields, an even one starts in a scratch field.
  void enqueue_field(cudaStream_t s, unsigned p) {
    cuda::launch_emission(s, field_[p].get(), d_food_cells_.get(), d_food_values_.get(), n_food_cells_,
                          channels_, static_cast<int>(stride_), strengths_);
    const int passes = world_params_[0].blur_passes;
    float* out = passes % 2 == 0 ? blur_scratch_.get() : field_[1 - p].get();
    cuda::launch_field(s, field_[p].get(), out, counts_[p].get(),
                       agents_zero_counts_ ? nullptr : counts_[1 - p].get(), d_species_.get(), d_step_.get(),
                       size_.width, size_.height, channels_, strip_rows_, worlds_arg());
    enqueue_clear_walls(s, out);
    for (int pass = 1; pass < passes; ++pass) {
      float* in = out;
      out = in == field_[1 - p].get() ? field_[p].get() : field_[1 - p].get();
      cuda::launch_field(s, in, out, zero_counts_.get(), nullptr, d_blur_species_.get(), nullptr, size_.width,
                         size_.height, channels_, strip_rows_);
      enqueue_clear_walls(s, out);
    }
  }
  void upload_species(const rule::SpeciesParams& p) {
    cuda::launch_set_species(stream_.get(), d_species_.get(), p);
    if (scale_ > 1) cuda::launch_set_species(stream_.get(), d_blur_species_.get(), blur_only(p));
  }

  AgentArrays agents(int b) { return {x_[b].get(), y_[b].get(), theta_[b].get(), id_[b].get()}; }
  AgentArrays world_agents(int b, int w) {
    const size_t first = static_cast<size_t>(w) * agents_;
    return {x_[b].get() + first, y_[b].get() + first, theta_[b].get() + first, id_[b].get() + first};
  }
  float* current_field() { return field_[steps_ & 1U].get(); }
  // Every world's cells and agents (one world: cells_ and agents_).
  size_t all_cells() const { return cells_ * static_cast<size_t>(worlds_); }
  uint64_t all_agents() const { return agents_ * static_cast<uint64_t>(worlds_); }
  cuda::Worlds worlds_arg() const { return {worlds_, cells_ * stride_, world_agents_per_thread_, narrow_}; }

  std::string worlds_text() const { return worlds_ > 1 ? std::to_string(worlds_) + " worlds of " : ""; }

  // World w's device field as it is stored: stride_ floats per cell.
  void read_interleaved(int w, std::vector<float>& out) {
    out.resize(cells_ * stride_);
    PHYS_CUDA_CHECK(cudaMemcpyAsync(out.data(), current_field() + static_cast<size_t>(w) * cells_ * stride_,
                                    out.size() * sizeof(float), cudaMemcpyDeviceToHost, stream_.get()));
    PHYS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
  }

  // What the sort scans: the agents per cell. One species: the counts the last step made (in the
  // buffer the next field pass clears); several: a histogram of their own, since those counts are
  // per channel.
  uint32_t* cell_counts(uint64_t step) {
    return channels_ > 1 ? cell_counts_.get() : counts_[(step + 1) & 1U].get();
  }

  void upload_agents(const AgentState& a) {
    const size_t fb = all_agents() * sizeof(float);
    cudaStream_t s = stream_.get();
    PHYS_CUDA_CHECK(cudaMemcpyAsync(x_[cur_].get(), a.x.data(), fb, cudaMemcpyHostToDevice, s));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(y_[cur_].get(), a.y.data(), fb, cudaMemcpyHostToDevice, s));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(theta_[cur_].get(), a.theta.data(), fb, cudaMemcpyHostToDevice, s));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(id_[cur_].get(), a.id.data(), all_agents() * sizeof(uint32_t),
                                    cudaMemcpyHostToDevice, s));
    forget_counts();
  }

  // After the agents were written from the host: the last step's counts no longer describe where
  // the agents stand, so the next agent pass would not zero them all (it zeroes the counts under
  // its agents); zero them here, and let the sort count again.
  void forget_counts() {
    uint32_t* last = counts_[(steps_ + 1) & 1U].get();
    PHYS_CUDA_CHECK(cudaMemsetAsync(last, 0, counts_[0].bytes(), stream_.get()));
    counts_valid_ = false;
  }

  // Regroups the agents by cell, from the counts of their current positions (made by the last
  // step into the buffer the next field pass clears).
  void enqueue_sort(cudaStream_t s, uint64_t step) {
    uint32_t* counts = cell_counts(step);
    if (channels_ > 1) {
      PHYS_CUDA_CHECK(cudaMemsetAsync(counts, 0, all_cells() * sizeof(uint32_t), s));
      cuda::launch_histogram(s, agents(cur_), all_agents(), counts, size_.width, size_.height, agents_,
                             false);
    }
    size_t bytes = scan_temp_.bytes();
    if (narrow_) {
      PHYS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp_.get(), bytes, widened(counts), offsets_.get(),
                                                    static_cast<int>(all_cells()), s));
    } else {
      PHYS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp_.get(), bytes, counts, offsets_.get(),
                                                    static_cast<int>(all_cells()), s));
    }
    cuda::launch_scatter_by_cell(s, agents(cur_), agents(1 - cur_), all_agents(), offsets_.get(), size_.width,
                                 size_.height, agents_);
    cur_ = 1 - cur_;
  }

  void enqueue_counts_if_stale(uint64_t step) {
    if (counts_valid_ || channels_ > 1) return;  // several species: the sort counts for itself
    uint32_t* counts = counts_[(step + 1) & 1U].get();
    PHYS_CUDA_CHECK(cudaMemsetAsync(counts, 0, counts_[0].bytes(), stream_.get()));
    cuda::launch_histogram(stream_.get(), agents(cur_), all_agents(), counts, size_.width, size_.height,
                           agents_, narrow_);
    counts_valid_ = true;
  }

  void enqueue_step(cudaStream_t s, uint64_t step) {
    const unsigned p = step & 1U;
    enqueue_agents(s, p);
    enqueue_field(s, p);
  }

  bool sort_due() const { return sort_every_ > 0 && steps_ % static_cast<uint64_t>(sort_every_) == 0; }

  void single_step(StageSample* sample) {
    cudaStream_t s = stream_.get();
    const bool sort = sort_due();
    if (sort) enqueue_counts_if_stale(steps_);
    if (sample != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(sample->ev[0].get(), s));
    if (sort) run_sort_graph();
    if (sample != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(sample->ev[1].get(), s));
    const unsigned p = steps_ & 1U;
    enqueue_agents(s, p);
    if (sample != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(sample->ev[2].get(), s));
    enqueue_field(s, p);
    if (sample != nullptr) {
      PHYS_CUDA_CHECK(cudaEventRecord(sample->ev[3].get(), s));
      sample->pending = true;
      sample->sorted = sort;
      sample->sort_only = false;
    }
    ++steps_;
    counts_valid_ = true;
  }

  // A sort outside a chunk (scan + scatter) as one graph launch, so that neither the scan's host-side
  // set-up nor launch gaps sit between the kernels; a graph per starting agent buffer.
  void run_sort_graph() {
    const int start = cur_;
    GraphExec& g = sort_graphs_[start];
    if (!g) {
      const uint64_t base = steps_;
      const RestoreOnExit restore(cur_, start);
      g = GraphExec::capture(stream_.get(), [&](cudaStream_t s) { enqueue_sort(s, base); });
    }
    PHYS_CUDA_CHECK(cudaGraphLaunch(g.get(), stream_.get()));
    cur_ = 1 - start;
  }

  // `chunk_` steps from a chunk boundary as one graph launch; a graph per starting agent buffer.
  void run_chunk() {
    if (sort_every_ > 0) enqueue_counts_if_stale(steps_);
    const int start = cur_;
    GraphExec& g = graphs_[start];
    if (!g) {
      const uint64_t base = steps_;
      const RestoreOnExit restore(cur_, start);  // capture only records the work; the launch does it
      g = GraphExec::capture(stream_.get(), [&](cudaStream_t s) {
        if (sort_every_ > 0) enqueue_sort(s, base);
        for (int i = 0; i < chunk_; ++i) enqueue_step(s, base + static_cast<uint64_t>(i));
      });
    }
    PHYS_CUDA_CHECK(cudaGraphLaunch(g.get(), stream_.get()));
    if (sort_every_ > 0) cur_ = 1 - start;
    steps_ += static_cast<uint64_t>(chunk_);
    counts_valid_ = true;
  }

  // A sort due now, outside a chunk: counts made if stale, then the sort graph, timed by a stage
  // sample's first two events when one is free (agents and field stay unsampled: sort_only).
  void timed_sort() {
    enqueue_counts_if_stale(steps_);
    StageSample* sample = free_slot(stage_);
    if (sample != nullptr) PHYS_CUDA_CHECK(cudaEventRecord(sample->ev[0].get(), stream_.get()));
    run_sort_graph();
    if (sample != nullptr) {
      PHYS_CUDA_CHECK(cudaEventRecord(sample->ev[1].get(), stream_.get()));
      sample->pending = true;
      sample->sorted = true;
      sample->sort_only = true;
    }
  }

  // `k` (< chunk_) steps that do not cross a sort boundary, the sort (if due) already done, as one
  // graph launch; a graph per (k, field parity, agent buffer), made on first use.
  void run_short(int k) {
    const auto parity = static_cast<size_t>(steps_ & 1U);
    const size_t index =
        (static_cast<size_t>(cur_) * 2 + parity) * static_cast<size_t>(chunk_) + static_cast<size_t>(k);
    if (short_graphs_.empty()) short_graphs_.resize(4 * static_cast<size_t>(chunk_));
    GraphExec& g = short_graphs_[index];
    if (!g) {
      const uint64_t base = steps_;
      g = GraphExec::capture(stream_.get(), [&](cudaStream_t s) {
        for (int i = 0; i < k; ++i) enqueue_step(s, base + static_cast<uint64_t>(i));
      });
    }
    PHYS_CUDA_CHECK(cudaGraphLaunch(g.get(), stream_.get()));
    steps_ += static_cast<uint64_t>(k);
    counts_valid_ = true;
  }

  // The captured graphs name the kernels and buffers of the moment; after a kernel change they go.
  void drop_graphs() {
    for (auto& g : graphs_) g = GraphExec();
    for (auto& g : sort_graphs_) g = GraphExec();
    short_graphs_.clear();
  }

  template <class Slot, size_t N>
  static Slot* free_slot(std::array<Slot, N>& slots) {
    for (auto& s : slots) {
      if (!s.pending) return &s;
    }
    return nullptr;
  }

  // Collects finished timing samples without waiting for unfinished ones.
  void harvest() {
    for (auto& s : stage_) {
      if (!s.pending || !event_done(s.ev[s.sort_only ? 1 : 3])) continue;
      if (s.sorted) sort_ms_.add(elapsed_ms(s.ev[0], s.ev[1]));
      if (!s.sort_only) {
        agents_ms_.add(elapsed_ms(s.ev[1], s.ev[2]));
        field_ms_.add(elapsed_ms(s.ev[2], s.ev[3]));
      }
      s.pending = false;
    }
    for (auto& b : batch_) {
      if (!b.pending || !event_done(b.end)) continue;
      step_ms_.add(elapsed_ms(b.begin, b.end), b.steps);
      b.pending = false;
    }
    for (auto& p : publish_) {
      if (!p.pending || !event_done(p.end)) continue;
      publish_ms_.add(elapsed_ms(p.begin, p.end));
      p.pending = false;
    }
  }

  std::string device_;
  size_t cells_;  // of one world
  int worlds_;    // B: 1, or a batch's
  uint32_t seed_;
  int channels_;                           // S
  size_t stride_;                          // floats per cell in the field and counts (S, or 4 for S = 3)
  std::vector<SpeciesSet> world_species_;  // each world's, resolved ([0] is species_)
  bool weighted_;  // false: one species with W = [[1]] in every world, the single-species agent kernel
  std::vector<rule::SpeciesParams> world_params_;  // each world's, as on the device
  int kernel_rule_;  // that kernel's rule: a rule that draws nothing (no id load), or kRuleFromParams
  int sort_every_ = 32;
  int chunk_ = 32;
  bool aggregate_ = true;
  int strip_rows_ = 16;
  int world_agents_per_thread_ = 4;
  bool agents_zero_counts_ = false;  // the agents zero the step before's counts, not the field pass
  int zero_knob_ = -1;               // PHYSARUM_CUDA_AGENTS_ZERO_COUNTS: -1 (unset), 0 or 1
  bool allow_narrow_ = false;        // 16-bit counts allowed by the knob, size, agents and species count
  bool narrow_ = false;              // the count buffers hold 16-bit counts now (cuda::Worlds)

  Stream stream_;
  std::array<DeviceBuffer<float>, 2> field_;
  std::array<DeviceBuffer<uint32_t>, 2> counts_;
  std::array<DeviceBuffer<float>, 2> x_, y_, theta_;
  std::array<DeviceBuffer<uint32_t>, 2> id_;
  DeviceBuffer<uint32_t> offsets_;
  DeviceBuffer<uint32_t> cell_counts_;  // several species: agents per cell, for the sort
  DeviceBuffer<unsigned char> scan_temp_;
  DeviceBuffer<rule::SpeciesParams> d_species_;
  DeviceBuffer<uint32_t> d_step_;
  DeviceBuffer<rule::SpeciesParams> d_blur_species_;  // detail K > 1: world 0's parameters with keep = 1
  DeviceBuffer<uint32_t> zero_counts_;                // detail K > 1: counts of the blur passes, all 0
  DeviceBuffer<float> sense_;                         // detail K > 1: what the agents sense
  DeviceBuffer<float> blur_scratch_;                  // an even number of blur passes starts here
  DeviceBuffer<uint8_t> d_walls_;  // the run's walls, W x H (allocated once the run has walls)
  DeviceBuffer<uint32_t> d_wall_cells_;
  DeviceBuffer<uint32_t> d_food_cells_;
  DeviceBuffer<float> d_food_values_;
  uint32_t n_wall_cells_ = 0;
  uint32_t n_food_cells_ = 0;
  int walls_mode_ = cuda::kWallsNone;
  cuda::FoodStrengths strengths_{};
  int cur_ = 0;                // which agent buffer holds the agents
  bool counts_valid_ = false;  // the buffer the next field pass clears counts the current positions
  std::array<GraphExec, 2> graphs_;
  std::array<GraphExec, 2> sort_graphs_;
  std::vector<GraphExec> short_graphs_;  // run_short's, by (agent buffer, parity, steps); made lazily
  // Calls timed stage by stage: one in kSampleEvery (the others' steps all run in graphs). A
  // frame loop of ~60 calls a second refreshes the per-stage windows within a few seconds.
  static constexpr uint64_t kSampleEvery = 8;
  uint64_t calls_ = 0;

  std::array<StageSample, 8> stage_;
  std::array<BatchSample, 8> batch_;
  std::array<PublishSample, 4> publish_;
  MovingAverage agents_ms_{64}, field_ms_{64}, sort_ms_{8}, publish_ms_{64}, step_ms_{16};
};

// The batch is the backend seen world by world.
class CudaWorldBatch final : public WorldBatch {
 public:
  CudaWorldBatch(const std::vector<SimConfig>& worlds, AgentState agents)
      : WorldBatch(static_cast<int>(worlds.size()), worlds.front().size, worlds.front().agents),
        backend_(worlds, std::move(agents)) {}
  std::string name() const override {
    return backend_.name() + ", " + std::to_string(worlds()) + " worlds a launch" +
           (backend_.narrow_counts() ? ", 16-bit counts" : "");
  }
  uint64_t steps_done() const override { return backend_.steps_done(); }
  void step(int n) override { backend_.step(n); }
  void set_species(int w, const SpeciesSet& s) override { backend_.set_world_species(checked(w), s); }
  void read_field(int w, std::vector<float>& out) override { backend_.read_world_field(checked(w), out); }
  AgentState read_agents(int w) override { return backend_.read_world_agents(checked(w)); }
  void set_agents(int w, const AgentState& a) override { backend_.set_world_agents(checked(w), a); }
  void set_field(int w, const std::vector<float>& v) override { backend_.set_world_field(checked(w), v); }
  StageTimings timings() override { return backend_.timings(); }

 private:
  int checked(int w) const {
    if (w < 0 || w >= worlds())
      throw Error("world " + std::to_string(w) + " is not in this batch of " + std::to_string(worlds()));
    return w;
  }
  CudaBackend backend_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(const SimConfig& config, AgentState agents) {
  return std::make_unique<CudaBackend>(std::vector<SimConfig>{config}, std::move(agents));
}

std::unique_ptr<WorldBatch> make_cuda_batch(const std::vector<SimConfig>& worlds, AgentState agents) {
  return std::make_unique<CudaWorldBatch>(worlds, std::move(agents));
}

std::string cuda_device_name() {
  try {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      return "";
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, kCudaDevice) != cudaSuccess) {
      (void)cudaGetLastError();
      return "";
    }
    return prop.name;
  } catch (...) {
    return "";
  }
}

}  // namespace physarum
