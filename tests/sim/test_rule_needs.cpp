// What a step of each turn rule needs (rule.hpp, rule3d.hpp) against what the step does: for every
// rule code, two runs that differ only in the seed (the key of every random number) from the same
// agents and field. A step that draws random numbers must then differ, one that draws none must
// not: a rule that says it draws nothing would have its ids and hashes compiled away (its kernel
// rule), so the answer has to be right for every rule, not only for those there are today.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuda_pair.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/rule.hpp"
#include "sim/rule3d.hpp"
#include "sim/spawn.hpp"
#include "sim/volume.hpp"

using namespace physarum;

namespace {

constexpr Size kPlane{64, 48};
constexpr uint64_t kAgents = 600;

std::vector<float> noise(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 4.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// The rule of each code, and the codes of the rules: one to one, every code covered.
TurnRule rule_of(int code) {
  const auto r = static_cast<TurnRule>(code);
  EXPECT_EQ(turn_rule_code(r), code) << "TurnRule " << code << " has another code";
  return r;
}

SimConfig plane_config(int code, float jitter, uint32_t seed, Boundary boundary) {
  SimConfig c;
  c.size = kPlane;
  c.agents = kAgents;
  c.seed = seed;
  c.threads = 1;
  c.model.turn_rule = rule_of(code);
  c.model.jitter = jitter;
  c.environment.boundary = boundary;
  return c;
}

// Agents that stand off the box's shell, so a closed box moves none of them out of a wall (that
// move is keyed on the seed too) and only a step can tell the seeds apart.
AgentState inner_agents() {
  AgentState a = spawn_agents(SpawnMode::Random, kPlane, kAgents, 7);
  for (size_t i = 0; i < a.size(); ++i) {
    a.x[i] = 2.0f + a.x[i] * (static_cast<float>(kPlane.width) - 4.0f) / static_cast<float>(kPlane.width);
    a.y[i] = 2.0f + a.y[i] * (static_cast<float>(kPlane.height) - 4.0f) / static_cast<float>(kPlane.height);
  }
  return a;
}

struct PlaneRun {
  AgentState agents;
  std::vector<float> field;
};

PlaneRun run_plane(const SimConfig& c, int steps) {
  const std::unique_ptr<Backend> b = create_backend(BackendKind::Cpu, c);
  b->set_agents(inner_agents());
  b->set_field(noise(static_cast<size_t>(kPlane.width) * kPlane.height, 3));
  b->step(steps);
  PlaneRun r{b->read_agents(), {}};
  b->read_field(r.field);
  return r;
}

// Whether two seeds give other agents or another field after a few steps on the CPU backend.
bool seed_matters(int code, float jitter, Boundary boundary) {
  const PlaneRun a = run_plane(plane_config(code, jitter, 11, boundary), 4);
  const PlaneRun b = run_plane(plane_config(code, jitter, 12, boundary), 4);
  return !(same_bits(a.agents.x, b.agents.x) && same_bits(a.agents.y, b.agents.y) &&
           same_bits(a.agents.theta, b.agents.theta) && same_bits(a.field, b.field));
}

TEST(RuleNeeds, EveryPlaneRuleDrawsExactlyWhenTheSeedChangesItsSteps) {
  for (int code = 0; code < rule::kTurnRuleCount; ++code) {
    const rule::TurnRuleNeeds needs = rule::turn_rule_needs(code);
    if (!needs.plane) {
      EXPECT_THROW((void)create_backend(BackendKind::Cpu, plane_config(code, 0.0f, 11, Boundary::Wrap)),
                   Error)
          << "rule " << code << " says no plane runs it";
      continue;
    }
    for (const float jitter : {0.0f, 0.3f}) {
      const SimConfig c = plane_config(code, jitter, 11, Boundary::Wrap);
      const rule::StepParams p = make_step_params(c.model, c.size, c.seed);
      const bool draws = rule::step_needs(p).random;
      EXPECT_EQ(draws, rule::plane_step_draws(code, jitter));
      EXPECT_EQ(draws, needs.draws || jitter != 0.0f) << "rule " << code << ", jitter " << jitter;
      EXPECT_EQ(seed_matters(code, jitter, Boundary::Wrap), draws)
          << "rule " << to_string(c.model.turn_rule) << ", jitter " << jitter << ": the header says it "
          << (draws ? "draws" : "draws no") << " random numbers";
      // A step that draws nothing takes its rule's own kernel; one that draws, the parameters' rule.
      EXPECT_EQ(rule::kernel_rule(p), draws ? rule::kRuleFromParams : code);
    }
  }
}

// Walls turn a blocked agent at random (rule::move_walled): a closed box draws under every rule.
TEST(RuleNeeds, AClosedBoxDrawsForABlockedAgentUnderEveryPlaneRule) {
  for (int code = 0; code < rule::kTurnRuleCount; ++code) {
    if (!rule::turn_rule_needs(code).plane) continue;
    const SimConfig c = plane_config(code, 0.0f, 11, Boundary::Walls);
    const rule::StepParams p = make_step_params(c.model, c.size, c.seed);
    EXPECT_TRUE(rule::step_needs(p, 1, true).random);
    EXPECT_TRUE(rule::step_needs(p, 1, true).ids);
    EXPECT_TRUE(seed_matters(code, 0.0f, Boundary::Walls)) << to_string(c.model.turn_rule);
  }
}

// The kernel dispatch calls each rule's own instantiation where its step draws nothing, and the
// parameters' rule for every other code.
TEST(RuleNeeds, KernelDispatchReachesEachRulesInstantiation) {
  for (int code = -1; code <= rule::kTurnRuleCount; ++code) {
    int reached = -2;
    rule::with_kernel_rule(code, [&](auto r) { reached = decltype(r)::value; });
    const bool own = code >= 0 && code < rule::kTurnRuleCount && !rule::turn_rule_needs(code).draws;
    EXPECT_EQ(reached, own ? code : rule::kRuleFromParams) << "code " << code;
  }
}

// A volume's step draws under every rule (its ring turns at random; MCPM draws its direction, turn
// and distance), and keeps a trace exactly where the rule says so.
TEST(RuleNeeds, EveryVolumeRuleDrawsAndKeepsTheTraceItsNeedsSay) {
  const Size size{12, 10, 8};
  for (int code = 0; code < rule::kTurnRuleCount; ++code) {
    VolumeConfig c;
    c.size = size;
    c.agents = 300;
    c.threads = 1;
    c.model.turn_rule = rule_of(code);
    c.seed = 7;
    const Agents3 start = spawn_volume_agents(c, make_params3(c), 1);
    const std::vector<float> field = noise(static_cast<size_t>(size.width) * size.height * size.depth, 5);
    std::vector<float> after[2];
    Agents3 moved[2];
    for (int k = 0; k < 2; ++k) {
      c.seed = 11 + static_cast<uint32_t>(k);
      const std::unique_ptr<Volume> v = create_volume(BackendKind::Cpu, c);
      const rule::StepNeeds needs = rule3::step3_needs(v->params());
      EXPECT_EQ(needs.trace, rule::turn_rule_needs(code).trace);
      EXPECT_EQ(v->has_trace(), needs.trace) << "rule " << code;
      v->set_agents(start);
      v->set_field(field);
      v->step(2);
      v->read_field(after[k]);
      moved[k] = v->agents();
      EXPECT_TRUE(needs.random && needs.ids);
    }
    EXPECT_FALSE(same_bits(after[0], after[1]) && same_bits(moved[0].x, moved[1].x) &&
                 same_bits(moved[0].hx, moved[1].hx))
        << "rule " << code << ": the seed changed nothing, though a volume's step draws";
  }
}

#if defined(PHYSARUM_HAS_CUDA)
// Every plane rule, with and without jitter, through the CUDA kernel its needs pick: the CPU's bits.
TEST(RuleNeeds, EveryPlaneRuleRunsAsItselfOnCuda) {
  SKIP_WITHOUT_CUDA_DEVICE();
  for (int code = 0; code < rule::kTurnRuleCount; ++code) {
    if (!rule::turn_rule_needs(code).plane) continue;
    for (const float jitter : {0.0f, 0.3f}) {
      SCOPED_TRACE("rule " + std::to_string(code) + ", jitter " + std::to_string(jitter));
      const SimConfig c = plane_config(code, jitter, 11, Boundary::Wrap);
      test::Pair p = test::make_pair(c);
      const std::vector<float> field = noise(static_cast<size_t>(kPlane.width) * kPlane.height, 3);
      p.cpu->set_field(field);
      p.gpu->set_field(field);
      test::step_both(p, 6);
      test::expect_same_field_and_agents(p);
    }
  }
}
#endif

}  // namespace
