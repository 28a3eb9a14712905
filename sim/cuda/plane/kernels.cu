// The CUDA backend's kernels. Model arithmetic comes only from sim/rule.hpp (compiled here with
// FMA contraction off), so every value matches the CPU backend bit for bit.
#include <algorithm>

#include "cuda_check.cuh"
#include "kernels.cuh"

namespace physarum::cuda {
namespace {

constexpr int kAgentBlock = 256;

unsigned blocks_for(uint64_t n, int block) {
  return static_cast<unsigned>((n + block - 1) / block);
}

__device__ __forceinline__ int cell_index(float x, float y, int width, int height) {
  return rule::cell_of(y, height) * width + rule::cell_of(x, width);
}

// Lanes of a warp that hit the same cell add once, through their lowest lane. Returns, for each
// lane, the value the shared atomic returned plus its rank among those lanes.
__device__ __forceinline__ uint32_t aggregated_add(uint32_t* base, int cell) {
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, cell);
  const int lane = static_cast<int>(threadIdx.x & 31U);
  const int leader = __ffs(static_cast<int>(peers)) - 1;
  uint32_t first = 0;
  if (lane == leader) first = atomicAdd(base + cell, static_cast<uint32_t>(__popc(peers)));
  first = __shfl_sync(peers, first, leader);
  const unsigned below = peers & ((1U << lane) - 1U);
  return first + static_cast<uint32_t>(__popc(below));
}

// Adds n to a cell's count. Narrow counts are 16 bits a cell, two cells to a 32-bit word (the even
// cell in the low half, little-endian), added with a 32-bit atomic on the word: a world of fewer than
// 65536 agents never carries out of a half.
template <bool Narrow>
__device__ __forceinline__ void count_add(uint32_t* base, int cell, uint32_t n) {
  if constexpr (Narrow) {
    atomicAdd(base + (cell >> 1), n << ((cell & 1) * 16));
  } else {
    atomicAdd(base + cell, n);
  }
}
// Sets a cell's count to 0 (a plain store: the 16-bit store of a narrow count leaves its neighbour).
template <bool Narrow>
__device__ __forceinline__ void count_zero(uint32_t* base, int cell) {
  if constexpr (Narrow) {
    reinterpret_cast<uint16_t*>(base)[cell] = 0;
  } else {
    base[cell] = 0U;
  }
}

// The same combining where nobody needs the returned slot (an agent's deposit): the lowest lane
// of each group of equal cells adds the group's size, and nothing comes back.
template <bool Narrow>
__device__ __forceinline__ void aggregated_count(uint32_t* base, int cell) {
  const unsigned peers = __match_any_sync(__activemask(), cell);
  if (static_cast<int>(threadIdx.x & 31U) == __ffs(static_cast<int>(peers)) - 1) {
    count_add<Narrow>(base, cell, static_cast<uint32_t>(__popc(peers)));
  }
}
// A step's parameters in five 16-byte loads (StepParams is 16-byte aligned) rather than one load
// per field: every thread loads them, so each load instruction counts.
__device__ __forceinline__ rule::StepParams load_params(const rule::StepParams* src) {
  static_assert(sizeof(rule::StepParams) % sizeof(int4) == 0, "whole 16-byte words");
  constexpr int kWords = static_cast<int>(sizeof(rule::StepParams) / sizeof(int4));
  int4 words[kWords];
  for (int k = 0; k < kWords; ++k) words[k] = reinterpret_cast<const int4*>(src)[k];
  rule::StepParams p;
  memcpy(&p, words, sizeof p);
  return p;
}

// The S channels of one cell in one load: float, float2, or float4 (S = 3 is padded to 4).
template <int S>
struct Channels {
  float v[S];
};
template <int S>
__device__ __forceinline__ Channels<S> load_channels(const float* field, int cell) {
  Channels<S> c;
  if constexpr (S == 1) {
    c.v[0] = __ldg(field + cell);
  } else if constexpr (S == 2) {
    const float2 f = __ldg(reinterpret_cast<const float2*>(field) + cell);
    c.v[0] = f.x;
    c.v[1] = f.y;
  } else {
    const float4 f = __ldg(reinterpret_cast<const float4*>(field) + cell);
    c.v[0] = f.x;
    c.v[1] = f.y;
    c.v[2] = f.z;
    if constexpr (S == 4) c.v[3] = f.w;
  }
  return c;
}

// One agent's loads: its position and heading, and its id where something needs it.
template <bool WithId>
struct AgentLoad {
  rule::Agent ag;
  uint32_t id;
};
template <bool WithId>
__device__ __forceinline__ AgentLoad<WithId> load_agent(const AgentArrays& a, uint32_t i) {
  return {{__ldcs(a.x + i), __ldcs(a.y + i), __ldcs(a.theta + i)}, WithId ? __ldcs(a.id + i) : 0U};
}

// Weighted = false: one species, W = [[1]], the single-species rule with no multiply (the single-species
// path). Otherwise each agent senses through its species' row of W and counts into its own channel
// (rule.hpp, docs/MODEL.md, "Several species"). Walls (only with Weighted): kWallsNone, or walls read
// from `walls` with the torus (kWallsMap) or the closed box (kWallsClosed) (docs/MODEL.md,
// "Environment"); kWallsNone is the wall-less kernel.
// Rule: the single-species path's kernel rule (rule::with_kernel_rule): a rule that draws nothing
// (no jitter either), so no hash needs the id and the kernel does not read it (4 of the 16 bytes
// per agent it would load); or rule::kRuleFromParams, each world's rule from its parameters, ids loaded.
// `spent` (or nullptr when the field pass clears the counts): the counts the step before made, which
// its field pass has read. The agent stands where it counted then (nothing moves it between steps;
// a host write of the agents zeroes them instead), so it zeroes its count there: once every agent
// has, the buffer is zero again for the step after this one, written back only where agents are
// rather than cleared cell by cell in the field pass.
// Narrow: 16-bit counts (count_add); only the single-species path without walls has them.
template <int S, bool Weighted, bool Aggregate, int Rule, int Walls, bool Narrow>
__device__ __forceinline__ void step_one(const AgentArrays& a, uint32_t i,
                                         AgentLoad<Weighted || Rule == rule::kRuleFromParams> in,
                                         const float* __restrict__ field, uint32_t* __restrict__ counts,
                                         uint32_t* __restrict__ spent, const rule::SpeciesParams* species,
                                         const rule::StepParams& p0, uint32_t step,
                                         const uint8_t* __restrict__ walls) {
  static_assert(!Narrow || !Weighted, "narrow counts only on the single-species path");
  const uint32_t id = in.id;
  rule::Agent ag = in.ag;
  int slot = 0;
  if constexpr (!Weighted) {
    const rule::StepParams p = rule::as_kernel_rule<Rule>(p0);  // a constant rule's tests drop out
    if (spent != nullptr) count_zero<Narrow>(spent, rule::cell_at(ag.x, ag.y, p.width, p.height));
    slot = rule::step_agent(ag, id, step, p, [field](int c) { return __ldg(field + c); });
  } else {
    constexpr int kStride = channel_stride(S);
    const int s = rule::species_of<S>(id, *species);
    const rule::StepParams p = load_params(&species->p[s]);
    if (spent != nullptr) spent[rule::cell_at(ag.x, ag.y, p.width, p.height) * kStride + s] = 0U;
    float w[S];
    for (int t = 0; t < S; ++t) w[t] = species->w[s][t];
    if constexpr (Walls == kWallsNone) {
      const rule::SensorCells c = rule::sensor_cells(ag, p);
      const Channels<S> fc = load_channels<S>(field, c.centre);
      const Channels<S> fl = load_channels<S>(field, c.left);
      const Channels<S> fr = load_channels<S>(field, c.right);
      const float theta = rule::steer(ag.theta, rule::sensed<S>(fc.v, w), rule::sensed<S>(fl.v, w),
                                      rule::sensed<S>(fr.v, w), id, step, p);
      slot = rule::move(ag, theta, p) * kStride + s;
    } else {
      constexpr bool kClosed = Walls == kWallsClosed;
      const rule::SensorCells c = rule::sensor_cells<kClosed>(ag, p);
      const Channels<S> fc = load_channels<S>(field, rule::loadable(c.centre));
      const Channels<S> fl = load_channels<S>(field, rule::loadable(c.left));
      const Channels<S> fr = load_channels<S>(field, rule::loadable(c.right));
      const float theta = rule::steer(ag.theta, rule::wall_or(rule::sensed<S>(fc.v, w), c.centre, walls),
                                      rule::wall_or(rule::sensed<S>(fl.v, w), c.left, walls),
                                      rule::wall_or(rule::sensed<S>(fr.v, w), c.right, walls), id, step, p);
      slot = rule::move_walled<kClosed>(ag, theta, id, step, p, walls) * kStride + s;
    }
  }
  __stcs(a.x + i, ag.x);
  __stcs(a.y + i, ag.y);
  __stcs(a.theta + i, ag.theta);
  if constexpr (Aggregate) {
    aggregated_count<Narrow>(counts, slot);
  } else {
    count_add<Narrow>(counts, slot, 1U);
  }
}

// As many blocks as fit on the GPU at once, each thread striding over the agents, with the next
// agent's loads issued before the current agent is stepped: the loads from DRAM, which the
// profile showed every warp waiting on, overlap the arithmetic of the agent before.
template <int S, bool Weighted, bool Aggregate, int Rule, int Walls, bool Narrow>
__global__ void __launch_bounds__(kAgentBlock)
    agents_kernel(AgentArrays a, uint64_t n, const float* __restrict__ field, uint32_t* __restrict__ counts,
                  uint32_t* __restrict__ spent, const rule::SpeciesParams* __restrict__ species,
                  const uint32_t* __restrict__ step_ptr, const uint8_t* __restrict__ walls,
                  size_t world_floats) {
  static_assert(Walls == kWallsNone || Weighted, "walls take the weighted path");
  static_assert(Weighted ? Rule == rule::kRuleFromParams : true, "several species read the rule from each's");
  constexpr bool kWithId = Weighted || Rule == rule::kRuleFromParams;
  // This block's world (blockIdx.y; 0 when there is one): its agents, cells and parameters.
  {
    const size_t world = blockIdx.y;
    const size_t first = world * n;
    a = {a.x + first, a.y + first, a.theta + first, a.id + first};
    field += world * world_floats;
    // Narrow counts take half a word a cell (world_floats is then a multiple of 4, so this stays aligned).
    const size_t count_words = Narrow ? world * world_floats / 2 : world * world_floats;
    counts += count_words;
    if (spent != nullptr) spent += count_words;
    species += world;
  }
  // Several species: a warp's agents belong to different species (they are grouped by cell, not
  // by species), so reading their parameters from global memory replays every load once per
  // species in the warp. A block copy in shared memory serves them without replays.
  __shared__ rule::SpeciesParams shared_species;
  if constexpr (Weighted) {
    constexpr int kWords = static_cast<int>(sizeof(rule::SpeciesParams) / sizeof(uint32_t));
    static_assert(sizeof(rule::SpeciesParams) % sizeof(uint32_t) == 0, "copied word by word");
    for (int k = static_cast<int>(threadIdx.x); k < kWords; k += kAgentBlock)
      reinterpret_cast<uint32_t*>(&shared_species)[k] = reinterpret_cast<const uint32_t*>(species)[k];
    __syncthreads();
    species = &shared_species;
  }
  // 32-bit indices (fewer instructions per agent): at most kMaxAgents agents, so i + stride
  // stays below 2^32.
  static_assert(kMaxAgents < (1ULL << 31), "agent indices fit 32 bits with room for the stride");
  const auto count = static_cast<uint32_t>(n);
  uint32_t i = blockIdx.x * kAgentBlock + threadIdx.x;
  if (i >= count) return;
  const uint32_t stride = gridDim.x * kAgentBlock;
  const uint32_t step = *step_ptr;
  rule::StepParams p0{};  // one species: the step's parameters, loaded once
  if constexpr (!Weighted) p0 = load_params(&species->p[0]);
  AgentLoad<kWithId> cur = load_agent<kWithId>(a, i);
  for (;;) {
    const uint32_t next = i + stride;
    AgentLoad<kWithId> ahead{};
    if (next < count) ahead = load_agent<kWithId>(a, next);
    step_one<S, Weighted, Aggregate, Rule, Walls, Narrow>(a, i, cur, field, counts, spent, species, p0, step,
                                                          walls);
    if (next >= count) break;
    i = next;
    cur = ahead;
  }
}

__device__ __forceinline__ int wrap_any(int v, int n) {
  if (v < 0) return v + n;
  return v >= n ? v % n : v;
}

// One cell's K = channel_stride(S) channels (S = 3 padded to 4), loaded or stored as one.
template <int K>
struct alignas(4 * K) Lanes {
  float v[K];
};
template <int K>
struct alignas(4 * K) CountLanes {
  uint32_t v[K];
};

// The field pass, one kernel for every width and number of species, in registers. Each thread owns
// 16 bytes of a row, P = 4 / K cells of K channels, and walks down a strip of Rows rows. Its left
// and right neighbours' G come from the adjacent lanes by shuffle (the warp's edge lanes, and the
// lanes at the field's wrap, load theirs), and the row sums of the previous, current and next row
// stay in registers, so each row is loaded once per strip (plus one halo row above and below) and
// nothing goes through shared memory. The loads of row y + 2 are issued before row y + 1 is summed,
// so two rows of every thread are in flight. Every channel of a cell is read and written once per
// step. Where width * K is a multiple of 4 (Aligned) every row starts on 16 bytes and a thread's
// cells come in one float4 and one uint4 load; other widths load and store cell by cell, and the
// row's last thread may hold fewer than P cells. Per cell and channel it is rule::stencil_cell with
// that species' deposit, decay and diffuse, as on the CPU. The kernel is one function past 80 lines:
// its row loads and sums are lambdas over a dozen per-thread values held in registers for the whole
// strip, which separate functions would pass around as long parameter lists.
constexpr int kStripWarps = 4;  // warps per block, stacked vertically: each one a strip

template <int K>
struct Quad {
  float v[4];  // P = 4 / K cells, channel-minor: cell p channel c at v[p * K + c]
};

// One row's raw loads for one thread: its 16 bytes of F and of C, and for an edge lane the
// neighbouring cell on that side.
template <int K>
struct RowLoad {
  float4 f;
  uint4 n;
  Lanes<K> side_f;
  CountLanes<K> side_n;
};

template <int S>
__device__ __forceinline__ float deposited_channel(float f, uint32_t n, const float (&deposit)[S], int c) {
  return c < S ? rule::deposited(f, n, deposit[c]) : 0.0f;  // S = 3: the padding channel stays 0
}

// One cell's counts (narrow: one 16-bit count, K = 1).
template <int K, bool Narrow>
__device__ __forceinline__ CountLanes<K> load_counts(const uint32_t* counts, size_t cell) {
  if constexpr (Narrow) {
    return CountLanes<K>{{static_cast<uint32_t>(reinterpret_cast<const uint16_t*>(counts)[cell])}};
  } else {
    return reinterpret_cast<const CountLanes<K>*>(counts)[cell];
  }
}

// Narrow: 16-bit counts (count_add), only with one species and aligned rows: a thread's four counts
// are one 8-byte load.
template <int S, int Rows, bool Aligned, bool Narrow>
__global__ void __launch_bounds__(32 * kStripWarps)
    field_kernel_strip(const float* __restrict__ fin, float* __restrict__ fout,
                       const uint32_t* __restrict__ counts, uint32_t* __restrict__ clear,
                       const rule::SpeciesParams* __restrict__ species, uint32_t* step_ptr,
                       size_t world_floats) {
  constexpr int K = channel_stride(S);
  constexpr int P = 4 / K;
  static_assert(!Narrow || (K == 1 && Aligned), "narrow counts: one species, aligned rows");
  if (blockIdx.z != 0) {  // another world than the first: its slice of every buffer, its parameters
    const size_t offset = blockIdx.z * world_floats;
    fin += offset;
    fout += offset;
    counts += Narrow ? offset / 2 : offset;
    if (clear != nullptr) clear += Narrow ? offset / 2 : offset;
    species += blockIdx.z;
    step_ptr = nullptr;  // the first world's blocks advance the step
  }
  static_assert(Aligned || K < 4, "a cell of four channels always starts on 16 bytes");
  const int w = species->p[0].width;
  const int h = species->p[0].height;
  const int lane = static_cast<int>(threadIdx.x);
  const int col = (static_cast<int>(blockIdx.x) * 32 + lane) * P;  // this thread's first cell
  const int y0 = (static_cast<int>(blockIdx.y) * kStripWarps + static_cast<int>(threadIdx.y)) * Rows;
  if (y0 >= h) return;  // a whole warp leaves together: the shuffles below see full warps only
  const bool active = col < w;
  // The cells this thread holds: P, but fewer in the row's last thread where P does not divide w.
  const int cells = Aligned ? P : min(P, w - col);
  // At most one side load per lane: lane 0 loads its left neighbour, the last lane of the warp or
  // of the row its right one (lane 0 of a row narrower than P + 1 cells needs both: it shuffles
  // nothing useful in, so it takes the right one from a second load below).
  const bool load_left = active && lane == 0;
  const bool load_right = active && (lane == 31 || col + P >= w);
  const size_t left_col = static_cast<size_t>(col == 0 ? w - 1 : col - 1);
  const size_t right_col = static_cast<size_t>(col + cells >= w ? (col + cells) % w : col + P);
  const auto* fin_k = reinterpret_cast<const Lanes<K>*>(fin);

  rule::StepParams prm[S];  // only the deposit and field-update weights stay in registers
  float deposit[S];
  for (int c = 0; c < S; ++c) {
    prm[c] = species->p[c];
    deposit[c] = prm[c].deposit;
  }

  auto issue = [&](int y) {
    const size_t row = static_cast<size_t>(wrap_any(y, h)) * static_cast<size_t>(w);
    RowLoad<K> r{};
    if constexpr (Aligned) {
      if (active) {
        const size_t q = (row + static_cast<size_t>(col)) * K / 4;
        r.f = __ldg(reinterpret_cast<const float4*>(fin) + q);
        if constexpr (Narrow) {
          const uint2 n = __ldg(reinterpret_cast<const uint2*>(counts) + q);
          r.n = make_uint4(n.x & 0xffffU, n.x >> 16, n.y & 0xffffU, n.y >> 16);
        } else {
          r.n = __ldg(reinterpret_cast<const uint4*>(counts) + q);
        }
      }
    } else {  // cell by cell: the row need not start on 16 bytes
      float f[4] = {};
      uint32_t n[4] = {};
      for (int p = 0; p < P; ++p) {
        if (p >= cells) break;  // also every cell of an inactive thread (cells <= 0)
        const size_t cell = row + static_cast<size_t>(col + p);
        const Lanes<K> fc = fin_k[cell];
        const CountLanes<K> nc = load_counts<K, Narrow>(counts, cell);
        for (int c = 0; c < K; ++c) {
          f[p * K + c] = fc.v[c];
          n[p * K + c] = nc.v[c];
        }
      }
      r.f = make_float4(f[0], f[1], f[2], f[3]);
      r.n = make_uint4(n[0], n[1], n[2], n[3]);
    }
    if (load_left || load_right) {
      const size_t side = row + (load_left ? left_col : right_col);
      r.side_f = fin_k[side];
      r.side_n = load_counts<K, Narrow>(counts, side);
    }
    return r;
  };

  // G and the row sums of one loaded row. `row` is needed only for lane 0's second side load.
  auto sums = [&](const RowLoad<K>& r, int y, Quad<K>& g, Quad<K>& rs) {
    const float fv[4] = {r.f.x, r.f.y, r.f.z, r.f.w};
    const uint32_t nv[4] = {r.n.x, r.n.y, r.n.z, r.n.w};
    for (int i = 0; i < 4; ++i) g.v[i] = deposited_channel<S>(fv[i], nv[i], deposit, i % K);
    float side[K];
    for (int c = 0; c < K; ++c) side[c] = deposited_channel<S>(r.side_f.v[c], r.side_n.v[c], deposit, c);
    float left[K];
    float right[K];
    for (int c = 0; c < K; ++c) {
      left[c] = __shfl_up_sync(0xffffffffU, g.v[(P - 1) * K + c], 1);
      right[c] = __shfl_down_sync(0xffffffffU, g.v[c], 1);
      if (load_left) left[c] = side[c];
      if (load_right && !load_left) right[c] = side[c];
    }
    if (load_left && load_right) {  // lane 0 is also the row's last: a narrow field
      const size_t cell = static_cast<size_t>(wrap_any(y, h)) * static_cast<size_t>(w) + right_col;
      const Lanes<K> f = fin_k[cell];
      const CountLanes<K> n = load_counts<K, Narrow>(counts, cell);
      for (int c = 0; c < K; ++c) right[c] = deposited_channel<S>(f.v[c], n.v[c], deposit, c);
    }
    for (int p = 0; p < P; ++p) {
      for (int c = 0; c < K; ++c) {
        const float l = p == 0 ? left[c] : g.v[(p - 1) * K + c];
        const float r = (p == P - 1 || p == cells - 1) ? right[c] : g.v[(p + 1) * K + c];
        rs.v[p * K + c] = c < S ? rule::row_sum(l, g.v[p * K + c], r) : 0.0f;
      }
    }
  };

  Quad<K> g_cur;
  Quad<K> g_next;
  Quad<K> rs_prev;
  Quad<K> rs_cur;
  Quad<K> rs_next;
  RowLoad<K> ahead = issue(y0 + 1);
  sums(issue(y0 - 1), y0 - 1, g_next, rs_prev);
  sums(issue(y0), y0, g_cur, rs_cur);
  const int y_end = min(y0 + Rows, h);
  for (int y = y0; y < y_end; ++y) {
    const RowLoad<K> loaded = ahead;
    if (y + 2 <= y_end) ahead = issue(y + 2);  // in flight while row y + 1 is summed
    sums(loaded, y + 1, g_next, rs_next);
    if (active) {
      Quad<K> out{};
      for (int i = 0; i < 4; ++i) {
        const int c = i % K;
        if (c < S) {
          out.v[i] = rule::stencil_cell(g_cur.v[i], rs_prev.v[i], rs_cur.v[i], rs_next.v[i], prm[c]);
        }
      }
      const size_t cell0 = static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(col);
      if constexpr (Aligned) {
        const size_t q = cell0 * K / 4;
        reinterpret_cast<float4*>(fout)[q] = make_float4(out.v[0], out.v[1], out.v[2], out.v[3]);
        if (clear != nullptr) {
          if constexpr (Narrow) {
            reinterpret_cast<uint2*>(clear)[q] = make_uint2(0U, 0U);
          } else {
            reinterpret_cast<uint4*>(clear)[q] = make_uint4(0U, 0U, 0U, 0U);
          }
        }
      } else {
        for (int p = 0; p < P; ++p) {
          if (p >= cells) break;
          Lanes<K> o;
          for (int c = 0; c < K; ++c) o.v[c] = out.v[p * K + c];
          reinterpret_cast<Lanes<K>*>(fout)[cell0 + p] = o;
          if (clear != nullptr) reinterpret_cast<CountLanes<K>*>(clear)[cell0 + p] = CountLanes<K>{};
        }
      }
    }
    rs_prev = rs_cur;
    rs_cur = rs_next;
    g_cur = g_next;
  }
  if (step_ptr != nullptr && blockIdx.x == 0 && blockIdx.y == 0 && lane == 0 && threadIdx.y == 0)
    *step_ptr += 1U;
}

template <int S, int Rows, bool Aligned, bool Narrow>
void launch_strip(cudaStream_t stream, const float* field_in, float* field_out, const uint32_t* counts,
                  uint32_t* clear, const rule::SpeciesParams* species, uint32_t* step, int width, int height,
                  Worlds worlds) {
  const int cells_per_warp = 32 * (4 / channel_stride(S));
  const dim3 grid(static_cast<unsigned>((width + cells_per_warp - 1) / cells_per_warp),
                  static_cast<unsigned>((height + Rows * kStripWarps - 1) / (Rows * kStripWarps)),
                  static_cast<unsigned>(worlds.count));
  field_kernel_strip<S, Rows, Aligned, Narrow><<<grid, dim3(32, kStripWarps), 0, stream>>>(
      field_in, field_out, counts, clear, species, step, worlds.floats);
}

template <int S, bool Aligned, bool Narrow = false>
void launch_strip_rows(cudaStream_t stream, const float* field_in, float* field_out, const uint32_t* counts,
                       uint32_t* clear, const rule::SpeciesParams* species, uint32_t* step, int width,
                       int height, int rows, Worlds worlds) {
  switch (rows) {
    case 8:
      launch_strip<S, 8, Aligned, Narrow>(stream, field_in, field_out, counts, clear, species, step, width,
                                          height, worlds);
      break;
    case 32:
      launch_strip<S, 32, Aligned, Narrow>(stream, field_in, field_out, counts, clear, species, step, width,
                                           height, worlds);
      break;
    default:
      launch_strip<S, 16, Aligned, Narrow>(stream, field_in, field_out, counts, clear, species, step, width,
                                           height, worlds);
      break;
  }
}

__global__ void block_mean_kernel(const float* __restrict__ field, float* __restrict__ sense, int width,
                                  int blocks_x, int64_t blocks, int k, int stride, float inv_k2) {
  const int64_t b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= blocks) return;
  const int64_t x0 = (b % blocks_x) * k;
  const int64_t y0 = (b / blocks_x) * k;
  for (int c = 0; c < stride; ++c) {
    const float mean = rule::block_mean(field, width, x0, y0, k, stride, c, inv_k2);
    for (int64_t y = y0; y < y0 + k; ++y)
      for (int64_t x = x0; x < x0 + k; ++x) sense[(y * width + x) * stride + c] = mean;
  }
}

