// The CPU and CUDA backends side by side, for the tests that compare them bit for bit
// (test_cuda.cpp, test_cuda_environment.cpp). Every such test starts with
// SKIP_WITHOUT_CUDA_DEVICE(), which says why it skips without a CUDA build or device.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "backends.hpp"
#include "sim/backend.hpp"
#include "sim/spawn.hpp"

#define SKIP_WITHOUT_CUDA_DEVICE()                                                                        \
  do {                                                                                                    \
    if (!physarum::cuda_built()) GTEST_SKIP() << "built without the CUDA backend (no nvcc at configure)"; \
    if (physarum::cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";      \
  } while (0)

#if defined(PHYSARUM_HAS_CUDA)

namespace physarum::test {

struct Pair {
  std::unique_ptr<Backend> cpu;
  std::unique_ptr<Backend> gpu;
};

// Both backends from the same agents, spawned as the single-species model does.
inline Pair make_pair(const SimConfig& c) {
  const AgentState agents = spawn_agents(c.spawn.mode, c.size, c.agents, c.seed);
  return {make_cpu_backend(c, agents), make_cuda_backend(c, agents)};
}

// Both backends from the same agents, spawned per species (each backend moves them out of walls).
inline Pair make_species_pair(const SimConfig& c) {
  const AgentState agents =
      spawn_species(resolve_species(c.species, c.model, c.spawn.mode), c.size, c.agents, c.seed);
  return {make_cpu_backend(c, agents), make_cuda_backend(c, agents)};
}

// Bitwise equality, reporting how many elements differ and the first of them.
template <class T>
::testing::AssertionResult same_bits(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  if (a.size() != b.size()) {
    return ::testing::AssertionFailure() << what << ": sizes " << a.size() << " vs " << b.size();
  }
  size_t diff = 0;
  size_t first = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0 && diff++ == 0) first = i;
  }
  if (diff == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": " << diff << " of " << a.size() << " differ, first at "
                                       << first << " (cpu " << +a[first] << ", cuda " << +b[first] << ")";
}

// Same step count, field, and agent positions and headings on both sides (agents sorted by id).
// The CUDA agents go to *cuda_agents for the caller's own checks.
inline void expect_same_field_and_agents(Pair& p, AgentState* cuda_agents = nullptr) {
  ASSERT_EQ(p.cpu->steps_done(), p.gpu->steps_done());
  std::vector<float> fc, fg;
  p.cpu->read_field(fc);
  p.gpu->read_field(fg);
  EXPECT_TRUE(same_bits(fc, fg, "field"));
  const AgentState ac = p.cpu->read_agents();
  const AgentState ag = p.gpu->read_agents();
  EXPECT_TRUE(same_bits(ac.x, ag.x, "agent x"));
  EXPECT_TRUE(same_bits(ac.y, ag.y, "agent y"));
  EXPECT_TRUE(same_bits(ac.theta, ag.theta, "agent theta"));
  if (cuda_agents != nullptr) *cuda_agents = ag;
}

inline void step_both(Pair& p, int n) {
  p.cpu->step(n);
  p.gpu->step(n);
}

}  // namespace physarum::test

#endif
