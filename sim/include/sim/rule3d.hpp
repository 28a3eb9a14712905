// The volume model's arithmetic (docs/MODEL.md, "Volume"), in one place for every backend, built on
// rule.hpp's correctly rounded operations, sin_cos, wrap and hash: an agent in a W x H x D torus of
// voxels with a heading on the unit sphere, Jones's rule with a forward sensor and a ring of K on a
// cone, walls and the closed box, several species through the interaction matrix, and the
// 3 x 3 x 3 field update.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "sim/rule.hpp"

namespace physarum::rule3 {

using rule::add;
using rule::mul;
using rule::sub;

#if defined(__CUDA_ARCH__)
PHYS_HD float div_rn(float a, float b) {
  return __fdiv_rn(a, b);
}
PHYS_HD float sqrt_rn(float a) {
  return __fsqrt_rn(a);
}
#else
PHYS_HD float div_rn(float a, float b) {
  return a / b;
}
PHYS_HD float sqrt_rn(float a) {
  return std::sqrt(a);
}
#endif

struct Vec3 {
  float x;
  float y;
  float z;
};
PHYS_HD Vec3 scaled(Vec3 a, float s) {
  return {mul(a.x, s), mul(a.y, s), mul(a.z, s)};
}
PHYS_HD Vec3 plus(Vec3 a, Vec3 b) {
  return {add(a.x, b.x), add(a.y, b.y), add(a.z, b.z)};
}
PHYS_HD float dot(Vec3 a, Vec3 b) {
  return add(add(mul(a.x, b.x), mul(a.y, b.y)), mul(a.z, b.z));
}
PHYS_HD Vec3 cross(Vec3 a, Vec3 b) {
  return {sub(mul(a.y, b.z), mul(a.z, b.y)), sub(mul(a.z, b.x), mul(a.x, b.z)),
          sub(mul(a.x, b.y), mul(a.y, b.x))};
}
// a / |a|: one square root and one division, each correctly rounded, then three products.
PHYS_HD Vec3 normalized(Vec3 a) {
  return scaled(a, div_rn(1.0f, sqrt_rn(dot(a, a))));
}

// An agent: its position in [0, W) x [0, H) x [0, D) and its heading, a unit vector.
struct Agent3 {
  float x;
  float y;
  float z;
  Vec3 h;
};

// Everything a step needs, derived from the parameters once on the host (make_params3).
struct alignas(16) Params3 {
  int width;
  int height;
  int depth;
  int ring;  // K, the sensors on the cone
  int rule;  // rule::TurnRuleCode: simple, jones or mcpm
  float fwidth;
  float fheight;
  float fdepth;
  float inv_width;
  float inv_height;
  float inv_depth;
  float inv_ring;  // 1 / K
  float sensor_distance;
  float cos_sa;  // of the sensor angle (the cone's half-angle), from rule::sin_cos
  float sin_sa;
  float cos_ra;  // of the rotation angle
  float sin_ra;
  float step_size;
  uint32_t seed;
  float deposit;
  float keep;         // 1 - decay
  float self_w;       // 1 - diffuse
  float neighbour_w;  // diffuse / 27 (applied to the 3 x 3 x 3 sum)
  float sharpness;    // MCPM's exponent S
  float trace_keep;   // 1 - trace_decay
};

// What a volume step needs (rule::step_needs for a plane): random numbers under every rule (the
// ring rules turn their ring at random each step, MCPM draws its direction, turn and distance), so
// always the agents' ids; a trace where its rule keeps one.
PHYS_HD constexpr rule::StepNeeds step3_needs(const Params3& p) {
  return {true, true, rule::turn_rule_needs(p.rule).trace};
}

// MCPM's trace of a voxel after a step: T' = trace keep (T + C deposit), C the deposits this step
// counted there (docs/MODEL.md, "MCPM").
PHYS_HD float trace_update(float trace, uint32_t count, const Params3& p) {
  return mul(p.trace_keep, rule::deposited(trace, count, p.deposit));
}

// The voxel of a wrapped position: (z * H + y) * W + x.
PHYS_HD int voxel_at(float x, float y, float z, const Params3& p) {
  return (rule::cell_of(z, p.depth) * p.height + rule::cell_of(y, p.height)) * p.width +
         rule::cell_of(x, p.width);
}

// Whether an unwrapped position lies inside the volume (a closed box's test; the torus wraps it).
PHYS_HD bool inside3(float x, float y, float z, const Params3& p) {
  return (x >= 0.0f) & (x < p.fwidth) & (y >= 0.0f) & (y < p.fheight) & (z >= 0.0f) & (z < p.fdepth);
}

// The voxel `distance` along `dir` from the agent, on the torus. Closed (a closed box): -1 when the
// unwrapped position lies outside the volume on any axis, which reads as wall.
template <bool Closed = false>
PHYS_HD int voxel_along(const Agent3& a, Vec3 dir, float distance, const Params3& p) {
  const float ux = add(a.x, mul(distance, dir.x));
  const float uy = add(a.y, mul(distance, dir.y));
  const float uz = add(a.z, mul(distance, dir.z));
  if constexpr (Closed) {
    if (!inside3(ux, uy, uz, p)) return -1;
  }
  return voxel_at(rule::wrap(ux, p.fwidth, p.inv_width), rule::wrap(uy, p.fheight, p.inv_height),
                  rule::wrap(uz, p.fdepth, p.inv_depth), p);
}

// Two unit vectors across the heading: e1 = normalized(h x a), where a is the coordinate axis the
// heading leans on least (x, then y, then z on ties), and e2 = h x e1.
struct Frame {
  Vec3 e1;
  Vec3 e2;
};
PHYS_HD float magnitude(float v) {
  return v < 0.0f ? -v : v;
}
PHYS_HD Frame frame_of(Vec3 h) {
  const float ax = magnitude(h.x);
  const float ay = magnitude(h.y);
  const float az = magnitude(h.z);
  const Vec3 axis = (ax <= ay && ax <= az) ? Vec3{1.0f, 0.0f, 0.0f}
                    : (ay <= az)           ? Vec3{0.0f, 1.0f, 0.0f}
                                           : Vec3{0.0f, 0.0f, 1.0f};
  const Vec3 e1 = normalized(cross(h, axis));
  return {e1, cross(h, e1)};
}

// Ring sensor k's direction across the heading: cos(phi) e1 + sin(phi) e2 with
// phi = 2 pi (k + u) / K, u the step's turn of the ring in [0, 1).
PHYS_HD Vec3 across(const Frame& f, int k, float u, const Params3& p) {
  const float phi = mul(rule::kTwoPi, mul(add(static_cast<float>(k), u), p.inv_ring));
  const rule::SinCos sc = rule::sin_cos(phi);
  return plus(scaled(f.e1, sc.c), scaled(f.e2, sc.s));
}

// Jones's rule in three dimensions: the heading after sensing, before the move. `f` is the frame
// of a.h and `u` the step's turn of the ring; `field_at(voxel)` reads the field as it was before
// this step (Closed: voxel -1 is outside the box).
//   forward F at distance SO along h; ring R_k along cos(SA) h + sin(SA) w_k (w_k = across(k));
//   jones only, F below every R_k: turn toward R_r, r drawn from the turn stream; else some R_k above F: turn
//   toward the largest (the first k of equals); else keep the heading. Turning toward w by RA:
//   h' = normalized(cos(RA) h + sin(RA) w).
template <bool Closed, class FieldRead>
PHYS_HD Vec3 steer3(const Agent3& a, const Frame& f, float u, uint32_t id, uint32_t step, const Params3& p,
                    FieldRead&& field_at) {
  const float forward = field_at(voxel_along<Closed>(a, a.h, p.sensor_distance, p));
  float best = 0.0f;
  float least = 0.0f;
  int best_k = 0;
  for (int k = 0; k < p.ring; ++k) {
    const Vec3 dir = plus(scaled(a.h, p.cos_sa), scaled(across(f, k, u, p), p.sin_sa));
    const float v = field_at(voxel_along<Closed>(a, dir, p.sensor_distance, p));
    if (k == 0 || v > best) {
      best = v;
      best_k = k;
    }
    if (k == 0 || v < least) least = v;
  }
  int toward = -1;
  if (p.rule == rule::kTurnJones && forward < least) {
    toward =
        static_cast<int>(rule::hash(p.seed, id, step, rule::kStreamTurn) % static_cast<uint32_t>(p.ring));
  } else if (best > forward) {
    toward = best_k;
  }
  if (toward < 0) return a.h;
  return normalized(plus(scaled(a.h, p.cos_ra), scaled(across(f, toward, u, p), p.sin_ra)));
}

// Move `distance` along the heading, each coordinate wrapped; returns the voxel the agent lands in.
PHYS_HD int move_by3(Agent3& a, float distance, const Params3& p) {
  a.x = rule::wrap(add(a.x, mul(distance, a.h.x)), p.fwidth, p.inv_width);
  a.y = rule::wrap(add(a.y, mul(distance, a.h.y)), p.fheight, p.inv_height);
  a.z = rule::wrap(add(a.z, mul(distance, a.h.z)), p.fdepth, p.inv_depth);
  return voxel_at(a.x, a.y, a.z, p);
}
// Move SS along the heading.
PHYS_HD int move3(Agent3& a, const Params3& p) {
  return move_by3(a, p.step_size, p);
}

// One agent's step, Jones's rule in three dimensions; returns the voxel it deposits into.
template <class FieldRead>
PHYS_HD int step_agent3(Agent3& a, uint32_t id, uint32_t step, const Params3& p, FieldRead&& field_at) {
  const Frame f = frame_of(a.h);
  const float u = rule::unit(rule::hash(p.seed, id, step, rule::kStreamRing));
  a.h = steer3<false>(a, f, u, id, step, p, field_at);
  return move3(a, p);
}

// A spawned agent: uniform in the volume, its heading uniform on the sphere (z = 2 v - 1,
// azimuth 2 pi w, then normalized).
PHYS_HD Agent3 spawn_agent3(uint32_t id, uint32_t seed, const Params3& p) {
  using rule::hash;
  using rule::unit;
  const float x = mul(unit(hash(seed, id, 0, rule::kStreamSpawnA)), p.fwidth);
  const float y = mul(unit(hash(seed, id, 0, rule::kStreamSpawnB)), p.fheight);
  const float z = mul(unit(hash(seed, id, 0, rule::kStreamSpawnC)), p.fdepth);
  const float hz = sub(mul(2.0f, unit(hash(seed, id, 0, rule::kStreamSpawnD))), 1.0f);
  const rule::SinCos az = rule::sin_cos(mul(rule::kTwoPi, unit(hash(seed, id, 0, rule::kStreamSpawnE))));
  const float r = sqrt_rn(sub(1.0f, mul(hz, hz)));
  const Vec3 h = normalized({mul(r, az.c), mul(r, az.s), hz});
  // A product that rounds up to the side wraps to 0, as a move would.
  return {rule::wrap(x, p.fwidth, p.inv_width), rule::wrap(y, p.fheight, p.inv_height),
          rule::wrap(z, p.fdepth, p.inv_depth), h};
}

// --- Walls (docs/MODEL.md, "Walls and the closed box"): one byte a voxel, non-zero = wall.
// The move `distance` along the heading h' with walls: blocked when the wrapped target's voxel is a wall or,
// Closed, the unwrapped target leaves the box; a blocked agent stays and turns by RA toward a
// direction across h' drawn from the wall-turn stream. Returns the voxel it stands in.
template <bool Closed>
PHYS_HD int move3_walled(Agent3& a, Vec3 h, float distance, uint32_t id, uint32_t step, const Params3& p,
                         const uint8_t* walls) {
  const float ux = add(a.x, mul(distance, h.x));
  const float uy = add(a.y, mul(distance, h.y));
  const float uz = add(a.z, mul(distance, h.z));
  const float nx = rule::wrap(ux, p.fwidth, p.inv_width);
  const float ny = rule::wrap(uy, p.fheight, p.inv_height);
  const float nz = rule::wrap(uz, p.fdepth, p.inv_depth);
  const int v = voxel_at(nx, ny, nz, p);
  bool blocked = walls[v] != 0;
  if constexpr (Closed) blocked = blocked || !inside3(ux, uy, uz, p);
  if (!blocked) {
    a.x = nx;
    a.y = ny;
    a.z = nz;
    a.h = h;
    return v;
  }
  const Frame f = frame_of(h);
  const rule::SinCos sc =
      rule::sin_cos(mul(rule::kTwoPi, rule::unit(rule::hash(p.seed, id, step, rule::kStreamWallTurn))));
  const Vec3 w = plus(scaled(f.e1, sc.c), scaled(f.e2, sc.s));
  a.h = normalized(plus(scaled(h, p.cos_ra), scaled(w, p.sin_ra)));
  return voxel_at(a.x, a.y, a.z, p);
}

// One agent's step with walls: a sensor over a wall (Closed: outside the box) reads
// rule::kWallReading in place of what `field_at` would give, and the move is move3_walled.
template <bool Closed, class FieldRead>
PHYS_HD int step_agent3_walled(Agent3& a, uint32_t id, uint32_t step, const Params3& p, FieldRead&& field_at,
                               const uint8_t* walls) {
  const Frame f = frame_of(a.h);
  const float u = rule::unit(rule::hash(p.seed, id, step, rule::kStreamRing));
  const Vec3 h = steer3<Closed>(a, f, u, id, step, p, [&](int v) {
    return (v < 0 || walls[v] != 0) ? rule::kWallReading : field_at(v);
  });
  return move3_walled<Closed>(a, h, p.step_size, id, step, p, walls);
}

// --- MCPM (docs/MODEL.md, "MCPM"): our own ln and exp, on the correctly rounded operations, since
// the libraries' differ between the CPU and the GPU.

PHYS_HD float float_of_bits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

constexpr float kLn2Hi = 0.693145751953125f;    // 15 significant bits: k * kLn2Hi is exact for |k| < 512
constexpr float kLn2Lo = 1.42860677e-6f;        // ln 2 - kLn2Hi
constexpr float kInvLn2 = 1.44269502f;          // 1 / ln 2
constexpr float kSqrt2 = 1.41421354f;           // sqrt 2
constexpr float kMinNormal = 1.17549435e-38f;   // 2^-126
constexpr float kMaxwellToMean1 = 0.62665707f;  // sqrt(pi / 8), 1 / the mean of chi with 3 degrees

// ln x for a finite x > 0: x = m 2^e with m in (sqrt(1/2), sqrt(2)], ln m = 2 atanh(t),
// t = (m - 1) / (m + 1), by its series to t^11 (|t| < 0.172: the rest is below 1e-9).
PHYS_HD float ln_f(float x) {
  int e = 0;
  if (x < kMinNormal) {
    x = mul(x, 16777216.0f);  // a subnormal's 2^24 times is normal, exactly
    e = -24;
  }
  const uint32_t bits = rule::float_bits(x);
  e += static_cast<int>(bits >> 23) - 127;
  float m = float_of_bits((bits & 0x007fffffU) | 0x3f800000U);
  if (m > kSqrt2) {
    m = mul(m, 0.5f);
    e += 1;
  }
  const float t = div_rn(sub(m, 1.0f), add(m, 1.0f));
  const float t2 = mul(t, t);
  float poly = 1.0f / 11.0f;
  poly = add(mul(poly, t2), 1.0f / 9.0f);
  poly = add(mul(poly, t2), 1.0f / 7.0f);
  poly = add(mul(poly, t2), 1.0f / 5.0f);
  poly = add(mul(poly, t2), 1.0f / 3.0f);
  poly = add(mul(poly, t2), 1.0f);
  const auto fe = static_cast<float>(e);
  return add(mul(fe, kLn2Hi), add(mul(fe, kLn2Lo), mul(mul(2.0f, t), poly)));
}

// e^y, y clamped to [-80, 80] (so 2^k stays normal): y = k ln 2 + r, |r| <= ln 2 / 2, e^r by its
// Taylor polynomial to r^7 (the rest is below 1e-8), then times 2^k made from its bits.
PHYS_HD float exp_f(float y) {
  y = y < -80.0f ? -80.0f : (y > 80.0f ? 80.0f : y);
  const float h = mul(y, kInvLn2);
  const int k = static_cast<int>(y >= 0.0f ? add(h, 0.5f) : sub(h, 0.5f));
  const auto fk = static_cast<float>(k);
  const float r = sub(sub(y, mul(fk, kLn2Hi)), mul(fk, kLn2Lo));
  float poly = 1.0f / 5040.0f;
  poly = add(mul(poly, r), 1.0f / 720.0f);
  poly = add(mul(poly, r), 1.0f / 120.0f);
  poly = add(mul(poly, r), 1.0f / 24.0f);
  poly = add(mul(poly, r), 1.0f / 6.0f);
  poly = add(mul(poly, r), 0.5f);
  poly = add(mul(poly, r), 1.0f);
  poly = add(mul(poly, r), 1.0f);
  return mul(poly, float_of_bits(static_cast<uint32_t>(k + 127) << 23));
}

// The factor of an MCPM agent's sensing distance and move: Maxwell-Boltzmann (chi with 3 degrees of
// freedom: the sum of a chi-squared of 2, -2 ln(1 - u), and a squared Box-Muller normal), scaled to
// mean 1.
PHYS_HD float maxwell_factor(uint32_t id, uint32_t step, uint32_t seed) {
  using rule::hash;
  using rule::unit;
  const float l1 = ln_f(sub(1.0f, unit(hash(seed, id, step, rule::kStreamMcpmDistanceA))));
  const float l2 = ln_f(sub(1.0f, unit(hash(seed, id, step, rule::kStreamMcpmDistanceB))));
  const float c = rule::sin_cos(mul(rule::kTwoPi, unit(hash(seed, id, step, rule::kStreamMcpmDistanceC)))).c;
  return mul(sqrt_rn(mul(-2.0f, add(l1, mul(l2, mul(c, c))))), kMaxwellToMean1);
}

// The probability of turning toward the sensed direction: b^S / (a^S + b^S) for the readings a
// (forward) and b (sensed), each at least 0; with S = 0 every direction is alike, and with b = 0
// the agent never turns (a = b = 0 included).
PHYS_HD float turn_probability(float forward, float sensed, float sharpness) {
  if (sharpness == 0.0f) return 0.5f;
  const float a = forward > 0.0f ? forward : 0.0f;
  const float b = sensed > 0.0f ? sensed : 0.0f;
  if (b == 0.0f) return 0.0f;
  if (a == 0.0f) return 1.0f;
  return div_rn(1.0f, add(1.0f, exp_f(mul(sharpness, sub(ln_f(a), ln_f(b))))));
}

// MCPM's heading after sensing, before the move, at the distance SO xi (Closed: voxel -1 is
// outside the box). w across the heading at azimuth 2 pi u (the ring's w_k with K = 1), sensing
// direction cos(SA) h + sin(SA) w; readings A forward and B sensed; it turns by RA toward w when
// the turn stream's u < turn_probability(A, B, S), else keeps h.
template <bool Closed, class FieldRead>
PHYS_HD Vec3 steer_mcpm3(const Agent3& a, uint32_t id, uint32_t step, const Params3& p, float xi,
                         FieldRead&& field_at) {
  const Frame f = frame_of(a.h);
  const float u = rule::unit(rule::hash(p.seed, id, step, rule::kStreamMcpmAzimuth));
  const rule::SinCos az = rule::sin_cos(mul(rule::kTwoPi, u));
  const Vec3 w = plus(scaled(f.e1, az.c), scaled(f.e2, az.s));
  const float distance = mul(p.sensor_distance, xi);
  const float forward = field_at(voxel_along<Closed>(a, a.h, distance, p));
  const float sensed =
      field_at(voxel_along<Closed>(a, plus(scaled(a.h, p.cos_sa), scaled(w, p.sin_sa)), distance, p));
  if (rule::unit(rule::hash(p.seed, id, step, rule::kStreamMcpmTurn)) <
      turn_probability(forward, sensed, p.sharpness)) {
    return normalized(plus(scaled(a.h, p.cos_ra), scaled(w, p.sin_ra)));
  }
  return a.h;
}

// One agent's step by MCPM's rule: sense, then move SS xi; returns the voxel it deposits into.
template <class FieldRead>
PHYS_HD int step_mcpm3(Agent3& a, uint32_t id, uint32_t step, const Params3& p, FieldRead&& field_at) {
  const float xi = maxwell_factor(id, step, p.seed);
  a.h = steer_mcpm3<false>(a, id, step, p, xi, field_at);
  return move_by3(a, mul(p.step_size, xi), p);
}

// MCPM's step with walls, as step_agent3_walled is Jones's.
template <bool Closed, class FieldRead>
PHYS_HD int step_mcpm3_walled(Agent3& a, uint32_t id, uint32_t step, const Params3& p, FieldRead&& field_at,
                              const uint8_t* walls) {
  const float xi = maxwell_factor(id, step, p.seed);
  const Vec3 h = steer_mcpm3<Closed>(
      a, id, step, p, xi, [&](int v) { return (v < 0 || walls[v] != 0) ? rule::kWallReading : field_at(v); });
  return move3_walled<Closed>(a, h, mul(p.step_size, xi), id, step, p, walls);
}

// --- Several species (docs/MODEL.md, "Volume", "Several species"): channel c of voxel v at c V + v.
using rule::kMaxSpecies;
struct Species3 {
  int count;                          // S, 1..kMaxSpecies
  bool plain;                         // S = 1 with W = [[1]]: the one-species step, no matrix
  uint32_t end[kMaxSpecies];          // ids [end[s-1], end[s]) are species s (make_species_params)
  float w[kMaxSpecies][kMaxSpecies];  // interaction matrix, w[s][t] for s, t < S
  Params3 p[kMaxSpecies];
};

// Whether a volume of these species keeps a trace: some species' step needs one.
PHYS_HD constexpr bool keeps_trace(const Species3& sp) {
  bool trace = false;
  for (int s = 0; s < sp.count; ++s) trace = trace || step3_needs(sp.p[s]).trace;
  return trace;
}

// The species of an agent, as rule::species_of.
template <int S>
PHYS_HD int species3_of(uint32_t id, const Species3& sp) {
  int s = 0;
  for (int k = 0; k < S - 1; ++k) s += id >= sp.end[k] ? 1 : 0;
  return s;
}

// Walls of a step: none, a walls volume on the torus, or a closed box (with or without a volume).
enum class Walls3 { None, Wrapped, Closed };

// One agent of any species steps through the (S, D, H, W) field: it senses W[s] . F (rule::sensed,
// one channel `voxels` floats after the other), with walls when the run has them. Returns the voxel
// it deposits into and sets `species`. `load(pointer)` reads a float of the field. Plain (S = 1,
// W = [[1]]): the one-species step itself, F read as it is, no matrix. Mcpm: some species' rule is
// mcpm, and each agent takes its species' rule (without it, only the ring rules' code is there).
template <int S, bool Plain, Walls3 K, bool Mcpm, class Load>
PHYS_HD int step_species_agent3(Agent3& a, uint32_t id, uint32_t step, const Species3& sp, const float* field,
                                size_t voxels, const uint8_t* walls, int& species, Load&& load) {
  static_assert(!Plain || S == 1, "the plain step is one species'");
  const int s = species3_of<S>(id, sp);
  species = s;
  const auto field_at = [&](int v) {
    if constexpr (Plain) {
      return load(field + v);
    } else {
      const float* w = sp.w[s];
      float f[S];
      for (int t = 0; t < S; ++t)
        f[t] = load(field + static_cast<size_t>(t) * voxels + static_cast<size_t>(v));
      return rule::sensed<S>(f, w);
    }
  };
  if constexpr (Mcpm) {
    if (sp.p[s].rule == rule::kTurnMcpm) {
      if constexpr (K == Walls3::None) {
        return step_mcpm3(a, id, step, sp.p[s], field_at);
      } else {
        return step_mcpm3_walled<K == Walls3::Closed>(a, id, step, sp.p[s], field_at, walls);
      }
    }
  }
  if constexpr (K == Walls3::None) {
    return step_agent3(a, id, step, sp.p[s], field_at);
  } else {
    return step_agent3_walled<K == Walls3::Closed>(a, id, step, sp.p[s], field_at, walls);
  }
}

// The field update of a voxel: keep * (self_w * G + neighbour_w * S27), S27 the 3 x 3 x 3 sum of G
// around it, summed as rule.hpp sums a 3 x 3 block within each plane (rows left to right, then the
// three rows top to bottom), then the three planes in z order: (P(z-1) + P(z)) + P(z+1).
PHYS_HD float field_update3(float g, float sum27, const Params3& p) {
  return mul(p.keep, add(mul(p.self_w, g), mul(p.neighbour_w, sum27)));
}

}  // namespace physarum::rule3
