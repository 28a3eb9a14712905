// The CPU backend keeps subnormal floats whatever flush mode the calling thread and the OpenMP
// workers were left in: a field decaying into the subnormal range gives the same bytes with
// FTZ/DAZ set beforehand as without, and the threads get their own mode back afterwards.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define PHYSARUM_TEST_MXCSR 1
#endif

#include "backends.hpp"
#include "sim/spawn.hpp"

namespace physarum {
namespace {

#if defined(PHYSARUM_TEST_MXCSR)
constexpr unsigned kFtzDaz = (1U << 15) | (1U << 6);

// Sets (or clears) FTZ and DAZ on the calling thread and on `threads` OpenMP workers.
void set_flush_mode(bool on, int threads) {
  const auto apply = [on] { _mm_setcsr(on ? (_mm_getcsr() | kFtzDaz) : (_mm_getcsr() & ~kFtzDaz)); };
  apply();
#pragma omp parallel num_threads(threads)
  apply();
}

// How many of the calling thread and `threads` workers have both flags set.
int threads_flushing(int threads) {
  int n = (_mm_getcsr() & kFtzDaz) == kFtzDaz ? 1 : 0;
#pragma omp parallel num_threads(threads) reduction(+ : n)
  {
    if (omp_get_thread_num() != 0) n += (_mm_getcsr() & kFtzDaz) == kFtzDaz ? 1 : 0;
  }
  return n;
}

// A small, fast-decaying field with few agents: after a while most cells hold subnormal values.
// Only the steps run under the given flush mode (spawning uses OpenMP teams of another size, whose
// new threads would not carry the mode).
struct Result {
  std::vector<float> field;
  AgentState agents;
  int still_flushing = 0;  // threads with FTZ/DAZ on right after the steps
};
Result run(int threads, bool flush) {
  SimConfig c;
  c.size = Size{64, 48};
  c.agents = 40;
  c.seed = 2;
  c.threads = threads;
  c.model.decay = 0.9f;
  auto b = make_cpu_backend(c, spawn_agents(c.spawn.mode, c.size, c.agents, c.seed));
  set_flush_mode(flush, threads);
  EXPECT_EQ(threads_flushing(threads), flush ? threads : 0) << "could not set the flush mode of every thread";
  b->step(120);
  Result r;
  r.still_flushing = threads_flushing(threads);
  set_flush_mode(false, threads);
  b->read_field(r.field);
  r.agents = b->read_agents();
  return r;
}

size_t subnormals(const std::vector<float>& f) {
  size_t n = 0;
  for (float v : f) n += std::fpclassify(v) == FP_SUBNORMAL ? 1 : 0;
  return n;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

void expect_flush_mode_ignored(int threads) {
  const Result ieee = run(threads, false);
  ASSERT_GT(subnormals(ieee.field), 100U) << "the configuration must reach subnormal values to test anything";
  const Result flushed = run(threads, true);
  EXPECT_TRUE(same_bytes(ieee.field, flushed.field)) << "field differs when FTZ/DAZ were on";
  EXPECT_TRUE(same_bytes(ieee.agents.x, flushed.agents.x));
  EXPECT_TRUE(same_bytes(ieee.agents.y, flushed.agents.y));
  EXPECT_TRUE(same_bytes(ieee.agents.theta, flushed.agents.theta));
  EXPECT_EQ(flushed.still_flushing, threads) << "the backend must give every thread its own flush mode back";
}

TEST(Subnormals, KeptOnTheCallingThreadWhateverItsFlushMode) {
  expect_flush_mode_ignored(1);
}

TEST(Subnormals, KeptOnEveryOpenMpWorkerWhateverTheirFlushMode) {
  expect_flush_mode_ignored(3);
}

#else

TEST(Subnormals, KeptOnTheCallingThreadWhateverItsFlushMode) {
  GTEST_SKIP() << "this test sets the flush mode through x86's MXCSR; this is not x86";
}

#endif

}  // namespace
}  // namespace physarum