// The cell an agent's position falls in, numbered across the worlds (world-major).
__device__ __forceinline__ uint32_t batch_cell(float x, float y, int width, int height, uint64_t i,
                                               uint64_t per_world) {
  const auto world = static_cast<uint32_t>(i / per_world);
  return world * static_cast<uint32_t>(width) * static_cast<uint32_t>(height) +
         static_cast<uint32_t>(cell_index(x, y, width, height));
}

template <bool Narrow>
__global__ void histogram_kernel(AgentArrays a, uint64_t n, uint32_t* __restrict__ counts, int width,
                                 int height, uint64_t per_world) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * kAgentBlock + threadIdx.x;
  if (i >= n) return;
  count_add<Narrow>(counts, static_cast<int>(batch_cell(a.x[i], a.y[i], width, height, i, per_world)), 1U);
}

__global__ void scatter_kernel(AgentArrays from, AgentArrays to, uint64_t n, uint32_t* __restrict__ offsets,
                               int width, int height, uint64_t per_world) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * kAgentBlock + threadIdx.x;
  if (i >= n) return;
  const float x = from.x[i];
  const float y = from.y[i];
  const uint32_t slot =
      aggregated_add(offsets, static_cast<int>(batch_cell(x, y, width, height, i, per_world)));
  to.x[slot] = x;
  to.y[slot] = y;
  to.theta[slot] = from.theta[i];
  to.id[slot] = from.id[i];
}

