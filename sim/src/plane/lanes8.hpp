// Eight agents in the lanes of AVX2 registers: the lane type over which rule.hpp's agent functions
// are instantiated for the CPU's eight-wide path (rule.hpp, "Lanes"). Each operation is the one
// instruction with the IEEE-754 result of its scalar counterpart in rule.hpp (add/sub/mul, exact
// conversions, compares and selects), so the instantiation gives the scalar bits. Included only by
// a translation unit compiled for AVX2 without FMA (sim/CMakeLists.txt).
#pragma once

#if !defined(__AVX2__) || defined(__FMA__)
#error "lanes8.hpp needs AVX2 without FMA (-mavx2 -mno-fma)"
#endif

#include <immintrin.h>

#include <cstdint>

#include "sim/rule.hpp"

namespace physarum::lanes8 {

#define PHYSARUM_LANES8_FN inline __attribute__((always_inline))

struct M8 {  // a mask: every bit of a lane set where true
  __m256 v;
};
struct F8 {
  __m256 v;
  F8() = default;
  explicit F8(__m256 x) : v(x) {}
  explicit F8(float s) : v(_mm256_set1_ps(s)) {}
};
struct I8 {
  __m256i v;
  I8() = default;
  explicit I8(__m256i x) : v(x) {}
  explicit I8(int s) : v(_mm256_set1_epi32(s)) {}
};
struct U8 {
  __m256i v;
  U8() = default;
  explicit U8(__m256i x) : v(x) {}
  explicit U8(uint32_t s) : v(_mm256_set1_epi32(static_cast<int>(s))) {}
};

PHYSARUM_LANES8_FN M8 mask_of(__m256i all_or_none) {
  return {_mm256_castsi256_ps(all_or_none)};
}

PHYSARUM_LANES8_FN F8 add(F8 a, F8 b) {
  return F8(_mm256_add_ps(a.v, b.v));
}
PHYSARUM_LANES8_FN F8 sub(F8 a, F8 b) {
  return F8(_mm256_sub_ps(a.v, b.v));
}
PHYSARUM_LANES8_FN F8 mul(F8 a, F8 b) {
  return F8(_mm256_mul_ps(a.v, b.v));
}
PHYSARUM_LANES8_FN F8 neg(F8 a) {  // flips the sign bit, as the scalar unary minus does
  return F8(_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f)));
}
PHYSARUM_LANES8_FN I8 trunc_int(F8 a) {
  return I8(_mm256_cvttps_epi32(a.v));
}
// rule::floor_f's host form: truncate, and step down where that rounded up.
PHYSARUM_LANES8_FN F8 floor_f(F8 a) {
  const __m256 t = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(a.v));
  return F8(_mm256_blendv_ps(t, _mm256_sub_ps(t, _mm256_set1_ps(1.0f)), _mm256_cmp_ps(t, a.v, _CMP_GT_OQ)));
}
// Ordered compares: false where a lane is NaN, as the scalar operators.
PHYSARUM_LANES8_FN M8 operator<(F8 a, F8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ)};
}
PHYSARUM_LANES8_FN M8 operator>(F8 a, F8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)};
}
PHYSARUM_LANES8_FN M8 operator>=(F8 a, F8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OQ)};
}
// rule::below for n > 0: the unsigned comparison of the bits, as two signed ones (bits(n) is
// positive, so bits(v) < bits(n) unsigned exactly when bits(v) >= 0 and bits(v) < bits(n) signed).
PHYSARUM_LANES8_FN M8 below(F8 v, F8 n) {
  const __m256i bv = _mm256_castps_si256(v.v);
  const __m256i bn = _mm256_castps_si256(n.v);
  return mask_of(_mm256_and_si256(_mm256_cmpgt_epi32(bn, bv), _mm256_cmpgt_epi32(bv, _mm256_set1_epi32(-1))));
}

PHYSARUM_LANES8_FN M8 operator&(M8 a, M8 b) {
  return {_mm256_and_ps(a.v, b.v)};
}
PHYSARUM_LANES8_FN M8 operator|(M8 a, M8 b) {
  return {_mm256_or_ps(a.v, b.v)};
}
PHYSARUM_LANES8_FN M8 operator!(M8 a) {
  return {_mm256_xor_ps(a.v, _mm256_castsi256_ps(_mm256_set1_epi32(-1)))};
}
PHYSARUM_LANES8_FN bool every(M8 m) {
  return _mm256_movemask_ps(m.v) == 0xff;
}
PHYSARUM_LANES8_FN F8 select(M8 m, F8 a, F8 b) {
  return F8(_mm256_blendv_ps(b.v, a.v, m.v));
}
PHYSARUM_LANES8_FN I8 select(M8 m, I8 a, I8 b) {
  return I8(_mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(b.v), _mm256_castsi256_ps(a.v), m.v)));
}
PHYSARUM_LANES8_FN M8 select(M8 m, M8 a, M8 b) {
  return {_mm256_blendv_ps(b.v, a.v, m.v)};
}

PHYSARUM_LANES8_FN I8 operator+(I8 a, I8 b) {
  return I8(_mm256_add_epi32(a.v, b.v));
}
PHYSARUM_LANES8_FN I8 operator*(I8 a, I8 b) {
  return I8(_mm256_mullo_epi32(a.v, b.v));
}
PHYSARUM_LANES8_FN I8 operator&(I8 a, I8 b) {
  return I8(_mm256_and_si256(a.v, b.v));
}
PHYSARUM_LANES8_FN M8 operator!=(I8 a, I8 b) {
  return !mask_of(_mm256_cmpeq_epi32(a.v, b.v));
}
PHYSARUM_LANES8_FN I8 min_int(I8 a, I8 b) {
  return I8(_mm256_min_epi32(a.v, b.v));
}

PHYSARUM_LANES8_FN U8 operator^(U8 a, U8 b) {
  return U8(_mm256_xor_si256(a.v, b.v));
}
PHYSARUM_LANES8_FN U8 operator*(U8 a, U8 b) {  // the low 32 bits, as uint32_t's product
  return U8(_mm256_mullo_epi32(a.v, b.v));
}
PHYSARUM_LANES8_FN U8 operator>>(U8 a, int n) {  // logical, as uint32_t's
  return U8(_mm256_srli_epi32(a.v, n));
}
PHYSARUM_LANES8_FN M8 operator!=(U8 a, U8 b) {
  return !mask_of(_mm256_cmpeq_epi32(a.v, b.v));
}
// Only for values below 2^24 (rule::unit_lanes' 24 bits): there the signed conversion is exact.
PHYSARUM_LANES8_FN F8 to_float(U8 a) {
  return F8(_mm256_cvtepi32_ps(a.v));
}

#undef PHYSARUM_LANES8_FN

}  // namespace physarum::lanes8

namespace physarum::rule {
template <>
struct LanesOf<lanes8::F8> {
  using Int = lanes8::I8;
  using Uint = lanes8::U8;
};
}  // namespace physarum::rule
