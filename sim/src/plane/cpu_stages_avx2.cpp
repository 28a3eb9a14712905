// The CPU backend's plain agent stages instantiated over eight AVX2 lanes (lanes8.hpp). Built with
// -mavx2 (and without FMA) on x86-64 only (sim/CMakeLists.txt); the backend calls it only where the
// CPU has AVX2.
#if defined(__x86_64__) && defined(__GNUC__)
#include "cpu_stages.hpp"
#include "lanes8.hpp"

namespace physarum::cpu {

struct Lanes8 {
  using F = lanes8::F8;
  using I = lanes8::I8;
  using U = lanes8::U8;
  static constexpr int kWidth = 8;
  static F load(const float* p) { return F(_mm256_loadu_ps(p)); }
  static U load(const uint32_t* p) { return U(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))); }
  static void store(float* p, F v) { _mm256_storeu_ps(p, v.v); }
  static void store(int* p, I v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v.v); }
};

void sense_block_avx2(const AgentBlock& b, int n, BlockScratch& s, const rule::StepParams& p) {
  sense_block<Lanes8>(b, 0, n, s, p);
}

void steer_move_block_avx2(const AgentBlock& b, int n, BlockScratch& s, uint32_t step,
                           const rule::StepParams& p) {
  rule::with_kernel_rule(rule::kernel_rule(p),
                         [&](auto r) { steer_move_block<Lanes8, decltype(r)::value>(b, 0, n, s, step, p); });
}

}  // namespace physarum::cpu
#endif