__global__ void order_by_id_kernel(AgentArrays from, AgentArrays to, uint64_t n) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * kAgentBlock + threadIdx.x;
  if (i >= n) return;
  const uint32_t id = from.id[i];
  to.x[id] = from.x[i];
  to.y[id] = from.y[i];
  to.theta[id] = from.theta[i];
  to.id[id] = id;
}

// One thread per distinct target cell of the brush's box. The CPU walks offsets dy (outer) and dx
// (inner) from -r to r and may reach one cell several times when the box wraps onto itself; this
// thread applies every offset that lands on its cell, in that same order.
__global__ void brush_kernel(float* field, int width, int height, int cx, int cy, int r, int box_w, int box_h,
                             float radius, float amount, int stride, int channel) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int j = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (i >= box_w || j >= box_h) return;
  // Target cell and its smallest offset >= -r from the centre, per axis.
  const int tx = box_w == width ? i : wrap_any(((cx - r + i) % width + width) % width, width);
  const int ty = box_h == height ? j : wrap_any(((cy - r + j) % height + height) % height, height);
  const int first_dx = -r + (((tx - cx + r) % width) + width) % width;
  const int first_dy = -r + (((ty - cy + r) % height) + height) % height;
  const size_t idx = (static_cast<size_t>(ty) * static_cast<size_t>(width) + static_cast<size_t>(tx)) *
                         static_cast<size_t>(stride) +
                     static_cast<size_t>(channel);
  float f = field[idx];
  bool touched = false;
  for (int dy = first_dy; dy <= r; dy += height) {
    for (int dx = first_dx; dx <= r; dx += width) {
      if (!rule::brush_covers(dx, dy, radius)) continue;
      f = rule::brush_apply(f, amount);
      touched = true;
    }
  }
  if (touched) field[idx] = f;
}

