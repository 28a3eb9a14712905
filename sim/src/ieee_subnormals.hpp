// Internal to the CPU steppers (plane/cpu_backend.cpp, volume/volume_cpu.cpp): IEEE-754 subnormals on the
// thread that runs the model's arithmetic.
#pragma once

#include <cstdint>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace physarum::cpu {

// Subnormal floats kept, as IEEE-754 says, on the thread that runs the model's arithmetic. FTZ/DAZ
// are per-thread state that anyone can set (a library built with -ffast-math sets them at load
// time, a host application may too); with them on, the decaying field's tiny values become 0 and the
// result differs from every other thread and from the GPU. Each parallel region (and each call on
// the caller's thread) sets the state it needs and gives back the thread's previous state on exit.
class IeeeSubnormals {
 public:
#if defined(__x86_64__) || defined(__i386__)
  IeeeSubnormals() : saved_(_mm_getcsr()) {
    _mm_setcsr(saved_ & ~(kFtz | kDaz));
  }
  ~IeeeSubnormals() {
    _mm_setcsr(saved_);
  }

 private:
  static constexpr unsigned kFtz = 1U << 15;  // MXCSR flush-to-zero
  static constexpr unsigned kDaz = 1U << 6;   // MXCSR denormals-are-zero
  unsigned saved_;
#elif defined(__aarch64__)
  IeeeSubnormals() {
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(saved_));
    const uint64_t ieee = saved_ & ~kFz;
    __asm__ __volatile__("msr fpcr, %0" : : "r"(ieee));
  }
  ~IeeeSubnormals() {
    __asm__ __volatile__("msr fpcr, %0" : : "r"(saved_));
  }

 private:
  static constexpr uint64_t kFz = 1ULL << 24;  // FPCR flush-to-zero
  uint64_t saved_;
#else
  // Other targets: no flush mode this backend knows how to clear (docs/MODEL.md).
  IeeeSubnormals() = default;
#endif
 public:
  IeeeSubnormals(const IeeeSubnormals&) = delete;
  IeeeSubnormals& operator=(const IeeeSubnormals&) = delete;
};

}  // namespace physarum::cpu
