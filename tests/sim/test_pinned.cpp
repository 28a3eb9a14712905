// The CPU backend against pinned hashes of its output (tests/pinned_results.hpp): a change to the
// model's output fails here even when every backend changes alike.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdlib>

#include "backends.hpp"
#include "pinned_results.hpp"

namespace physarum {
namespace {

using test::kPinned;
using test::PinnedCase;

class Pinned : public ::testing::TestWithParam<PinnedCase> {};

void check_pinned(const PinnedCase& pc, int threads) {
  const auto b = test::run_pinned(pc, [threads](SimConfig c, AgentState a) {
    c.threads = threads;
    return make_cpu_backend(c, std::move(a));
  });
  const uint64_t field = test::field_hash(*b);
  const uint64_t agents = test::agents_hash(*b);
  if (threads == 1 && std::getenv("PHYSARUM_PRINT_PINNED")) {
    std::printf("    {\"%s\", %d, 0x%016" PRIx64 "ULL, 0x%016" PRIx64 "ULL},\n", pc.name, pc.steps, field,
                agents);
  }
  EXPECT_EQ(field, pc.field_hash) << pc.name << " (" << threads << " threads): field hash 0x" << std::hex
                                  << field << "; the model's output changed (docs/MODEL.md)";
  EXPECT_EQ(agents, pc.agents_hash) << pc.name << " (" << threads << " threads): agents hash 0x" << std::hex
                                    << agents << "; the model's output changed (docs/MODEL.md)";
}

TEST_P(Pinned, CpuOneThreadMatchesThePinnedHashes) {
  check_pinned(GetParam(), 1);
}

TEST_P(Pinned, CpuThreeThreadsMatchesThePinnedHashes) {
  check_pinned(GetParam(), 3);
}

INSTANTIATE_TEST_SUITE_P(Model, Pinned, ::testing::ValuesIn(kPinned),
                         [](const ::testing::TestParamInfo<PinnedCase>& i) {
                           return std::string(i.param.name);
                         });

}  // namespace
}  // namespace physarum