// The field into the renderer's texture: one species as R32F; several as RGBA32F, channel c in
// component c and the unused components 0 (the renderer blends the species' colours itself).
template <int S>
__global__ void publish_kernel(const float* __restrict__ field, int width, int height,
                               cudaSurfaceObject_t surface) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const size_t cell = static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x);
  if constexpr (S == 1) {
    surf2Dwrite(field[cell], surface, x * static_cast<int>(sizeof(float)), y);
  } else if constexpr (S == 2) {
    const float2 v = reinterpret_cast<const float2*>(field)[cell];
    surf2Dwrite(make_float4(v.x, v.y, 0.0f, 0.0f), surface, x * static_cast<int>(sizeof(float4)), y);
  } else {
    // S = 3 has a stride of 4 whose padding channel is always 0.
    const float4 v = reinterpret_cast<const float4*>(field)[cell];
    surf2Dwrite(make_float4(v.x, v.y, v.z, S == 4 ? v.w : 0.0f), surface,
                x * static_cast<int>(sizeof(float4)), y);
  }
}

__global__ void set_species_kernel(rule::SpeciesParams* dst, rule::SpeciesParams value) {
  *dst = value;
}

}  // namespace

namespace {
// The blocks of a kernel with kAgentBlock threads that the GPU holds at once.
template <class Kernel>
unsigned resident_blocks(Kernel kernel) {
  int per_sm = 0;
  int sms = 0;
  int device = 0;
  PHYS_CUDA_CHECK(cudaGetDevice(&device));
  PHYS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  PHYS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kAgentBlock, 0));
  return static_cast<unsigned>(std::max(1, per_sm) * std::max(1, sms));
}

