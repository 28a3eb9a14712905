// The CPU backend's plain agent stages (one species, W = [[1]]) over a block of agents, written once
// over a lane set L: ScalarLanes (one agent at a time, any CPU) or lanes8::Lanes8 (eight, AVX2, in
// cpu_stages_avx2.cpp). Both instantiate the same rule.hpp functions, so they give the same bits.
// Plain pointers only: the AVX2 translation unit includes this and must not instantiate library
// code that the linker could pick for the baseline build.
#pragma once

#include <cstdint>

#include "sim/rule.hpp"

namespace physarum::cpu {

// The agent stages run over blocks of kBlock agents, stage by stage: sensor cells of the whole block
// (vectorised), their field reads (independent loads, in flight together), steer and move
// (vectorised), then the counts.
constexpr int kBlock = 64;

struct AgentBlock {
  float* x;
  float* y;
  float* theta;
  const uint32_t* id;
  int count;  // <= kBlock
};

// A block's sensor cells, their readings and the cells the agents deposit into.
struct BlockScratch {
  alignas(32) int centre[kBlock];
  alignas(32) int left[kBlock];
  alignas(32) int right[kBlock];
  alignas(32) int cell[kBlock];
  alignas(32) float fc[kBlock];
  alignas(32) float fl[kBlock];
  alignas(32) float fr[kBlock];
};

struct ScalarLanes {
  using F = float;
  using I = int;
  using U = uint32_t;
  static constexpr int kWidth = 1;
  static F load(const float* p) { return *p; }
  static U load(const uint32_t* p) { return *p; }
  static void store(float* p, F v) { *p = v; }
  static void store(int* p, I v) { *p = v; }
};

// Sensor cells of agents [j0, j1) (j1 - j0 a multiple of L::kWidth).
template <class L>
inline __attribute__((always_inline)) void sense_block(const AgentBlock& b, int j0, int j1, BlockScratch& s,
                                                       const rule::StepParams& p) {
  for (int j = j0; j < j1; j += L::kWidth) {
    const auto c = rule::sensor_cells_of<false>(L::load(b.x + j), L::load(b.y + j), L::load(b.theta + j), p);
    L::store(s.centre + j, c.centre);
    L::store(s.left + j, c.left);
    L::store(s.right + j, c.right);
  }
}

// Steer and move agents [j0, j1) in place from their readings; their deposit cells into s.cell.
// Rule: the kernel rule (rule::with_kernel_rule). A rule that draws nothing is a compile-time
// constant: the hash branches vanish and the loop vectorises. Either way the arithmetic is
// rule.hpp's, so results are equal.
template <class L, int Rule>
inline __attribute__((always_inline)) void steer_move_block(const AgentBlock& b, int j0, int j1,
                                                            BlockScratch& s, uint32_t step,
                                                            const rule::StepParams& p) {
  const rule::StepParams q = rule::as_kernel_rule<Rule>(p);
  for (int j = j0; j < j1; j += L::kWidth) {
    using F = typename L::F;
    const F theta = rule::steer(L::load(b.theta + j), L::load(s.fc + j), L::load(s.fl + j), L::load(s.fr + j),
                                L::load(b.id + j), step, q);
    F x = L::load(b.x + j);
    F y = L::load(b.y + j);
    L::store(s.cell + j, rule::move_to(x, y, theta, q));
    L::store(b.x + j, x);
    L::store(b.y + j, y);
    L::store(b.theta + j, theta);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// cpu_stages_avx2.cpp: the two stages eight agents at a time, for agents [0, n), n a multiple of 8.
// Call only where the CPU has AVX2.
void sense_block_avx2(const AgentBlock& b, int n, BlockScratch& s, const rule::StepParams& p);
void steer_move_block_avx2(const AgentBlock& b, int n, BlockScratch& s, uint32_t step,
                           const rule::StepParams& p);
#endif

}  // namespace physarum::cpu
