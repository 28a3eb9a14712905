// The plain agent stages (one species, W = [[1]], rule simple, no jitter) eight agents at a time with
// AVX2 intrinsics: g++ does not vectorise the scalar loops for AVX2 (the wraps' branches), and they
// are most of the CPU step. Every line is rule.hpp's operation, in its order, on eight lanes:
// IEEE-754 add/sub/mul (no FMA), truncating conversions and selects, so the bits are those of the
// scalar code (tests compare the two paths and the pinned results).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "sim/rule.hpp"

namespace physarum::avx2 {

#define PHYSARUM_AVX2_FN static inline __attribute__((target("avx2"), always_inline))

struct SinCos8 {
  __m256 s;
  __m256 c;
};

// rule::floor_f's host form: truncate, and step down where that rounded up.
PHYSARUM_AVX2_FN __m256 floor_f(__m256 v) {
  const __m256 t = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(v));
  return _mm256_blendv_ps(t, _mm256_sub_ps(t, _mm256_set1_ps(1.0f)), _mm256_cmp_ps(t, v, _CMP_GT_OQ));
}

// rule::sin_cos.
PHYSARUM_AVX2_FN SinCos8 sin_cos(__m256 a) {
  const __m256 q =
      floor_f(_mm256_add_ps(_mm256_mul_ps(a, _mm256_set1_ps(0.63661977236758134308f)), _mm256_set1_ps(0.5f)));
  const __m256 r = _mm256_sub_ps(_mm256_sub_ps(a, _mm256_mul_ps(q, _mm256_set1_ps(1.5703125f))),
                                 _mm256_mul_ps(q, _mm256_set1_ps(4.8382679489661923e-4f)));
  const __m256 r2 = _mm256_mul_ps(r, r);
  __m256 ps = _mm256_add_ps(_mm256_mul_ps(r2, _mm256_set1_ps(2.7557319e-6f)), _mm256_set1_ps(-1.9841270e-4f));
  ps = _mm256_add_ps(_mm256_mul_ps(r2, ps), _mm256_set1_ps(8.3333333e-3f));
  ps = _mm256_add_ps(_mm256_mul_ps(r2, ps), _mm256_set1_ps(-1.6666667e-1f));
  const __m256 s = _mm256_add_ps(r, _mm256_mul_ps(_mm256_mul_ps(r, r2), ps));
  __m256 pc = _mm256_add_ps(_mm256_mul_ps(r2, _mm256_set1_ps(-2.7557319e-7f)), _mm256_set1_ps(2.4801587e-5f));
  pc = _mm256_add_ps(_mm256_mul_ps(r2, pc), _mm256_set1_ps(-1.3888889e-3f));
  pc = _mm256_add_ps(_mm256_mul_ps(r2, pc), _mm256_set1_ps(4.1666667e-2f));
  pc = _mm256_add_ps(_mm256_mul_ps(r2, pc), _mm256_set1_ps(-0.5f));
  const __m256 c = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_mul_ps(r2, pc));
  const __m256i quadrant = _mm256_and_si256(_mm256_cvttps_epi32(q), _mm256_set1_epi32(3));
  const __m256 odd = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(quadrant, _mm256_set1_epi32(1)), _mm256_set1_epi32(1)));
  const __m256 high = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(quadrant, _mm256_set1_epi32(2)), _mm256_set1_epi32(2)));
  const __m256 sign = _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_set1_ps(-1.0f), high);
  // -s: a negation flips the sign bit, as the scalar unary minus does.
  const __m256 neg_s = _mm256_xor_ps(s, _mm256_set1_ps(-0.0f));
  const __m256 sin_a = _mm256_blendv_ps(s, c, odd);
  const __m256 cos_a = _mm256_blendv_ps(c, neg_s, odd);
  return {_mm256_mul_ps(sign, sin_a), _mm256_mul_ps(sign, cos_a)};
}

// rule::wrap: values already inside pass unchanged, the others by the formula.
PHYSARUM_AVX2_FN __m256 wrap(__m256 v, __m256 n, __m256 inv_n) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 inside = _mm256_and_ps(_mm256_cmp_ps(v, zero, _CMP_GE_OQ), _mm256_cmp_ps(v, n, _CMP_LT_OQ));
  __m256 r = _mm256_sub_ps(v, _mm256_mul_ps(floor_f(_mm256_mul_ps(v, inv_n)), n));
  r = _mm256_blendv_ps(r, _mm256_add_ps(r, n), _mm256_cmp_ps(r, zero, _CMP_LT_OQ));
  r = _mm256_blendv_ps(r, _mm256_sub_ps(r, n), _mm256_cmp_ps(r, n, _CMP_GE_OQ));
  const __m256 bad = _mm256_or_ps(_mm256_cmp_ps(r, n, _CMP_GE_OQ), _mm256_cmp_ps(r, zero, _CMP_LT_OQ));
  r = _mm256_blendv_ps(r, zero, bad);
  return _mm256_blendv_ps(r, v, inside);
}