// As many blocks as the GPU holds at once (asked once per kernel: each instantiation has its own
// registers, so its own count), or as many as n agents need if fewer.
// What one launch of the agent kernel takes, whichever instantiation runs it.
struct AgentLaunch {
  AgentArrays a;
  uint64_t n;  // per world
  const float* field;
  uint32_t* counts;
  uint32_t* spent;
  const rule::SpeciesParams* species;
  const uint32_t* step;
  const uint8_t* walls;
  Worlds worlds;
};

// One world: as many blocks as the GPU holds at once (or as n agents need), each thread striding.
// Several: a world per blockIdx.y, with blocks enough that each thread steps a few agents, so the
// GPU works through the worlds some dozens at a time with all of a world's agents in flight
// together: their sensors then read a world's field while it sits in L2, as one large world's do.
// (The resident blocks shared among all the worlds, a few a world, moved 40% more bytes from DRAM
// per agent: every world's small window of agents crept through its field at once.)
template <int S, bool Weighted, bool Aggregate, int Rule, int Walls, bool Narrow = false>
void launch_agents_kernel(cudaStream_t stream, const AgentLaunch& l) {
  const auto kernel = agents_kernel<S, Weighted, Aggregate, Rule, Walls, Narrow>;
  static const unsigned resident = resident_blocks(kernel);
  const auto worlds = static_cast<unsigned>(l.worlds.count);
  unsigned blocks = std::min(resident, blocks_for(l.n, kAgentBlock));
  if (worlds > 1) {
    const unsigned shared = std::max(1U, resident / worlds);
    const int per_thread = l.worlds.agents_per_thread;
    blocks = std::min(blocks_for(l.n, kAgentBlock),
                      per_thread > 0 ? std::max(shared, blocks_for(l.n, kAgentBlock * per_thread)) : shared);
  }
  kernel<<<dim3(blocks, worlds), kAgentBlock, 0, stream>>>(l.a, l.n, l.field, l.counts, l.spent, l.species,
                                                           l.step, l.walls, l.worlds.floats);
}

