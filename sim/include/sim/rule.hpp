// The model's arithmetic, in one place, compiled by both g++ and nvcc.
//
// Every backend calls these functions and nothing else for the model's floating-point work, so
// results are bit-identical across backends and thread counts. Each operation is an explicit,
// correctly rounded IEEE-754 single-precision add/sub/mul (no FMA contraction, no reassociation);
// sin/cos are our own polynomial because the libraries' sinf differ between CPU and GPU; random
// numbers come from a counter-based hash of (seed, agent id, step, stream).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define PHYS_HD __host__ __device__ __forceinline__
#else
#define PHYS_HD inline
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
PHYS_HD float floor_f(float v) {
#if defined(__CUDA_ARCH__)
  return floorf(v);
#else
  return __builtin_floorf(v);
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
  // headings would mispredict them); negation is exact.
  const int k = static_cast<int>(q) & 3;
  const float sign = (k & 2) ? -1.0f : 1.0f;
  const float sin_a = (k & 1) ? c : s;
  const float cos_a = (k & 1) ? -s : c;
  return {mul(sign, sin_a), mul(sign, cos_a)};
}

// --- Wrapping. v into [0, n); inv_n is 1/n rounded to float (computed once, on the host).
// floor(v * inv_n) may be off by one near a boundary; the two corrections fix that, and the
// last guard catches v + n rounding up to n for a tiny negative v.
PHYS_HD float wrap(float v, float n, float inv_n) {
  // Fast path, the same value the general formula gives for v already in [0, n).
  if (v >= 0.0f && v < n) return v;
  float r = sub(v, mul(floor_f(mul(v, inv_n)), n));
  if (r < 0.0f) r = add(r, n);
  if (r >= n) r = sub(r, n);
  if (r >= n || r < 0.0f) r = 0.0f;
  return r;
}
// The cell that holds a wrapped coordinate (clamped: a float in [0, n) truncates to [0, n-1]).
PHYS_HD int cell_of(float wrapped, int n) {
  const int i = static_cast<int>(wrapped);
  return i < n ? i : n - 1;
}
// Integer wrap for neighbour indices.
PHYS_HD int wrap_index(int i, int n) { return i < 0 ? i + n : (i >= n ? i - n : i); }

// --- Counter-based random numbers: a 32-bit integer finaliser applied three times.
enum Stream : uint32_t { kStreamTurn = 1, kStreamJitter = 2, kStreamSpawnA = 3, kStreamSpawnB = 4, kStreamSpawnC = 5 };
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
PHYS_HD float unit(uint32_t h) { return static_cast<float>(h >> 8) * (1.0f / 16777216.0f); }

// --- Everything a step needs, derived from the parameters once on the host (make_step_params).
enum TurnRuleCode : int { kTurnSimple = 0, kTurnJones = 1 };
struct StepParams {
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
  float keep;        // 1 - decay
  float self_w;      // 1 - diffuse
  float neighbour_w; // diffuse / 9 (applied to the 3x3 sum)
};

struct Agent {
  float x;
  float y;
  float theta;
};

// Steps one agent in place and returns the cell it deposits into. `field` is read-only here;
// `step` is the index of the step being taken (0 for the first).
template <class FieldRead>
PHYS_HD int step_agent(Agent& a, uint32_t id, uint32_t step, const StepParams& p, FieldRead&& field_at) {
  // 1. Sense: one sin/cos of the heading, the side sensors by rotation through +-SA.
  const SinCos h = sin_cos(a.theta);
  const float cl = sub(mul(h.c, p.cos_sa), mul(h.s, p.sin_sa));
  const float sl = add(mul(h.s, p.cos_sa), mul(h.c, p.sin_sa));
  const float cr = add(mul(h.c, p.cos_sa), mul(h.s, p.sin_sa));
  const float sr = sub(mul(h.s, p.cos_sa), mul(h.c, p.sin_sa));
  const float d = p.sensor_distance;
  auto sense = [&](float dc, float ds) {
    const float sx = wrap(add(a.x, mul(d, dc)), p.fwidth, p.inv_width);
    const float sy = wrap(add(a.y, mul(d, ds)), p.fheight, p.inv_height);
    return field_at(cell_of(sy, p.height) * p.width + cell_of(sx, p.width));
  };
  const float fc = sense(h.c, h.s);
  const float fl = sense(cl, sl);
  const float fr = sense(cr, sr);

  // 2. Steer.
  float theta = a.theta;
  if (p.turn_rule == kTurnSimple) {
    if (fl > fc && fl > fr) {
      theta = add(theta, p.rotation);
    } else if (fr > fc && fr > fl) {
      theta = sub(theta, p.rotation);
    }
  } else {
    if (fc > fl && fc > fr) {
      // keep
    } else if (fc < fl && fc < fr) {
      const bool left = (hash(p.seed, id, step, kStreamTurn) >> 31) != 0U;
      theta = left ? add(theta, p.rotation) : sub(theta, p.rotation);
    } else if (fl > fr) {
      theta = add(theta, p.rotation);
    } else if (fr > fl) {
      theta = sub(theta, p.rotation);
    }
  }
  if (p.jitter != 0.0f) {
    const float u = unit(hash(p.seed, id, step, kStreamJitter));
    theta = add(theta, mul(p.jitter, sub(u, 0.5f)));
  }
  // Keep the heading in [0, 2pi) so precision does not drain away over long runs.
  theta = wrap(theta, kTwoPi, kInvTwoPi);

  // 3. Move.
  const SinCos m = sin_cos(theta);
  a.x = wrap(add(a.x, mul(p.step_size, m.c)), p.fwidth, p.inv_width);
  a.y = wrap(add(a.y, mul(p.step_size, m.s)), p.fheight, p.inv_height);
  a.theta = theta;

  // 4. Deposit cell.
  return cell_of(a.y, p.height) * p.width + cell_of(a.x, p.width);
}

// --- Field update. G = F + C * deposit for each cell; the 3x3 sum adds row sums top to bottom,
// each row left to right: ((g00 + g01) + g02) per row, then (row0 + row1) + row2.
PHYS_HD float deposited(float f, uint32_t count, float deposit) {
  return add(f, mul(static_cast<float>(count), deposit));
}
PHYS_HD float row_sum(float left, float centre, float right) { return add(add(left, centre), right); }
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

}  // namespace physarum::rule
