// The CPU backend: OpenMP over agents and over rows. Deposits are integer counts, so the order in
// which threads count cannot change a bit of the result.
#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <string>

#include "backends.hpp"
#include "cpu_stages.hpp"
#include "ieee_subnormals.hpp"
#include "moving_average.hpp"
#include "sim/elapsed.hpp"
#include "sim/rule.hpp"

namespace physarum {
namespace {

using Clock = std::chrono::steady_clock;
using cpu::AgentBlock;
using cpu::IeeeSubnormals;
using cpu::kBlock;

// Where a thread's deposits go (index = cell * S + channel). The thread owns the counters of a band
// of rows, [lo, hi): only it writes them, so it adds there directly, without atomics (a locked add
// stalls the loads of the next agents). A deposit outside the band (an agent that drifted across the
// band's edge since the last sort, or wrapped around the torus) is queued and added by the band's
// owner once every thread has moved its agents. One count array for all threads: memory and the
// per-step clearing do not grow with the thread count, and integer counts are exact in any order.
struct BandCounter {
  uint32_t* counts;
  uint32_t lo;
  uint32_t hi;
  std::vector<uint32_t>* queued;

  void add(uint32_t i) const {
    if (i - lo < hi - lo) {
      ++counts[i];
    } else {
      queued->push_back(i);
    }
  }
};

// The plain stages over one block: the first `wide` agents by `sense_wide` and `steer_move_wide`
// (lanes of agents), the rest one at a time, both instantiations of cpu_stages.hpp.
template <class SenseWide, class SteerMoveWide>
PHYS_HD void step_block_body(const AgentBlock& b, const float* field, const BandCounter& counter,
                             uint32_t step, const rule::StepParams& p, int wide, SenseWide&& sense_wide,
                             SteerMoveWide&& steer_move_wide) {
  cpu::BlockScratch s;
  sense_wide(s);
  cpu::sense_block<cpu::ScalarLanes>(b, wide, b.count, s, p);
  for (int j = 0; j < b.count; ++j) {
    s.fc[j] = field[s.centre[j]];
    s.fl[j] = field[s.left[j]];
    s.fr[j] = field[s.right[j]];
  }
  steer_move_wide(s);
  rule::with_kernel_rule(rule::kernel_rule(p), [&](auto r) {
    cpu::steer_move_block<cpu::ScalarLanes, decltype(r)::value>(b, wide, b.count, s, step, p);
  });
  for (int j = 0; j < b.count; ++j) counter.add(static_cast<uint32_t>(s.cell[j]));
}

// Several species, or one with W != [[1]]: each agent reads the S interleaved channels of its
// sensor cells through its species' row of W and counts into its own channel (rule.hpp).
template <int S>
PHYS_HD void step_block_species_body(const AgentBlock& b, const float* field, const BandCounter& counter,
                                     uint32_t step, const rule::SpeciesParams& sp) {
  for (int j = 0; j < b.count; ++j) {
    const int s = rule::species_of<S>(b.id[j], sp);
    rule::Agent a{b.x[j], b.y[j], b.theta[j]};
    const int cell = rule::step_species_agent<S>(a, b.id[j], s, step, sp, field);
    b.x[j] = a.x;
    b.y[j] = a.y;
    b.theta[j] = a.theta;
    counter.add(static_cast<uint32_t>(cell * S + s));
  }
}

// With walls (docs/MODEL.md, "Environment"): any number of species (one with W = [[1]] too: a product
// by 1 is exact), wall sensors read kWallReading, blocked moves stay and turn.
template <int S, bool Closed>
PHYS_HD void step_block_walled_body(const AgentBlock& b, const float* field, const uint8_t* walls,
                                    const BandCounter& counter, uint32_t step,
                                    const rule::SpeciesParams& sp) {
  for (int j = 0; j < b.count; ++j) {
    const int s = rule::species_of<S>(b.id[j], sp);
    rule::Agent a{b.x[j], b.y[j], b.theta[j]};
    const int cell = rule::step_species_agent_walled<S, Closed>(a, b.id[j], s, step, sp, field, walls);
    b.x[j] = a.x;
    b.y[j] = a.y;
    b.theta[j] = a.theta;
    counter.add(static_cast<uint32_t>(cell * S + s));
  }
}

// Each agent stage compiled twice from the same source: for the baseline x86-64 (SSE2) and for AVX2
// (eight lanes instead of four), picked at run time (Isa). Only IEEE add/sub/mul and exact
// conversions are involved, contraction is off (-ffp-contract=off) and the AVX2 target has no FMA,
// so both give the same bits; tests compare them.
#if defined(__x86_64__) && defined(__GNUC__)
#define PHYSARUM_CPU_AVX2 1
#define PHYSARUM_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define PHYSARUM_CPU_AVX2 0
#endif

enum class Isa { Baseline, Avx2 };

template <Isa I>
struct Stages {
  static void step_block(const AgentBlock& b, const float* field, const BandCounter& c, uint32_t step,
                         const rule::StepParams& p) {
    const auto none = [](cpu::BlockScratch&) {};
    step_block_body(b, field, c, step, p, 0, none, none);
  }
  template <int S>
  static void step_block_species(const AgentBlock& b, const float* field, const BandCounter& c, uint32_t step,
                                 const rule::SpeciesParams& sp) {
    step_block_species_body<S>(b, field, c, step, sp);
  }
  template <int S, bool Closed>
  static void step_block_walled(const AgentBlock& b, const float* field, const uint8_t* walls,
                                const BandCounter& c, uint32_t step, const rule::SpeciesParams& sp) {
    step_block_walled_body<S, Closed>(b, field, walls, c, step, sp);
  }
};

#if PHYSARUM_CPU_AVX2
template <>
struct Stages<Isa::Avx2> {
  // The plain rule eight agents at a time (cpu_stages_avx2.cpp), the block's last count % 8 and
  // the other rules by the scalar code compiled for AVX2.
  PHYSARUM_TARGET_AVX2 static void step_block(const AgentBlock& b, const float* field, const BandCounter& c,
                                              uint32_t step, const rule::StepParams& p) {
    const int wide = b.count - b.count % 8;
    step_block_body(
        b, field, c, step, p, wide, [&](cpu::BlockScratch& s) { cpu::sense_block_avx2(b, wide, s, p); },
        [&](cpu::BlockScratch& s) { cpu::steer_move_block_avx2(b, wide, s, step, p); });
  }
  template <int S>
  PHYSARUM_TARGET_AVX2 static void step_block_species(const AgentBlock& b, const float* field,
                                                      const BandCounter& c, uint32_t step,
                                                      const rule::SpeciesParams& sp) {
    step_block_species_body<S>(b, field, c, step, sp);
  }
  template <int S, bool Closed>
  PHYSARUM_TARGET_AVX2 static void step_block_walled(const AgentBlock& b, const float* field,
                                                     const uint8_t* walls, const BandCounter& c,
                                                     uint32_t step, const rule::SpeciesParams& sp) {
    step_block_walled_body<S, Closed>(b, field, walls, c, step, sp);
  }
};
#endif

// AVX2 where the CPU has it. PHYSARUM_CPU_AVX2=0 in the environment keeps the baseline path (to
// compare the two, bit for bit and in speed).
Isa pick_isa() {
#if PHYSARUM_CPU_AVX2
  const char* env = std::getenv("PHYSARUM_CPU_AVX2");
  if (env != nullptr && std::string(env) == "0") return Isa::Baseline;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return Isa::Avx2;
#endif
  return Isa::Baseline;
}

class CpuBackend final : public Backend {
 public:
  CpuBackend(const SimConfig& c, AgentState agents)
      : Backend(c),
        threads_(c.threads > 0 ? c.threads : default_threads()),
        seed_(c.seed),
        species_params_(make_species_params(species_, c.size, c.seed, c.agents, scale_)),
        plain_(is_single_plain(species_)),
        channels_(species_count()),
        params_(species_params_.p[0]),
        field_(cells() * channels(), 0.0f),
        next_(cells() * channels(), 0.0f),
        counts_(cells() * channels(), 0U),
        queued_(static_cast<size_t>(threads_)),
        isa_(pick_isa()) {
    validate_agents(agents, agents_, size_);
    validate(c.environment, size_, channels_);
    agents_state_ = std::move(agents);  // moved, not copied: at 1e9 agents a copy is 16 GB more
    move_out_of_walls(agents_state_, walls_, size_, seed_);  // spawned agents never stand in a wall
    rebuild_environment();
  }

  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string name() const override {
    return "cpu (" + std::to_string(threads_) + (threads_ == 1 ? " thread)" : " threads)");
  }

