// The model's arithmetic, in one place, compiled by both g++ and nvcc.
//
// Every backend calls these functions and nothing else for the model's floating-point work, so
// results are bit-identical across backends and thread counts. Each operation is an explicit,
// correctly rounded IEEE-754 single-precision add/sub/mul (no FMA contraction, no reassociation);
// sin/cos are our own polynomial because the libraries' sinf differ between CPU and GPU; random
// numbers come from a counter-based hash of (seed, agent id, step, stream).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

// Bit-identity needs every operation below to be the correctly rounded IEEE one, with subnormals
// kept: fast-math lets the compiler reassociate, contract and flush them. Refused, not tolerated.
// (g++/clang: -ffast-math and -Ofast define __FAST_MATH__, -ffinite-math-only __FINITE_MATH_ONLY__;
// __USE_FAST_MATH__ is checked for compilers that define it, but nvcc 13 defines no macro for
// --use_fast_math, so CMakeLists.txt also refuses the flag and always passes -ftz=false
// -prec-div=true -prec-sqrt=true -fmad=false, which override what --use_fast_math implies.)
#if defined(__FAST_MATH__) || defined(__USE_FAST_MATH__) || \
    (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error \
    "physarum: fast-math (-ffast-math, -Ofast, -ffinite-math-only, --use_fast_math) breaks the model's bit-identity; build without it"
#endif

#if defined(__CUDACC__)
#define PHYS_HD __host__ __device__ __forceinline__
#else
#define PHYS_HD inline __attribute__((always_inline))
#endif

namespace physarum::rule {

// --- The primitive operations, each with one IEEE-754 result on every target. This is the one place
// where the two compilers get different code: on the device the _rn intrinsics forbid FMA contraction
// even under -fmad=true (the host has -ffp-contract=off) and floorf is one instruction, while the
// host's floor is written with a truncating conversion so that the agent loops vectorise without
// SSE4.1. Both floors are exact for |v| < 2^31 (every argument here is a bounded coordinate or
// angle) and agree bit for bit on every argument they get (none is -0).
#if defined(__CUDA_ARCH__)
PHYS_HD float add(float a, float b) {
  return __fadd_rn(a, b);
}
PHYS_HD float sub(float a, float b) {
  return __fsub_rn(a, b);
}
PHYS_HD float mul(float a, float b) {
  return __fmul_rn(a, b);
}
PHYS_HD float floor_f(float v) {
  return floorf(v);
}
#else
PHYS_HD float add(float a, float b) {
  return a + b;
}
PHYS_HD float sub(float a, float b) {
  return a - b;
}
PHYS_HD float mul(float a, float b) {
  return a * b;
}
PHYS_HD float floor_f(float v) {
  const float t = static_cast<float>(static_cast<int>(v));
  return t > v ? t - 1.0f : t;
}
#endif

// --- Lanes. The agent functions below (sin_cos, wrap, cell_of, the hash, sensor_cells, steer, move)
// are written once over a lane type F: F = float is one agent (the GPU thread, the scalar CPU loop),
// and the CPU's eight-wide type (sim/src/lanes8.hpp) is eight agents in one AVX2 register. A lane
// type brings its masks, its int and uint32 lanes (LanesOf), and overloads of the operations used
// here; each is one IEEE operation or an exact conversion, so every instantiation gives the bits of
// the scalar one. Masks combine with & and |, never && and ||: both sides are evaluated in every lane.
template <class F>
struct LanesOf;
template <>
struct LanesOf<float> {
  using Int = int;
  using Uint = uint32_t;
};
template <class F>
using IntOf = typename LanesOf<F>::Int;
template <class F>
using UintOf = typename LanesOf<F>::Uint;

PHYS_HD float neg(float v) {
  return -v;
}
PHYS_HD float select(bool m, float a, float b) {
  return m ? a : b;
}
PHYS_HD int select(bool m, int a, int b) {
  return m ? a : b;
}
PHYS_HD bool select(bool m, bool a, bool b) {
  return m ? a : b;
}
PHYS_HD bool every(bool m) {
  return m;
}
PHYS_HD int trunc_int(float v) {
  return static_cast<int>(v);
}
PHYS_HD int min_int(int a, int b) {
  return a < b ? a : b;
}
PHYS_HD float to_float(uint32_t v) {
  return static_cast<float>(v);
}

constexpr float kPi = 3.14159265358979323846f;
constexpr float kTwoPi = 6.28318530717958647692f;
constexpr float kInvTwoPi = 0.15915494309189533577f;

// --- sin and cos. Reduce a by multiples of pi/2 (two-part Cody-Waite: the high part has 8
// significant bits, so q * hi is exact for the small q we see), then Taylor polynomials on
// [-pi/4, pi/4] (truncation error < 3e-9). Absolute error of the whole is ~1e-7 for |a| < 100.
template <class F>
struct SinCosOf {
  F s;
  F c;
};
using SinCos = SinCosOf<float>;
template <class F>
PHYS_HD SinCosOf<F> sin_cos(F a) {
  using I = IntOf<F>;
  const F q = floor_f(add(mul(a, F(0.63661977236758134308f)), F(0.5f)));
  const F r = sub(sub(a, mul(q, F(1.5703125f))), mul(q, F(4.8382679489661923e-4f)));
  const F r2 = mul(r, r);
  F ps = add(mul(r2, F(2.7557319e-6f)), F(-1.9841270e-4f));
  ps = add(mul(r2, ps), F(8.3333333e-3f));
  ps = add(mul(r2, ps), F(-1.6666667e-1f));
  const F s = add(r, mul(mul(r, r2), ps));
  F pc = add(mul(r2, F(-2.7557319e-7f)), F(2.4801587e-5f));
  pc = add(mul(r2, pc), F(-1.3888889e-3f));
  pc = add(mul(r2, pc), F(4.1666667e-2f));
  pc = add(mul(r2, pc), F(-0.5f));
  const F c = add(F(1.0f), mul(r2, pc));
  // Quadrant k = q mod 4: (s, c), (c, -s), (-s, -c), (-c, s). Selected without branches (random
  // headings would mispredict them); negation is exact.
  const I k = trunc_int(q) & I(3);
  const auto odd = (k & I(1)) != I(0);
  const auto high = (k & I(2)) != I(0);
  const F sin_a = select(odd, c, s);
  const F cos_a = select(odd, neg(s), c);
  return {select(high, neg(sin_a), sin_a), select(high, neg(cos_a), cos_a)};
}

// --- Wrapping. `below(v, n)` for n > 0: +0 <= v < n, in one unsigned comparison of the float bits
// (non-negative floats order like their bits; -0, negative values and NaN have larger ones). It is
// false for -0, where `v >= 0 && v < n` is true: callers that use it as a shortcut fall back on wrap().
PHYS_HD uint32_t float_bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
PHYS_HD bool below(float v, float n) {
  return float_bits(v) < float_bits(n);
}

// v into [0, n); inv_n is 1/n rounded to float (computed once, on the host).
// floor(v * inv_n) may be off by one near a boundary; the two corrections fix that, and the
// last guard catches v + n rounding up to n for a tiny negative v.
template <class F>
PHYS_HD F wrap(F v, F n, F inv_n) {
  // Almost every value is already inside: return it (the formula below would give v back too).
  // The branch is taken the same way by nearly all agents (and lanes), so it costs little anywhere.
  const auto inside = (v >= F(0.0f)) & (v < n);
  if (every(inside)) return v;
  F r = sub(v, mul(floor_f(mul(v, inv_n)), n));
  r = select(r < F(0.0f), add(r, n), r);
  r = select(r >= n, sub(r, n), r);
  r = select((r >= n) | (r < F(0.0f)), F(0.0f), r);
  return select(inside, v, r);
}
// The cell that holds a wrapped coordinate (clamped: a float in [0, n) truncates to [0, n-1]).
template <class F>
PHYS_HD IntOf<F> cell_of(F wrapped, int n) {
  using I = IntOf<F>;
  return min_int(trunc_int(wrapped), I(n - 1));
}
// The row-major cell of a wrapped position.
template <class F>
PHYS_HD IntOf<F> cell_at(F wrapped_x, F wrapped_y, int width, int height) {
  using I = IntOf<F>;
  return cell_of(wrapped_y, height) * I(width) + cell_of(wrapped_x, width);
}
// Integer wrap for neighbour indices.
PHYS_HD int wrap_index(int i, int n) {
  return i < 0 ? i + n : (i >= n ? i - n : i);
}

// --- Counter-based random numbers: a 32-bit integer finaliser applied three times.
enum Stream : uint32_t {
  kStreamTurn = 1,
  kStreamJitter = 2,
  kStreamSpawnA = 3,
  kStreamSpawnB = 4,
  kStreamSpawnC = 5,
  kStreamWallTurn = 6,  // the turn of an agent whose move a wall blocks (docs/MODEL.md, "Environment")
  kStreamRing = 7,      // a volume's sensor ring, turned at random each step (docs/MODEL.md, "Volume")
  kStreamSpawnD = 8,    // a volume agent's z and heading at spawn
  kStreamSpawnE = 9,
  kStreamMcpmAzimuth = 10,    // a volume's MCPM agent: the azimuth of its sensing direction
  kStreamMcpmTurn = 11,       // whether it turns toward that direction
  kStreamMcpmDistanceA = 12,  // its sensing distance, a Maxwell-Boltzmann draw from three uniforms
  kStreamMcpmDistanceB = 13,
  kStreamMcpmDistanceC = 14
};
template <class U>
PHYS_HD U mix_lanes(U h) {
  h = h ^ (h >> 16);
  h = h * U(0x7feb352dU);
  h = h ^ (h >> 15);
  h = h * U(0x846ca68bU);
  return h ^ (h >> 16);
}
// The hash of each lane's id; seed, step and stream are the same for every lane.
template <class U>
PHYS_HD U hash_lanes(uint32_t seed, U id, uint32_t step, uint32_t stream) {
  const U h = mix_lanes(U(mix_lanes<uint32_t>(seed + 0x9e3779b9U * stream)) ^ id);
  return mix_lanes(h ^ U(step * 0x85ebca6bU + 0x632be5abU));
}
PHYS_HD uint32_t mix32(uint32_t h) {
  return mix_lanes(h);
}
PHYS_HD uint32_t hash(uint32_t seed, uint32_t id, uint32_t step, uint32_t stream) {
  return hash_lanes(seed, id, step, stream);
}
// Uniform in [0, 1) with 24 random bits (exact in float).
template <class U>
PHYS_HD auto unit_lanes(U h) {
  const auto v = to_float(h >> 8);
  return mul(v, decltype(v)(1.0f / 16777216.0f));
}
PHYS_HD float unit(uint32_t h) {
  return unit_lanes(h);
}

// --- The turn rules, and what each asks of a step: the one answer that every backend's choice of
// kernel, the volume's trace and the window ask (docs/MODEL.md). kTurnMcpm is a volume's rule only
// (rule3d.hpp); a plane refuses it.
enum TurnRuleCode : int { kTurnSimple = 0, kTurnJones = 1, kTurnMcpm = 2 };
constexpr int kTurnRuleCount = 3;  // the codes are 0 .. kTurnRuleCount - 1

struct TurnRuleNeeds {
  bool plane;  // a plane runs it
  // Its turn on a plane draws random numbers, keyed on the seed, the agent's id and the step. (A
  // volume's step draws under every rule: its ring turns at random, rule3d.hpp.)
  bool draws;
  bool trace;  // it keeps a trace beside the field (a volume's MCPM)
};
// One case a rule and no default: a rule added to the enum without its case here does not compile
// (-Wswitch under -Werror), nor does a dispatch to kernels without its instantiation (below).
PHYS_HD constexpr TurnRuleNeeds turn_rule_needs(TurnRuleCode r) {
  switch (r) {
    case kTurnSimple: return {true, false, false};
    case kTurnJones: return {true, true, false};
    case kTurnMcpm: return {false, true, true};
  }
  return {false, true, false};  // no rule: nothing runs it, and nothing may take it to draw nothing
}
PHYS_HD constexpr TurnRuleNeeds turn_rule_needs(int code) {
  return turn_rule_needs(static_cast<TurnRuleCode>(code));
}
// Whether a plane step draws random numbers: its rule's turn, jitter, or walls (a blocked agent
// turns at random, move_walled).
PHYS_HD constexpr bool plane_step_draws(int turn_rule, float jitter, bool walls = false) {
  return turn_rule_needs(turn_rule).draws || jitter != 0.0f || walls;
}

// --- Everything a step needs, derived from the parameters once on the host (make_step_params).
// 16-byte aligned: the GPU loads it in five 16-byte loads instead of one load per field.
struct alignas(16) StepParams {
  int width;
  int height;
  float fwidth;
  float fheight;
  float inv_width;
  float inv_height;
  float sensor_distance;
  float cos_sa;  // sin/cos of the sensor angle, from sin_cos()
  float sin_sa;
  float rotation;  // radians
  float step_size;
  float jitter;  // radians, full width of the uniform perturbation
  int turn_rule;
  uint32_t seed;
  float deposit;
  float keep;         // 1 - decay
  float self_w;       // 1 - diffuse
  float neighbour_w;  // diffuse / 9 (applied to the 3x3 sum)
};

// What a plane step reads besides positions, headings and the field: random numbers (their
// hashes take the agent's id and the step), agent ids (for those, or to find each agent's species
// among several), never a trace.
struct StepNeeds {
  bool random;
  bool ids;
  bool trace;
};
PHYS_HD constexpr StepNeeds step_needs(const StepParams& p, int species = 1, bool walls = false) {
  const bool random = plane_step_draws(p.turn_rule, p.jitter, walls);
  return {random, random || species > 1, false};
}

// --- Kernels compiled for one rule. A step that draws nothing needs neither ids nor hashes, and a
// kernel compiled for its rule (a constant) loads no ids and drops the other rules' tests; a step
// that draws takes the kernel of kRuleFromParams, which reads the rule from the parameters and
// loads ids. kernel_rule() says which a step takes, with_kernel_rule() calls the instantiation, and
// as_kernel_rule() gives the parameters that instantiation steps with.
constexpr int kRuleFromParams = -1;
PHYS_HD constexpr int kernel_rule(const StepParams& p) {
  return step_needs(p).random ? kRuleFromParams : p.turn_rule;
}
template <int Rule>
using KernelRule = std::integral_constant<int, Rule>;
// Rule R's own kernel when it draws nothing; the parameters' rule when it draws.
template <int R>
constexpr int kKernelRuleOf = turn_rule_needs(R).draws ? kRuleFromParams : R;
// f(KernelRule<R>{}) for the kernel rule `code`: one case a rule (no default), so a rule without its
// instantiation does not compile; kRuleFromParams (and no other code) falls through to its own.
template <class F>
decltype(auto) with_kernel_rule(int code, F&& f) {
  switch (static_cast<TurnRuleCode>(code)) {
    case kTurnSimple: return f(KernelRule<kKernelRuleOf<kTurnSimple>>{});
    case kTurnJones: return f(KernelRule<kKernelRuleOf<kTurnJones>>{});
    case kTurnMcpm: return f(KernelRule<kKernelRuleOf<kTurnMcpm>>{});
  }
  return f(KernelRule<kRuleFromParams>{});
}
// The parameters a kernel compiled for `Rule` steps with: its code and no jitter, constants the
// compiler folds (kernel_rule() picks it only for a step that draws nothing); kRuleFromParams: p.
template <int Rule>
PHYS_HD StepParams as_kernel_rule(StepParams p) {
  if constexpr (Rule != kRuleFromParams) {
    static_assert(!turn_rule_needs(Rule).draws,
                  "a rule that draws reads ids: its kernel is kRuleFromParams's");
    p.turn_rule = Rule;
    p.jitter = 0.0f;
  }
  return p;
}

struct Agent {
  float x;
  float y;
  float theta;
};

// One agent's step in three stages. step_agent() chains them; a backend may also run each stage
// over a block of agents (the CPU backend does, so the field reads of many agents overlap), and
// over lanes of agents (sensor_cells_of, steer, move_to).

// 1. Sense: the cells under the centre, left (+SA) and right (-SA) sensors. One sin/cos of the
// heading; the side directions come from rotating it through +-SA.
template <class I>
struct SensorCellsOf {
  I centre;
  I left;
  I right;
};
using SensorCells = SensorCellsOf<int>;
// Closed (boundary = walls): a sensor whose unwrapped position lies outside the field is cell -1,
// which reads as wall.
template <bool Closed, class F>
PHYS_HD SensorCellsOf<IntOf<F>> sensor_cells_of(F x, F y, F theta, const StepParams& p) {
  using I = IntOf<F>;
  const SinCosOf<F> h = sin_cos(theta);
  const F cos_sa(p.cos_sa);
  const F sin_sa(p.sin_sa);
  const F cl = sub(mul(h.c, cos_sa), mul(h.s, sin_sa));
  const F sl = add(mul(h.s, cos_sa), mul(h.c, sin_sa));
  const F cr = add(mul(h.c, cos_sa), mul(h.s, sin_sa));
  const F sr = sub(mul(h.s, cos_sa), mul(h.c, sin_sa));
  const F d(p.sensor_distance);
  const F fw(p.fwidth);
  const F fh(p.fheight);
  const F ux[3] = {add(x, mul(d, h.c)), add(x, mul(d, cl)), add(x, mul(d, cr))};
  const F uy[3] = {add(y, mul(d, h.s)), add(y, mul(d, sl)), add(y, mul(d, sr))};
  // Nearly always all three sensors lie inside the field, where wrap() returns each coordinate as it
  // is: one test of the six skips the six wraps' branches. A coordinate below n truncates to at
  // most n - 1, so cell_of's clamp has nothing to do either. The same cells either way.
  auto inside = below(ux[0], fw) & below(uy[0], fh);
  for (int k = 1; k < 3; ++k) inside = inside & below(ux[k], fw) & below(uy[k], fh);
  I cell[3];
  if (every(inside)) {
    for (int k = 0; k < 3; ++k) cell[k] = trunc_int(uy[k]) * I(p.width) + trunc_int(ux[k]);
    return {cell[0], cell[1], cell[2]};
  }
  const F iw(p.inv_width);
  const F ih(p.inv_height);
  for (int k = 0; k < 3; ++k) {
    if constexpr (Closed) {
      const auto in_field = (ux[k] >= F(0.0f)) & (ux[k] < fw) & (uy[k] >= F(0.0f)) & (uy[k] < fh);
      if (every(!in_field)) {  // no lane needs the wraps
        cell[k] = I(-1);
        continue;
      }
      cell[k] = select(in_field, cell_at(wrap(ux[k], fw, iw), wrap(uy[k], fh, ih), p.width, p.height), I(-1));
    } else {
      cell[k] = cell_at(wrap(ux[k], fw, iw), wrap(uy[k], fh, ih), p.width, p.height);
    }
  }
  return {cell[0], cell[1], cell[2]};
}

// 2. Steer: the new heading from the three readings, kept in [0, 2pi) so precision does not drain
// away over long runs. Selects rather than branches where agents (lanes) disagree; the rule and
// jitter tests are the same for every agent.
template <class F>
PHYS_HD F steer(F theta, F fc, F fl, F fr, UintOf<F> id, uint32_t step, const StepParams& p) {
  using U = UintOf<F>;
  // Simple: left if Fl beats both others, right if Fr does (never both).
  auto left = (fl > fc) & (fl > fr);
  auto right = (fr > fc) & (fr > fl);
  if (p.turn_rule == kTurnJones) {
    // Straight on a peak; in a valley a random side; else towards the larger side (none on a tie).
    const auto valley_left = (hash_lanes(p.seed, id, step, kStreamTurn) >> 31) != U(0U);
    const auto peak = (fc > fl) & (fc > fr);
    const auto valley = (fc < fl) & (fc < fr);
    left = (!peak) & select(valley, valley_left, fl > fr);
    right = (!peak) & select(valley, !valley_left, fr > fl);
  }
  const F rotation(p.rotation);
  F t = select(left, add(theta, rotation), select(right, sub(theta, rotation), theta));
  if (p.jitter != 0.0f) {
    const F u = unit_lanes(hash_lanes(p.seed, id, step, kStreamJitter));
    t = add(t, mul(F(p.jitter), sub(u, F(0.5f))));
  }
  return wrap(t, F(kTwoPi), F(kInvTwoPi));
}

// 3. Move (x, y) along the new heading and return the cell to deposit into.
template <class F>
PHYS_HD IntOf<F> move_to(F& x, F& y, F theta, const StepParams& p) {
  const SinCosOf<F> m = sin_cos(theta);
  const F fw(p.fwidth);
  const F fh(p.fheight);
  F nx = add(x, mul(F(p.step_size), m.c));
  F ny = add(y, mul(F(p.step_size), m.s));
  if (!every(below(nx, fw) & below(ny, fh))) {  // one test for both, as in sensor_cells_of
    nx = wrap(nx, fw, F(p.inv_width));
    ny = wrap(ny, fh, F(p.inv_height));
  }
  x = nx;
  y = ny;
  return cell_at(nx, ny, p.width, p.height);
}

// The stages for one agent.
template <bool Closed = false>
PHYS_HD SensorCells sensor_cells(const Agent& a, const StepParams& p) {
  return sensor_cells_of<Closed>(a.x, a.y, a.theta, p);
}
PHYS_HD int move(Agent& a, float theta, const StepParams& p) {
  a.theta = theta;
  return move_to(a.x, a.y, theta, p);
}

// The whole step of one agent, in place; returns the cell it deposits into. `field_at(cell)` reads
// the field as it was before this step; `step` is the index of the step being taken (0 first).
template <class FieldRead>
PHYS_HD int step_agent(Agent& a, uint32_t id, uint32_t step, const StepParams& p, FieldRead&& field_at) {
  const SensorCells s = sensor_cells(a, p);
  const float theta = steer(a.theta, field_at(s.centre), field_at(s.left), field_at(s.right), id, step, p);
  return move(a, theta, p);
}

// --- Field update. G = F + C * deposit for each cell; the 3x3 sum adds row sums top to bottom,
// each row left to right: ((g00 + g01) + g02) per row, then (row0 + row1) + row2.
PHYS_HD float deposited(float f, uint32_t count, float deposit) {
  return add(f, mul(static_cast<float>(count), deposit));
}
PHYS_HD float row_sum(float left, float centre, float right) {
  return add(add(left, centre), right);
}
PHYS_HD float sum9(float row_above, float row_centre, float row_below) {
  return add(add(row_above, row_centre), row_below);
}
PHYS_HD float field_update(float g_centre, float sum9_of_g, const StepParams& p) {
  return mul(p.keep, add(mul(p.self_w, g_centre), mul(p.neighbour_w, sum9_of_g)));
}
// The sensing field at a detail K > 1 (docs/MODEL.md, "Scale"): the mean of channel c over the K x K
// block whose top-left cell is (x0, y0), summed row by row, each row left to right, from 0, then
// times inv_k2 = 1 / K^2 as a float. `stride` floats per cell, `width` cells per row.
PHYS_HD float block_mean(const float* f, int64_t width, int64_t x0, int64_t y0, int k, int stride, int c,
                         float inv_k2) {
  float sum = 0.0f;
  for (int64_t y = y0; y < y0 + k; ++y)
    for (int64_t x = x0; x < x0 + k; ++x) sum = add(sum, f[(y * width + x) * stride + c]);
  return mul(sum, inv_k2);
}
// One cell of the new field from its G and the row sums of G above, at and below it: what every
// stencil (the CPU's rolling rows, the GPU's register strips) computes per cell.
PHYS_HD float stencil_cell(float g_centre, float rs_above, float rs_centre, float rs_below,
                           const StepParams& p) {
  return field_update(g_centre, sum9(rs_above, rs_centre, rs_below), p);
}

// --- Brush: cells whose integer offset (dx, dy) from the centre cell has dx^2 + dy^2 <= r^2 get
// max(0, F + amount). Negative amounts erase.
PHYS_HD bool brush_covers(int dx, int dy, float radius) {
  return static_cast<float>(dx * dx + dy * dy) <= mul(radius, radius);
}
PHYS_HD float brush_apply(float f, float amount) {
  const float v = add(f, amount);
  return v > 0.0f ? v : 0.0f;
}

// --- Environment (docs/MODEL.md, "Environment"): walls (one byte a cell, non-zero = wall) and food.
// What a sensor over a wall (or, in a closed box, outside the field) reads: lower than any trail,
// also after a negative weight of the interaction matrix (it replaces the sensed value).
constexpr float kWallReading = -3.40282347e38f;  // -FLT_MAX
// A sensor cell that can be loaded (cell -1, outside a closed box, loads cell 0 and is then replaced).
PHYS_HD int loadable(int cell) {
  return cell < 0 ? 0 : cell;
}
PHYS_HD float wall_or(float sensed_value, int cell, const uint8_t* walls) {
  return (cell < 0 || walls[cell] != 0) ? kWallReading : sensed_value;
}
// Move with walls: a move that would land in a wall (or, Closed, leave the field) is blocked: the
// agent stays and turns by +-rotation, the sign from stream 6. Returns the cell it stands in.
template <bool Closed>
PHYS_HD int move_walled(Agent& a, float theta, uint32_t id, uint32_t step, const StepParams& p,
                        const uint8_t* walls) {
  const SinCos m = sin_cos(theta);
  const float ux = add(a.x, mul(p.step_size, m.c));
  const float uy = add(a.y, mul(p.step_size, m.s));
  const float nx = wrap(ux, p.fwidth, p.inv_width);
  const float ny = wrap(uy, p.fheight, p.inv_height);
  const int cell = cell_of(ny, p.height) * p.width + cell_of(nx, p.width);
  bool blocked = walls[cell] != 0;
  if constexpr (Closed)
    blocked = blocked || !((ux >= 0.0f) & (ux < p.fwidth) & (uy >= 0.0f) & (uy < p.fheight));
  if (!blocked) {
    a.x = nx;
    a.y = ny;
    a.theta = theta;
    return cell;
  }
  const bool left = (hash(p.seed, id, step, kStreamWallTurn) >> 31) != 0U;
  a.theta = wrap(left ? add(theta, p.rotation) : sub(theta, p.rotation), kTwoPi, kInvTwoPi);
  return cell_of(a.y, p.height) * p.width + cell_of(a.x, p.width);
}
// Emission of a food cell (E > 0, not a wall) into one channel: F + k * E.
PHYS_HD float emit(float f, float strength, float food) {
  return add(f, mul(strength, food));
}

// --- Several species (docs/MODEL.md, "Several species"). Channels are interleaved: channel c of cell i is at
// i * S + c. Each species has its own StepParams (its steering and its channel's update).
constexpr int kMaxSpecies = 4;
struct SpeciesParams {
  int count;                          // S, 1..kMaxSpecies
  uint32_t end[kMaxSpecies];          // ids [end[s-1], end[s]) are species s; end[S-1] = N
  float w[kMaxSpecies][kMaxSpecies];  // interaction matrix, w[s][t] for s, t < S
  StepParams p[kMaxSpecies];
  int blur_passes;  // field updates a step: 1, more at a detail K > 1 (docs/MODEL.md, "Scale")
};

// The species of an agent: a pure function of its id (S - 1 comparisons, no branches).
template <int S>
PHYS_HD int species_of(uint32_t id, const SpeciesParams& sp) {
  int s = 0;
  for (int k = 0; k < S - 1; ++k) s += id >= sp.end[k] ? 1 : 0;
  return s;
}

// What species s senses at a cell whose S channels start at `f`: W[s][0] * F_0 first, then each
// next term added in order, every operation correctly rounded. With S = 1 and W = [[1]] it is F_0.
template <int S>
PHYS_HD float sensed(const float* f, const float* w_row) {
  float v = mul(w_row[0], f[0]);
  for (int t = 1; t < S; ++t) v = add(v, mul(w_row[t], f[t]));
  return v;
}

// One agent of species `s` steps through the interleaved field; returns the cell it deposits into
// (the caller adds 1 to count channel s of that cell).
template <int S>
PHYS_HD int step_species_agent(Agent& a, uint32_t id, int s, uint32_t step, const SpeciesParams& sp,
                               const float* field) {
  const StepParams& p = sp.p[s];
  const SensorCells c = sensor_cells(a, p);
  const float* w = sp.w[s];
  const float theta = steer(a.theta, sensed<S>(field + c.centre * S, w), sensed<S>(field + c.left * S, w),
                            sensed<S>(field + c.right * S, w), id, step, p);
  return move(a, theta, p);
}

// The same with walls (docs/MODEL.md, "Environment"): a wall sensor reads kWallReading, a blocked
// move stays and turns. Both backends take this path whenever the run has walls or a closed box.
template <int S, bool Closed>
PHYS_HD int step_species_agent_walled(Agent& a, uint32_t id, int s, uint32_t step, const SpeciesParams& sp,
                                      const float* field, const uint8_t* walls) {
  const StepParams& p = sp.p[s];
  const SensorCells c = sensor_cells<Closed>(a, p);
  const float* w = sp.w[s];
  const float vc = wall_or(sensed<S>(field + loadable(c.centre) * S, w), c.centre, walls);
  const float vl = wall_or(sensed<S>(field + loadable(c.left) * S, w), c.left, walls);
  const float vr = wall_or(sensed<S>(field + loadable(c.right) * S, w), c.right, walls);
  const float theta = steer(a.theta, vc, vl, vr, id, step, p);
  return move_walled<Closed>(a, theta, id, step, p, walls);
}

}  // namespace physarum::rule
