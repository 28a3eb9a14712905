// Detail K on the CUDA backend against the CPU backend, bit for bit (docs/MODEL.md, "Scale"): the
// agents' sensing of K x K blocks (K = 2 and 3), the
// blur passes of a step (one, an even number that starts in the scratch field, an odd number above
// one), their number changing live, and shipped presets at detail 2 through the run library.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "backends.hpp"
#include "cuda_pair.hpp"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/spawn.hpp"

using namespace physarum;

namespace {

#if defined(PHYSARUM_HAS_CUDA)

using test::make_species_pair;
using test::Pair;
using test::step_both;

// Two species on K times an odd size at detail K, the passes a step set by the larger diffuse * K^2.
SimConfig two_species_at_detail(int k, float diffuse) {
  SimConfig c;
  c.size = Size{131 * k, 97 * k};
  c.agents = 20'011;
  c.seed = 23;
  c.scale = k;
  for (int s = 0; s < 2; ++s) {
    Species sp;
    sp.share = 1.0f;
    sp.model.turn_rule = s == 0 ? TurnRule::Jones : TurnRule::Simple;
    sp.model.sensor_distance = 4.0f + 3.0f * static_cast<float>(s);
    sp.model.decay = 0.05f;
    sp.model.diffuse = s == 0 ? diffuse : 0.1f;
    sp.model.jitter = 0.2f;
    c.species.list.push_back(sp);
  }
  c.species.interaction = {1.0f, -0.5f, 0.25f, 1.0f};
  return c;
}

#endif

std::string preset_file(const char* name) {
  return (std::filesystem::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / (std::string(name) + ".toml"))
      .string();
}

}  // namespace

TEST(CudaScale, BlurPassesOfDetailTwoLikeCpuAsTheirNumberChangesLive) {
  SKIP_WITHOUT_CUDA_DEVICE();
#if defined(PHYSARUM_HAS_CUDA)
  Pair p = make_species_pair(two_species_at_detail(2, 0.2f));  // 0.8: one pass
  step_both(p, 1);
  step_both(p, 150);
  test::expect_same_field_and_agents(p);
  for (const float diffuse : {0.3f, 0.6f, 0.2f}) {  // 1.2: two passes, 2.4: three, back to one
    SpeciesSet live = p.cpu->species();
    live.list[0].model.diffuse = diffuse;
    p.cpu->set_species(live);
    p.gpu->set_species(live);
    step_both(p, 1);
    step_both(p, 120);
    test::expect_same_field_and_agents(p);
    if (::testing::Test::HasFailure()) FAIL() << "after diffuse " << diffuse;
  }
#endif
}

// Detail 3: blocks of nine cells, whose mean multiplies by 1/9 rounded to float (docs/MODEL.md, "Scale").
TEST(CudaScale, SensingBlocksOfDetailThreeLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
#if defined(PHYSARUM_HAS_CUDA)
  Pair p = make_species_pair(two_species_at_detail(3, 0.1f));  // 0.9: one pass
  step_both(p, 1);
  step_both(p, 200);
  test::expect_same_field_and_agents(p);
#endif
}

// The presets of the look test (test_scale_look.cpp) at detail 2: one species, two with their
// matrix, and the towns' food and walls.
TEST(CudaScale, PresetsAtDetailTwoLikeCpu) {
  SKIP_WITHOUT_CUDA_DEVICE();
  for (const char* name : {"jones-2010", "territories", "towns"}) {
    run::Recipe r;
    r.preset = preset_file(name);
    r.size = "240x135";
    r.scale = 2;
    r.backend = "cpu";
    run::Run cpu(r);
    r.backend = "cuda";
    run::Run gpu(r);
    ASSERT_EQ(gpu.backend().scale(), 2);
    for (const uint64_t n : {1ULL, 99ULL, 300ULL}) {
      cpu.step(n);
      gpu.step(n);
    }
    std::vector<float> fc, fg;
    cpu.backend().read_field(fc);
    gpu.backend().read_field(fg);
    EXPECT_FALSE(fc.empty());
    EXPECT_EQ(fc, fg) << name << ": the fields differ";
    const AgentState ac = cpu.backend().read_agents();
    const AgentState ag = gpu.backend().read_agents();
    EXPECT_EQ(ac.x, ag.x) << name;
    EXPECT_EQ(ac.theta, ag.theta) << name;
  }
}