  void step(int n) override {
    const IeeeSubnormals ieee;
    for (int s = 0; s < n; ++s) {
      StageTimings t;
      if (steps_ % kSortEvery == 0) {
        const auto ts = Clock::now();
        sort_agents_by_row();
        t.sort_ms = ms_since(ts);
      }
      const auto t0 = Clock::now();
      move_agents();
      const auto t1 = Clock::now();
      emit_food();
      // Pass 0 deposits and decays; the further passes of a detail K > 1 only blur
      // (docs/MODEL.md, "Scale"). Walls take no trail after any pass, as after a step's one.
      for (int pass = 0; pass < species_params_.blur_passes; ++pass) {
        update_field(pass == 0);
        clear_walls();
      }
      t.agents_ms = ms_between(t0, t1);
      t.field_ms = ms_since(t1);
      t.step_ms = t.sort_ms + t.agents_ms + t.field_ms;
      window_.add(t);
      totals_.agents_ms += t.agents_ms;
      totals_.field_ms += t.field_ms;
      totals_.sort_ms += t.sort_ms;
      totals_.step_ms += t.step_ms;
      ++totals_.samples;
      ++steps_;
    }
  }

  void set_species(const SpeciesSet& s) override {
    const SpeciesSet next = resolve_species_change(s, model_, species_.list[0].spawn, channels_);
    species_params_ =
        make_species_params(next, size_, seed_, agents_, scale_);  // validates: a bad value changes nothing
    params_ = species_params_.p[0];
    rebuild_environment();  // the food strengths live with the parameters
    plain_ = is_single_plain(next);
    species_ = next;
    model_ = next.list[0].model;
  }