// rule::cell_of for x and y, combined into the row-major index.
PHYSARUM_AVX2_FN __m256i cell(__m256 wrapped_x, __m256 wrapped_y, const rule::StepParams& p) {
  const __m256i cx = _mm256_min_epi32(_mm256_cvttps_epi32(wrapped_x), _mm256_set1_epi32(p.width - 1));
  const __m256i cy = _mm256_min_epi32(_mm256_cvttps_epi32(wrapped_y), _mm256_set1_epi32(p.height - 1));
  return _mm256_add_epi32(_mm256_mullo_epi32(cy, _mm256_set1_epi32(p.width)), cx);
}

// The cell under a sensor at distance d along (dc, ds) from (ax, ay).
PHYSARUM_AVX2_FN __m256i sensor_cell(__m256 ax, __m256 ay, __m256 dc, __m256 ds, __m256 d, __m256 fw,
                                     __m256 fh, __m256 iw, __m256 ih, const rule::StepParams& p) {
  const __m256 ux = _mm256_add_ps(ax, _mm256_mul_ps(d, dc));
  const __m256 uy = _mm256_add_ps(ay, _mm256_mul_ps(d, ds));
  return cell(wrap(ux, fw, iw), wrap(uy, fh, ih), p);
}

// rule::sensor_cells (open boundary) for agents [j, j + 8).
PHYSARUM_AVX2_FN void sensor_cells(const float* x, const float* y, const float* theta, int* centre, int* left,
                                   int* right, const rule::StepParams& p) {
  const __m256 ax = _mm256_loadu_ps(x);
  const __m256 ay = _mm256_loadu_ps(y);
  const SinCos8 h = sin_cos(_mm256_loadu_ps(theta));
  const __m256 cos_sa = _mm256_set1_ps(p.cos_sa);
  const __m256 sin_sa = _mm256_set1_ps(p.sin_sa);
  const __m256 cl = _mm256_sub_ps(_mm256_mul_ps(h.c, cos_sa), _mm256_mul_ps(h.s, sin_sa));
  const __m256 sl = _mm256_add_ps(_mm256_mul_ps(h.s, cos_sa), _mm256_mul_ps(h.c, sin_sa));
  const __m256 cr = _mm256_add_ps(_mm256_mul_ps(h.c, cos_sa), _mm256_mul_ps(h.s, sin_sa));
  const __m256 sr = _mm256_sub_ps(_mm256_mul_ps(h.s, cos_sa), _mm256_mul_ps(h.c, sin_sa));
  const __m256 d = _mm256_set1_ps(p.sensor_distance);
  const __m256 fw = _mm256_set1_ps(p.fwidth);
  const __m256 fh = _mm256_set1_ps(p.fheight);
  const __m256 iw = _mm256_set1_ps(p.inv_width);
  const __m256 ih = _mm256_set1_ps(p.inv_height);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(centre),
                      sensor_cell(ax, ay, h.c, h.s, d, fw, fh, iw, ih, p));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(left), sensor_cell(ax, ay, cl, sl, d, fw, fh, iw, ih, p));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(right), sensor_cell(ax, ay, cr, sr, d, fw, fh, iw, ih, p));
}

// rule::steer (rule simple, no jitter) then rule::move for agents [j, j + 8), in place; the cells
// they deposit into go to `out`.
PHYSARUM_AVX2_FN void steer_and_move(float* x, float* y, float* theta, const float* fc, const float* fl,
                                     const float* fr, int* out, const rule::StepParams& p) {
  const __m256 c = _mm256_loadu_ps(fc);
  const __m256 l = _mm256_loadu_ps(fl);
  const __m256 r = _mm256_loadu_ps(fr);
  const __m256 th = _mm256_loadu_ps(theta);
  const __m256 turn_left = _mm256_and_ps(_mm256_cmp_ps(l, c, _CMP_GT_OQ), _mm256_cmp_ps(l, r, _CMP_GT_OQ));
  const __m256 turn_right = _mm256_and_ps(_mm256_cmp_ps(r, c, _CMP_GT_OQ), _mm256_cmp_ps(r, l, _CMP_GT_OQ));
  const __m256 rot = _mm256_set1_ps(p.rotation);
  __m256 t = _mm256_blendv_ps(th, _mm256_sub_ps(th, rot), turn_right);
  t = _mm256_blendv_ps(t, _mm256_add_ps(th, rot), turn_left);  // left wins, as in the scalar select
  t = wrap(t, _mm256_set1_ps(rule::kTwoPi), _mm256_set1_ps(rule::kInvTwoPi));
  const SinCos8 m = sin_cos(t);
  const __m256 step = _mm256_set1_ps(p.step_size);
  const __m256 nx = wrap(_mm256_add_ps(_mm256_loadu_ps(x), _mm256_mul_ps(step, m.c)),
                         _mm256_set1_ps(p.fwidth), _mm256_set1_ps(p.inv_width));
  const __m256 ny = wrap(_mm256_add_ps(_mm256_loadu_ps(y), _mm256_mul_ps(step, m.s)),
                         _mm256_set1_ps(p.fheight), _mm256_set1_ps(p.inv_height));
  _mm256_storeu_ps(x, nx);
  _mm256_storeu_ps(y, ny);
  _mm256_storeu_ps(theta, t);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), cell(nx, ny, p));
}

#undef PHYSARUM_AVX2_FN

}  // namespace physarum::avx2
#endif
