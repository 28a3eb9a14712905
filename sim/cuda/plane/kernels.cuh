// Launchers of the CUDA backend's kernels (internal to sim/cuda). Each enqueues on `stream`,
// checks the launch and does nothing for an empty range. All model arithmetic happens in
// sim/rule.hpp, so results match the CPU backend bit for bit.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "sim/rule.hpp"

namespace physarum::cuda {

// Structure-of-arrays agents; `id` is the stable identity the random streams are keyed on.
struct AgentArrays {
  float* x;
  float* y;
  float* theta;
  uint32_t* id;
};

// Several species: `channels` (S) trail and count channels per cell, interleaved with this stride
// (S = 3 is padded to 4 so that one float4 load reads a cell).
__host__ __device__ constexpr int channel_stride(int channels) {
  return channels == 3 ? 4 : channels;
}

// Sense, steer, move and count one deposit per agent (atomicAdd into `counts`, into the agent's
// species' channel). The other count buffer, the step before's, must be zero again before the next
// step counts into it: either this pass zeroes it (`spent`: each agent its count of the step before,
// where it still stands; every count there was made by an agent standing on it) or the field pass
// does (`clear`: cell by cell); the other pointer is nullptr. The step index is read from *step on the device
// so that a captured graph replays with advancing steps. `aggregate`: combine the atomics of lanes that hit
// the same cell (helps once agents are sorted). `weighted` = false (only with one channel): W = [[1]], the
// single-species rule without a multiply, by the kernel of `kernel_rule` (rule::kernel_rule: the worlds'
// one rule when no world's step draws random numbers, then without the id load; else
// rule::kRuleFromParams); a rule without its kernel does not compile (rule::with_kernel_rule).
// Walls (docs/MODEL.md, "Environment"): kWallsNone (the wall-less kernels), kWallsMap (walls on the torus) or
// kWallsClosed (the closed box); with walls, `walls` is W x H bytes (non-zero = wall) and every species count
// takes the weighted kernel. Several worlds of one size (sim/backend.hpp, WorldBatch) in one launch: world
// b's agents are [b * n, (b + 1) * n) of the arrays, its field and counts the `world_floats` floats from b *
// world_floats, its parameters species[b]. One world: worlds = 1 (world_floats unused).
enum WallsMode : int { kWallsNone = 0, kWallsMap = 1, kWallsClosed = 2 };
struct Worlds {
  int count = 1;
  size_t floats = 0;  // per world in the field and the counts: cells * channel_stride(S)
  // Several worlds: the agents each thread of the agent kernel steps (blocks enough for that); 0:
  // the GPU's resident blocks shared among the worlds.
  int agents_per_thread = 4;
  // The count buffers hold 16 bits a cell, two cells to a 32-bit word, even cell in the low half
  // (`counts`, `spent` and `clear` still point at words). Only for one species without walls, rows
  // of a multiple of 4 cells and fewer than 65536 agents a world (no count can reach 2^16).
  bool narrow_counts = false;
};
void launch_agents(cudaStream_t stream, AgentArrays a, uint64_t n, const float* field, uint32_t* counts,
                   uint32_t* spent, const rule::SpeciesParams* species, const uint32_t* step, bool aggregate,
                   int channels, bool weighted, int kernel_rule, const uint8_t* walls = nullptr,
                   int walls_mode = kWallsNone, Worlds worlds = {});

// The fused field pass, channel by channel: G = deposited(F, counts), 3x3 wrapped sum of G from row
// sums, decay (strip_rows: rows per warp, 8, 16 or 32, where the width allows the register pass); writes
// `field_out`, zeroes `clear` (the other count buffer, unless nullptr: the agents zeroed it) and
// advances *step by one (once for all worlds).
void launch_field(cudaStream_t stream, const float* field_in, float* field_out, const uint32_t* counts,
                  uint32_t* clear, const rule::SpeciesParams* species, uint32_t* step, int width, int height,
                  int channels, int strip_rows, Worlds worlds = {});

// The sensing field of a detail K > 1 (docs/MODEL.md, "Scale"): every cell of each K x K block gets
// the block's rule::block_mean, channel by channel (`stride` floats per cell; K divides both sides).
void launch_block_mean(cudaStream_t stream, const float* field, float* sense, int width, int height, int k,
                       int stride);

// counts[cell of agent] += 1 for every agent (used when no step has counted the current positions).
// n agents in all, `per_world` of them a world (agent i is in world i / per_world, and its cell is
// world * width * height + its cell in the world); `narrow`: 16-bit counts (Worlds::narrow_counts).
void launch_histogram(cudaStream_t stream, AgentArrays a, uint64_t n, uint32_t* counts, int width, int height,
                      uint64_t per_world, bool narrow);

// Moves agent i to slot offsets[cell]++ (offsets: exclusive prefix sum of the per-cell counts, cells
// as the histogram numbers them), so agents end up grouped by world, then by cell in row-major order.
void launch_scatter_by_cell(cudaStream_t stream, AgentArrays from, AgentArrays to, uint64_t n,
                            uint32_t* offsets, int width, int height, uint64_t per_world);

// to[from.id[i]] = from[i]: agents in id order (ids are a permutation of 0..n-1).
void launch_order_by_id(cudaStream_t stream, AgentArrays from, AgentArrays to, uint64_t n);

// The brush over the wrapped square of cells around the centre, exactly as the CPU applies it.
// (cx, cy): the centre cell, already wrapped; r: the offset reach; box_w x box_h: the distinct cells
// covered (min(2r+1, side) per axis).
// `channel` of an interleaved field of `stride` floats per cell.
void launch_brush(cudaStream_t stream, float* field, int width, int height, int cx, int cy, int r, int box_w,
                  int box_h, float radius, float amount, int stride, int channel);

// Writes the field into a 2D surface of the same size: R32F for one channel, RGBA32F (channel c in
// component c, unused components 0) for several; the renderer blends the species' colours.
void launch_publish(cudaStream_t stream, const float* field, int width, int height, int channels,
                    cudaSurfaceObject_t surface);

// Replaces the device copy of the parameters in stream order (kernel arguments are copied at
// launch, so the host struct may change right after).
void launch_set_species(cudaStream_t stream, rule::SpeciesParams* dst, const rule::SpeciesParams& value);

}  // namespace physarum::cuda