  void set_field(const std::vector<float>& values, int channel) override {
    validate_field(values, size_, channel, channels_);
    set_field_values(values, channel);
    clear_walls();  // the seed never writes into walls
  }

  void set_field_values(const std::vector<float>& values, int channel) {
    if (channels_ == 1) {
      field_ = values;
      return;
    }
    const size_t n = cells();
    const auto s = channels();
    if (channel != kAllChannels) {
      for (size_t i = 0; i < n; ++i) field_[i * s + static_cast<size_t>(channel)] = values[i];
    } else if (values.size() == n) {  // one plane into every channel
      for (size_t i = 0; i < n; ++i)
        std::fill_n(field_.begin() + static_cast<std::ptrdiff_t>(i * s), s, values[i]);
    } else {  // S planes
      for (size_t c = 0; c < s; ++c)
        for (size_t i = 0; i < n; ++i) field_[i * s + c] = values[c * n + i];
    }
  }

  void set_agents(const AgentState& a) override {
    validate_agents(a, agents_, size_);
    agents_state_ = a;
    move_out_of_walls(agents_state_, walls_, size_, seed_);
  }

  void brush(const BrushStroke& b) override {
    if (b.mode != BrushMode::Trail) {
      brush_environment(b);
      return;
    }
    validate_brush(b, size_, channels_);
    const IeeeSubnormals ieee;
    const auto s = channels();
    const size_t c0 = b.channel == kAllChannels ? 0 : static_cast<size_t>(b.channel);
    const size_t c1 = b.channel == kAllChannels ? s : c0 + 1;
    for_each_brushed_cell(b, size_, [&](size_t cell) {
      if (!walls_.empty() && walls_[cell] != 0) return;  // walls hold no trail
      const size_t i = cell * s;
      for (size_t c = c0; c < c1; ++c) field_[i + c] = rule::brush_apply(field_[i + c], b.amount);
    });
  }

