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

// --- Correctly rounded operations. On the device the _rn intrinsics forbid FMA contraction even if
// the file is compiled with -fmad=true; on the host -ffp-contract=off does the same.
PHYS_HD float add(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
PHYS_HD float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
PHYS_HD float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
// floor for |v| < 2^31 (every argument here is a bounded coordinate or angle). On the host it is
// written with a truncating conversion so the agent loop vectorises without SSE4.1; both forms are
// exact, so they agree bit for bit.
PHYS_HD float floor_f(float v) {
#if defined(__CUDA_ARCH__)
  return floorf(v);
#else
  const float t = static_cast<float>(static_cast<int>(v));
  return t > v ? t - 1.0f : t;
#endif
}

constexpr float kPi = 3.14159265358979323846f;
constexpr float kTwoPi = 6.28318530717958647692f;
constexpr float kInvTwoPi = 0.15915494309189533577f;

// --- sin and cos. Reduce a by multiples of pi/2 (two-part Cody-Waite: the high part has 8
// significant bits, so q * hi is exact for the small q we see), then Taylor polynomials on
// [-pi/4, pi/4] (truncation error < 3e-9). Absolute error of the whole is ~1e-7 for |a| < 100.
struct SinCos {
  float s;
  float c;
};
PHYS_HD SinCos sin_cos(float a) {
  const float q = floor_f(add(mul(a, 0.63661977236758134308f), 0.5f));
  const float r = sub(sub(a, mul(q, 1.5703125f)), mul(q, 4.8382679489661923e-4f));
  const float r2 = mul(r, r);
  float ps = add(mul(r2, 2.7557319e-6f), -1.9841270e-4f);
  ps = add(mul(r2, ps), 8.3333333e-3f);
  ps = add(mul(r2, ps), -1.6666667e-1f);
  const float s = add(r, mul(mul(r, r2), ps));
  float pc = add(mul(r2, -2.7557319e-7f), 2.4801587e-5f);
  pc = add(mul(r2, pc), -1.3888889e-3f);
  pc = add(mul(r2, pc), 4.1666667e-2f);
  pc = add(mul(r2, pc), -0.5f);
  const float c = add(1.0f, mul(r2, pc));
  // Quadrant k = q mod 4: (s, c), (c, -s), (-s, -c), (-c, s). Selected without branches (random
  // headings would mispredict them); negation is exact (on the GPU a select with a negated operand).
  const int k = static_cast<int>(q) & 3;
  const float sin_a = (k & 1) ? c : s;
  const float cos_a = (k & 1) ? -s : c;
  return {(k & 2) ? -sin_a : sin_a, (k & 2) ? -cos_a : cos_a};
}

// --- Wrapping. `below(v, n)` for n > 0: +0 <= v < n, in one unsigned comparison of the float bits
// (non-negative floats order like their bits; -0, negative values and NaN have larger ones). It is
// false for -0, where `v >= 0 && v < n` is true: callers that use it as a shortcut fall back on wrap().
PHYS_HD uint32_t float_bits(float v) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(v);
#else
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
#endif
}
PHYS_HD bool below(float v, float n) {
  return float_bits(v) < float_bits(n);
}