template <int S, bool Weighted, int Rule, int Walls = kWallsNone, bool Narrow = false>
void agents_for(cudaStream_t stream, const AgentLaunch& l, bool aggregate) {
  if (aggregate) {
    launch_agents_kernel<S, Weighted, true, Rule, Walls, Narrow>(stream, l);
  } else {
    launch_agents_kernel<S, Weighted, false, Rule, Walls, Narrow>(stream, l);
  }
}
// Several species, or walls: each agent's rule from its species' parameters.
template <int S, int Walls = kWallsNone>
void agents_weighted(cudaStream_t stream, const AgentLaunch& l, bool aggregate) {
  agents_for<S, true, rule::kRuleFromParams, Walls>(stream, l, aggregate);
}
// One species on the single-species path, the kernel of its kernel rule (rule::with_kernel_rule:
// one instantiation a rule), with the counts' width.
void agents_single(cudaStream_t stream, const AgentLaunch& l, bool aggregate, int kernel_rule) {
  rule::with_kernel_rule(kernel_rule, [&](auto r) {
    constexpr int kRule = decltype(r)::value;
    if (l.worlds.narrow_counts) {
      agents_for<1, false, kRule, kWallsNone, true>(stream, l, aggregate);
    } else {
      agents_for<1, false, kRule>(stream, l, aggregate);
    }
  });
}