  void read_field(std::vector<float>& out) override {
    if (channels_ == 1) {
      out = field_;
      return;
    }
    const size_t n = cells();
    const auto s = channels();
    out.resize(n * s);
    for (size_t c = 0; c < s; ++c)
      for (size_t i = 0; i < n; ++i) out[c * n + i] = field_[i * s + c];
  }

  FieldStorage field_storage() override { return {field_.data(), false, 0, static_cast<int>(channels())}; }

  AgentState read_agents() override {
    AgentState out = agents_state_;
    const size_t n = out.id.size();
    bool sorted = true;
    for (size_t i = 0; i < n && sorted; ++i) sorted = out.id[i] == i;
    if (sorted) return out;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t id = agents_state_.id[i];
      out.x[id] = agents_state_.x[i];
      out.y[id] = agents_state_.y[i];
      out.theta[id] = agents_state_.theta[i];
      out.id[id] = id;
    }
    return out;
  }

  StageTimings timings() override { return window_.average(); }
  StageTimings stage_totals() const override { return totals_; }

 protected:
  void environment_changed(bool walls_added) override {
    rebuild_environment();
    clear_walls();
    if (walls_added) move_out_of_walls(agents_state_, walls_, size_, seed_);
  }

 private:
  // The environment as the step uses it: the wall cells, and the food cells that emit (E > 0, not a
  // wall) with their E, in row-major order; the strengths per channel.
  void rebuild_environment() {
    env_cells_ = environment_cells(env_, walls_);
    for (int c = 0; c < channels_; ++c) strength_[c] = food_strength_of(env_, c);
  }

  // F_c = F_c + k_c * E at every food cell, in place, before the field update.
  void emit_food() {
    const auto s = channels();
    const EnvironmentCells& e = env_cells_;
    for (size_t j = 0; j < e.food.size(); ++j) {
      float* f = field_.data() + e.food[j] * s;
      for (size_t c = 0; c < s; ++c) f[c] = rule::emit(f[c], strength_[c], e.food_values[j]);
    }
  }

  // Walls hold no trail: every channel of every wall cell becomes +0.
  void clear_walls() {
    const auto s = channels();
    for (const size_t i : env_cells_.walls)
      std::fill_n(field_.begin() + static_cast<std::ptrdiff_t>(i * s), s, 0.0f);
  }

  size_t channels() const { return static_cast<size_t>(channels_); }
  size_t cells() const { return static_cast<size_t>(size_.width) * static_cast<size_t>(size_.height); }

  // Agents move about a cell a step; grouping them by row every kSortEvery steps keeps their
  // sensor reads and counts within a few rows, in cache. Order never changes results.
  static constexpr uint64_t kSortEvery = 32;
  void sort_agents_by_row() {
    const size_t n = agents_state_.id.size();
    const size_t h = static_cast<size_t>(size_.height);
    std::vector<uint32_t> start(h + 1, 0);
    for (size_t i = 0; i < n; ++i) ++start[static_cast<size_t>(agents_state_.y[i]) + 1];
    for (size_t r = 0; r < h; ++r) start[r + 1] += start[r];
    sorted_.x.resize(n);
    sorted_.y.resize(n);
    sorted_.theta.resize(n);
    sorted_.id.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t to = start[static_cast<size_t>(agents_state_.y[i])]++;
      sorted_.x[to] = agents_state_.x[i];
      sorted_.y[to] = agents_state_.y[i];
      sorted_.theta[to] = agents_state_.theta[i];
      sorted_.id[to] = agents_state_.id[i];
    }
    std::swap(sorted_, agents_state_);
  }