// v into [0, n); inv_n is 1/n rounded to float (computed once, on the host).
// floor(v * inv_n) may be off by one near a boundary; the two corrections fix that, and the
// last guard catches v + n rounding up to n for a tiny negative v.
PHYS_HD float wrap(float v, float n, float inv_n) {
  // Almost every value is already inside: return it (the formula below would give v back too).
  // The branch is taken the same way by nearly all agents, so it costs neither CPU nor GPU much.
  if (v >= 0.0f && v < n) return v;
  float r = sub(v, mul(floor_f(mul(v, inv_n)), n));
  r = r < 0.0f ? add(r, n) : r;
  r = r >= n ? sub(r, n) : r;
  return (r >= n || r < 0.0f) ? 0.0f : r;
}
// The cell that holds a wrapped coordinate (clamped: a float in [0, n) truncates to [0, n-1]).
PHYS_HD int cell_of(float wrapped, int n) {
  const int i = static_cast<int>(wrapped);
#if defined(__CUDA_ARCH__)
  return min(i, n - 1);  // one instruction where the select takes two
#else
  return i < n ? i : n - 1;
#endif
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
  kStreamWallTurn = 6  // the turn of an agent whose move a wall blocks (docs/MODEL.md, "Environment")
};
PHYS_HD uint32_t mix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352dU;
  h ^= h >> 15;
  h *= 0x846ca68bU;
  h ^= h >> 16;
  return h;
}
PHYS_HD uint32_t hash(uint32_t seed, uint32_t id, uint32_t step, uint32_t stream) {
  uint32_t h = mix32(seed + 0x9e3779b9U * stream);
  h = mix32(h ^ id);
  return mix32(h ^ (step * 0x85ebca6bU + 0x632be5abU));
}
// Uniform in [0, 1) with 24 random bits (exact in float).
PHYS_HD float unit(uint32_t h) {
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

// --- Everything a step needs, derived from the parameters once on the host (make_step_params).
enum TurnRuleCode : int { kTurnSimple = 0, kTurnJones = 1 };
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

struct Agent {
  float x;
  float y;
  float theta;
};

// One agent's step in three stages. step_agent() chains them; a backend may also run each stage
// over a block of agents (the CPU backend does, so the field reads of many agents overlap).

// 1. Sense: the cells under the centre, left (+SA) and right (-SA) sensors. One sin/cos of the
// heading; the side directions come from rotating it through +-SA.
struct SensorCells {
  int centre;
  int left;
  int right;
};
// Closed (boundary = walls): a sensor whose unwrapped position lies outside the field is cell -1,
// which reads as wall. Closed = false is today's sensor, operation for operation.
template <bool Closed = false>
PHYS_HD SensorCells sensor_cells(const Agent& a, const StepParams& p) {
  const SinCos h = sin_cos(a.theta);
  const float cl = sub(mul(h.c, p.cos_sa), mul(h.s, p.sin_sa));
  const float sl = add(mul(h.s, p.cos_sa), mul(h.c, p.sin_sa));
  const float cr = add(mul(h.c, p.cos_sa), mul(h.s, p.sin_sa));
  const float sr = sub(mul(h.s, p.cos_sa), mul(h.c, p.sin_sa));
  const float d = p.sensor_distance;
#if defined(__CUDA_ARCH__)
  {
    // Nearly always all three sensors lie inside the field, where wrap() returns each coordinate
    // as it is: the GPU tests the six at once and skips the six wraps' branches. (The CPU keeps the
    // plain form below, which its compiler vectorises.) The same cells either way.
    const float ux[3] = {add(a.x, mul(d, h.c)), add(a.x, mul(d, cl)), add(a.x, mul(d, cr))};
    const float uy[3] = {add(a.y, mul(d, h.s)), add(a.y, mul(d, sl)), add(a.y, mul(d, sr))};
    bool inside = true;
    for (int k = 0; k < 3; ++k) inside = inside & below(ux[k], p.fwidth) & below(uy[k], p.fheight);
    if (inside) {
      // A coordinate below n truncates to at most n - 1: cell_of's clamp has nothing to do.
      int cell[3];
      for (int k = 0; k < 3; ++k) cell[k] = static_cast<int>(uy[k]) * p.width + static_cast<int>(ux[k]);
      return {cell[0], cell[1], cell[2]};
    }
  }
#endif
  const auto cell = [&](float dc, float ds) {
    const float ux = add(a.x, mul(d, dc));
    const float uy = add(a.y, mul(d, ds));
    if constexpr (Closed) {
      if (!((ux >= 0.0f) & (ux < p.fwidth) & (uy >= 0.0f) & (uy < p.fheight))) return -1;
    }
    const float sx = wrap(ux, p.fwidth, p.inv_width);
    const float sy = wrap(uy, p.fheight, p.inv_height);
    return cell_of(sy, p.height) * p.width + cell_of(sx, p.width);
  };
  return {cell(h.c, h.s), cell(cl, sl), cell(cr, sr)};
}

// 2. Steer: the new heading from the three readings, kept in [0, 2pi) so precision does not drain
// away over long runs. Selects rather than branches where agents of one warp disagree; the rule
// and jitter tests are the same for every agent.
PHYS_HD float steer(float theta, float fc, float fl, float fr, uint32_t id, uint32_t step,
                    const StepParams& p) {
  // Simple: left if Fl beats both others, right if Fr does (never both).
  bool left = (fl > fc) & (fl > fr);
  bool right = (fr > fc) & (fr > fl);
  if (p.turn_rule == kTurnJones) {
    // Straight on a peak; in a valley a random side; else towards the larger side (none on a tie).
    const bool valley_left = (hash(p.seed, id, step, kStreamTurn) >> 31) != 0U;
    const bool peak = (fc > fl) & (fc > fr);
    const bool valley = (fc < fl) & (fc < fr);
    left = !peak & (valley ? valley_left : fl > fr);
    right = !peak & (valley ? !valley_left : fr > fl);
  }
  float t = left ? add(theta, p.rotation) : (right ? sub(theta, p.rotation) : theta);
  if (p.jitter != 0.0f) {
    const float u = unit(hash(p.seed, id, step, kStreamJitter));
    t = add(t, mul(p.jitter, sub(u, 0.5f)));
  }
  return wrap(t, kTwoPi, kInvTwoPi);
}

// 3. Move along the new heading and return the cell to deposit into.
PHYS_HD int move(Agent& a, float theta, const StepParams& p) {
  const SinCos m = sin_cos(theta);
  float x = add(a.x, mul(p.step_size, m.c));
  float y = add(a.y, mul(p.step_size, m.s));
  if (!(below(x, p.fwidth) & below(y, p.fheight))) {  // one test for both, as in sensor_cells
    x = wrap(x, p.fwidth, p.inv_width);
    y = wrap(y, p.fheight, p.inv_height);
  }
  a.x = x;
  a.y = y;
  a.theta = theta;
  return cell_of(a.y, p.height) * p.width + cell_of(a.x, p.width);
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