// With walls, every species count takes the weighted kernel (a product by W[0][0] = 1 is exact).
template <int S>
void agents_walled(cudaStream_t stream, const AgentLaunch& l, bool aggregate, int mode) {
  if (mode == kWallsClosed) {
    agents_weighted<S, kWallsClosed>(stream, l, aggregate);
  } else {
    agents_weighted<S, kWallsMap>(stream, l, aggregate);
  }
}
}  // namespace

void launch_agents(cudaStream_t stream, AgentArrays a, uint64_t n, const float* field, uint32_t* counts,
                   uint32_t* spent, const rule::SpeciesParams* species, const uint32_t* step, bool aggregate,
                   int channels, bool weighted, int kernel_rule, const uint8_t* walls, int walls_mode,
                   Worlds worlds) {
  if (n == 0 || worlds.count <= 0) return;
  const AgentLaunch l{a, n, field, counts, spent, species, step, walls, worlds};
  if (walls_mode != kWallsNone) {
    switch (channels) {
      case 1: agents_walled<1>(stream, l, aggregate, walls_mode); break;
      case 2: agents_walled<2>(stream, l, aggregate, walls_mode); break;
      case 3: agents_walled<3>(stream, l, aggregate, walls_mode); break;
      default: agents_walled<4>(stream, l, aggregate, walls_mode); break;
    }
    PHYS_CUDA_CHECK_LAUNCH();
    return;
  }
  switch (channels) {
    case 1:
      if (weighted) {
        agents_weighted<1>(stream, l, aggregate);
      } else {
        agents_single(stream, l, aggregate, kernel_rule);
      }
      break;
    case 2: agents_weighted<2>(stream, l, aggregate); break;
    case 3: agents_weighted<3>(stream, l, aggregate); break;
    default: agents_weighted<4>(stream, l, aggregate); break;
  }
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_field(cudaStream_t stream, const float* field_in, float* field_out, const uint32_t* counts,
                  uint32_t* clear, const rule::SpeciesParams* species, uint32_t* step, int width, int height,
                  int channels, int strip_rows, Worlds worlds) {
  if (width <= 0 || height <= 0 || worlds.count <= 0) return;
  const bool aligned = (width * channel_stride(channels)) % 4 == 0;
  switch (channels) {
    case 1:
      if (worlds.narrow_counts) {
        launch_strip_rows<1, true, true>(stream, field_in, field_out, counts, clear, species, step, width,
                                         height, strip_rows, worlds);
      } else if (aligned) {
        launch_strip_rows<1, true>(stream, field_in, field_out, counts, clear, species, step, width, height,
                                   strip_rows, worlds);
      } else {
        launch_strip_rows<1, false>(stream, field_in, field_out, counts, clear, species, step, width, height,
                                    strip_rows, worlds);
      }
      break;
    case 2:
      if (aligned) {
        launch_strip_rows<2, true>(stream, field_in, field_out, counts, clear, species, step, width, height,
                                   strip_rows, worlds);
      } else {
        launch_strip_rows<2, false>(stream, field_in, field_out, counts, clear, species, step, width, height,
                                    strip_rows, worlds);
      }
      break;
    case 3:
      launch_strip_rows<3, true>(stream, field_in, field_out, counts, clear, species, step, width, height,
                                 strip_rows, worlds);
      break;
    default:
      launch_strip_rows<4, true>(stream, field_in, field_out, counts, clear, species, step, width, height,
                                 strip_rows, worlds);
      break;
  }
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_block_mean(cudaStream_t stream, const float* field, float* sense, int width, int height, int k,
                       int stride) {
  const int blocks_x = width / k;
  const int64_t blocks = static_cast<int64_t>(blocks_x) * (height / k);
  const float inv_k2 = 1.0f / static_cast<float>(k * k);  // on the host, as the CPU backend rounds it
  constexpr int kThreads = 256;
  const auto grid = static_cast<unsigned>((blocks + kThreads - 1) / kThreads);
  block_mean_kernel<<<grid, kThreads, 0, stream>>>(field, sense, width, blocks_x, blocks, k, stride, inv_k2);
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_histogram(cudaStream_t stream, AgentArrays a, uint64_t n, uint32_t* counts, int width, int height,
                      uint64_t per_world, bool narrow) {
  if (n == 0) return;
  const unsigned blocks = blocks_for(n, kAgentBlock);
  if (narrow) {
    histogram_kernel<true><<<blocks, kAgentBlock, 0, stream>>>(a, n, counts, width, height, per_world);
  } else {
    histogram_kernel<false><<<blocks, kAgentBlock, 0, stream>>>(a, n, counts, width, height, per_world);
  }
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_scatter_by_cell(cudaStream_t stream, AgentArrays from, AgentArrays to, uint64_t n,
                            uint32_t* offsets, int width, int height, uint64_t per_world) {
  if (n == 0) return;
  scatter_kernel<<<blocks_for(n, kAgentBlock), kAgentBlock, 0, stream>>>(from, to, n, offsets, width, height,
                                                                         per_world);
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_order_by_id(cudaStream_t stream, AgentArrays from, AgentArrays to, uint64_t n) {
  if (n == 0) return;
  order_by_id_kernel<<<blocks_for(n, kAgentBlock), kAgentBlock, 0, stream>>>(from, to, n);
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_brush(cudaStream_t stream, float* field, int width, int height, int cx, int cy, int r, int box_w,
                  int box_h, float radius, float amount, int stride, int channel) {
  if (box_w <= 0 || box_h <= 0) return;
  const dim3 block(16, 16);
  const dim3 grid(static_cast<unsigned>((box_w + 15) / 16), static_cast<unsigned>((box_h + 15) / 16));
  brush_kernel<<<grid, block, 0, stream>>>(field, width, height, cx, cy, r, box_w, box_h, radius, amount,
                                           stride, channel);
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_publish(cudaStream_t stream, const float* field, int width, int height, int channels,
                    cudaSurfaceObject_t surface) {
  if (width <= 0 || height <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((width + 31) / 32), static_cast<unsigned>((height + 7) / 8));
  switch (channels) {
    case 1: publish_kernel<1><<<grid, block, 0, stream>>>(field, width, height, surface); break;
    case 2: publish_kernel<2><<<grid, block, 0, stream>>>(field, width, height, surface); break;
    case 3: publish_kernel<3><<<grid, block, 0, stream>>>(field, width, height, surface); break;
    default: publish_kernel<4><<<grid, block, 0, stream>>>(field, width, height, surface); break;
  }
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_set_species(cudaStream_t stream, rule::SpeciesParams* dst, const rule::SpeciesParams& value) {
  set_species_kernel<<<1, 1, 0, stream>>>(dst, value);
  PHYS_CUDA_CHECK_LAUNCH();
}

}  // namespace physarum::cuda