  void move_agents() {
    make_sensing_field();
#if PHYSARUM_CPU_AVX2
    if (isa_ == Isa::Avx2) {
      move_agents_with<Isa::Avx2>();
      return;
    }
#endif
    move_agents_with<Isa::Baseline>();
  }

  // What the agents sense: the field itself, or at a detail K > 1 each K x K block's mean in every
  // cell of the block (docs/MODEL.md, "Scale"), in bands of block rows over the threads.
  void make_sensing_field() {
    if (scale_ == 1) return;
    const int k = scale_;
    const int64_t w = size_.width;
    const int stride = static_cast<int>(channels());
    const float inv_k2 = 1.0f / static_cast<float>(k * k);
    sense_.resize(field_.size());
    const int block_rows = size_.height / k;
#pragma omp parallel num_threads(threads_)
    {
      const IeeeSubnormals ieee;
#pragma omp for schedule(static)
      for (int by = 0; by < block_rows; ++by) {
        for (int64_t x0 = 0; x0 < w; x0 += k) {
          for (int c = 0; c < stride; ++c) {
            const float mean = rule::block_mean(field_.data(), w, x0, int64_t{by} * k, k, stride, c, inv_k2);
            for (int64_t y = int64_t{by} * k; y < int64_t{by + 1} * k; ++y)
              for (int64_t x = x0; x < x0 + k; ++x)
                sense_[static_cast<size_t>((y * w + x) * stride + c)] = mean;
          }
        }
      }
    }
  }
  const float* sensing_field() const {
    return scale_ == 1 ? field_.data() : sense_.data();
  }

  template <Isa I>
  void move_agents_with() {
    if (!walls_.empty()) {
      const bool closed = env_.boundary == Boundary::Walls;
      switch (channels_) {
        case 1: closed ? move_agents_walled<I, 1, true>() : move_agents_walled<I, 1, false>(); return;
        case 2: closed ? move_agents_walled<I, 2, true>() : move_agents_walled<I, 2, false>(); return;
        case 3: closed ? move_agents_walled<I, 3, true>() : move_agents_walled<I, 3, false>(); return;
        default: closed ? move_agents_walled<I, 4, true>() : move_agents_walled<I, 4, false>(); return;
      }
    }
    if (!plain_) {
      switch (channels_) {
        case 1: move_agents_species<I, 1>(); return;
        case 2: move_agents_species<I, 2>(); return;
        case 3: move_agents_species<I, 3>(); return;
        default: move_agents_species<I, 4>(); return;
      }
    }
    const rule::StepParams p = params_;
    const auto step = static_cast<uint32_t>(steps_);
    const float* f = sensing_field();
    for_agent_blocks(1, [&](const AgentBlock& block, const BandCounter& c) {
      Stages<I>::step_block(block, f, c, step, p);
    });
  }

  template <Isa I, int S>
  void move_agents_species() {
    const rule::SpeciesParams sp = species_params_;
    const auto step = static_cast<uint32_t>(steps_);
    const float* f = sensing_field();
    for_agent_blocks(S, [&](const AgentBlock& block, const BandCounter& c) {
      Stages<I>::template step_block_species<S>(block, f, c, step, sp);
    });
  }

  template <Isa I, int S, bool Closed>
  void move_agents_walled() {
    const rule::SpeciesParams sp = species_params_;
    const auto step = static_cast<uint32_t>(steps_);
    const float* f = sensing_field();
    const uint8_t* w = walls_.data();
    for_agent_blocks(S, [&](const AgentBlock& block, const BandCounter& c) {
      Stages<I>::template step_block_walled<S, Closed>(block, f, w, c, step, sp);
    });
  }

  // The agents in blocks of kBlock over the threads, each thread with subnormals kept, a contiguous
  // run of blocks and the counters of a band of rows (BandCounter). Agents are sorted by row every
  // kSortEvery steps, so a thread's run of agents lies in about one band of rows: the band starts at
  // the row of its first agent (and ends where the next thread's starts), and few deposits fall
  // outside it. Any partition of the rows gives the same counts; this one keeps the queue short.
  template <class StepBlock>
  void for_agent_blocks(size_t channels_per_cell, StepBlock&& step_one_block) {
    AgentState& a = agents_state_;
    const auto n = static_cast<int64_t>(a.id.size());
    const int64_t blocks = (n + kBlock - 1) / kBlock;
    const int64_t h = size_.height;
    const size_t row_counters = static_cast<size_t>(size_.width) * channels_per_cell;
    if (queued_.size() < static_cast<size_t>(threads_)) queued_.resize(static_cast<size_t>(threads_));
#pragma omp parallel num_threads(threads_)
    {
      const IeeeSubnormals ieee;
      const int64_t nt = omp_get_num_threads();
      const int64_t t = omp_get_thread_num();
      const auto first_block = [&](int64_t u) { return blocks * u / nt; };
      // The band of thread u starts at the row of its first agent, never before the band of the
      // thread before it (agents drift between sorts); thread 0's at row 0, the end is row h.
      const auto band_start = [&](int64_t u) {
        int64_t row = 0;
        for (int64_t v = 1; v <= u; ++v) {
          const int64_t i = first_block(v) * kBlock;
          const int64_t r = i < n ? static_cast<int64_t>(a.y[static_cast<size_t>(i)]) : h;
          row = std::max(row, std::min(r, h));
        }
        return row;
      };
      std::vector<uint32_t>& queued = queued_[static_cast<size_t>(t)];
      queued.clear();
      const BandCounter counter{
          counts_.data(), static_cast<uint32_t>(static_cast<size_t>(band_start(t)) * row_counters),
          static_cast<uint32_t>(static_cast<size_t>(band_start(t + 1)) * row_counters), &queued};
      // The bands come from the agents' rows before this step: no thread moves one until all know.
#pragma omp barrier
      for (int64_t blk = first_block(t); blk < first_block(t + 1); ++blk) {
        const int64_t b0 = blk * kBlock;
        const AgentBlock block{a.x.data() + b0, a.y.data() + b0, a.theta.data() + b0, a.id.data() + b0,
                               static_cast<int>(std::min<int64_t>(kBlock, n - b0))};
        step_one_block(block, counter);
      }
      // Every thread has moved its agents: each adds the queued deposits that fall in its band.
#pragma omp barrier
      for (const std::vector<uint32_t>& q : queued_) {
        for (const uint32_t i : q) {
          if (i - counter.lo < counter.hi - counter.lo) ++counts_[i];
        }
      }
    }
  }

  // Row sums of G = F + C * deposit of channel c for row y, into rs (W values).
  template <int S>
  void row_sums(int y, int c, float* g, float* rs) const {
    const int w = size_.width;
    const size_t base = static_cast<size_t>(y) * static_cast<size_t>(w) * S + static_cast<size_t>(c);
    const float deposit = species_params_.p[c].deposit;
    for (int x = 0; x < w; ++x) {
      const size_t i = base + static_cast<size_t>(x) * S;
      g[x] = rule::deposited(field_[i], counts_[i], deposit);
    }
    if (w == 1) {
      rs[0] = rule::row_sum(g[0], g[0], g[0]);
      return;
    }
    rs[0] = rule::row_sum(g[w - 1], g[0], g[1]);
    for (int x = 1; x < w - 1; ++x) rs[x] = rule::row_sum(g[x - 1], g[x], g[x + 1]);
    rs[w - 1] = rule::row_sum(g[w - 2], g[w - 1], g[0]);
  }

  void update_field(bool deposit_and_decay) {
    switch (channels_) {
      case 1: update_channels<1>(deposit_and_decay); break;
      case 2: update_channels<2>(deposit_and_decay); break;
      case 3: update_channels<3>(deposit_and_decay); break;
      default: update_channels<4>(deposit_and_decay); break;
    }
    field_.swap(next_);
  }

  // Each channel with its own species' deposit, decay and diffuse; with S = 1 this is the
  // single-species update, operation for operation.
  template <int S>
  void update_channels(bool deposit_and_decay) {
    // The counts are 0 after the first pass; keep = 1 leaves a later pass a plain blur.
    const rule::SpeciesParams sp = deposit_and_decay ? species_params_ : blur_only(species_params_);
    const int w = size_.width;
    const int h = size_.height;
#pragma omp parallel num_threads(threads_)
    {
      const IeeeSubnormals ieee;
      // Each thread takes a contiguous band of rows and rolls three row sums down it.
      const int nt = omp_get_num_threads();
      const int t = omp_get_thread_num();
      const int y0 = static_cast<int>(static_cast<int64_t>(h) * t / nt);
      const int y1 = static_cast<int>(static_cast<int64_t>(h) * (t + 1) / nt);
      std::vector<float> buf(y0 < y1 ? static_cast<size_t>(w) * 5 : 0);
      for (int c = 0; c < S && y0 < y1; ++c) {
        const rule::StepParams p = sp.p[c];
        float* g = buf.data();
        float* g_centre = g + w;
        float* rs[3] = {g + 2 * w, g + 3 * w, g + 4 * w};
        row_sums<S>(rule::wrap_index(y0 - 1, h), c, g, rs[0]);
        row_sums<S>(y0, c, g_centre, rs[1]);
        for (int y = y0; y < y1; ++y) {
          row_sums<S>(rule::wrap_index(y + 1, h), c, g, rs[2]);
          float* out =
              next_.data() + static_cast<size_t>(y) * static_cast<size_t>(w) * S + static_cast<size_t>(c);
          for (int x = 0; x < w; ++x)
            out[static_cast<size_t>(x) * S] =
                rule::stencil_cell(g_centre[x], rs[0][x], rs[1][x], rs[2][x], p);
          // Roll: the centre row's G comes from the row just summed.
          std::swap(rs[0], rs[1]);
          std::swap(rs[1], rs[2]);
          std::swap(g_centre, g);
        }
      }
      // Bands read the counts of their neighbours' edge rows: clear the band's own rows only once
      // every band is done.
#pragma omp barrier
      if (y0 < y1) {
        uint32_t* c = counts_.data() + static_cast<size_t>(y0) * static_cast<size_t>(w) * S;
        std::fill(c, c + static_cast<size_t>(y1 - y0) * static_cast<size_t>(w) * S, 0U);
      }
    }
  }

  int threads_;
  uint32_t seed_;
  rule::SpeciesParams species_params_;
  bool plain_;               // one species, W = [[1]]: the single-species agent path, no multiply by W
  int channels_;             // S: the field and the counts hold S interleaved channels
  rule::StepParams params_;  // species 0's (the plain path's)
  std::vector<float> field_;
  std::vector<float> sense_;  // detail K > 1: what the agents sense (make_sensing_field)
  std::vector<float> next_;
  std::vector<uint32_t> counts_;               // deposits of this step, cell * S + channel
  std::vector<std::vector<uint32_t>> queued_;  // per thread: deposits outside its band (BandCounter)
  Isa isa_;                                    // which build of the agent stages runs
  EnvironmentCells env_cells_;                 // the environment as the step uses it (rebuild_environment)
  float strength_[kMaxSpecies] = {};
  AgentState agents_state_;
  AgentState sorted_;  // scratch for sort_agents_by_row
  StageAverages window_;
  StageTimings totals_;  // every step's, added up
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const SimConfig& config, AgentState agents) {
  return std::make_unique<CpuBackend>(config, std::move(agents));
}

}  // namespace physarum
