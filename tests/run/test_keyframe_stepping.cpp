// Stepping with keyframes: the values applied at every step against a straightforward evaluation of
// docs/MODEL.md ("Which value applies at step s", a scan of every keyframe per key), on random
// keyframe sets stepped one step at a time, in jumps across keyframes and back; and the cost of a
// step with the most keyframes a preset may hold against one with two.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "sim/keyframes.hpp"
#include "sim/registry.hpp"
#include "test_support.hpp"
#include "window/twin_view.hpp"

using namespace physarum;

namespace {

// The value of `key` at `step` as docs/MODEL.md words it, scanning every keyframe: the last
// keyframe at or before the step that names the key, and the first after it. Without one naming
// it, the preset's own value.
Value reference_value(const std::vector<Keyframe>& ks, const std::string& key, uint64_t step,
                      const Preset& p = Preset{}) {
  const Keyframe* at = nullptr;
  const Value* va = nullptr;
  const Keyframe* next = nullptr;
  const Value* vb = nullptr;
  for (const Keyframe& k : ks) {
    for (const KeyframeValue& v : k.values) {
      if (v.key != key) continue;
      if (k.step <= step) {
        at = &k;
        va = &v.value;
      } else if (next == nullptr) {
        next = &k;
        vb = &v.value;
      }
    }
  }
  if (at == nullptr && next == nullptr) return registry::get(p, registry::resolve(p, key));
  if (at == nullptr) return *vb;
  if (next == nullptr || !std::holds_alternative<float>(*va)) return *va;
  const double t = static_cast<double>(step - at->step) / static_cast<double>(next->step - at->step);
  const double w = at->ease == Ease::Linear       ? t
                   : at->ease == Ease::Smoothstep ? t * t * (3.0 - 2.0 * t)
                                                  : 0.0;
  const double a = std::get<float>(*va), b = std::get<float>(*vb);
  const auto f = static_cast<float>(a + (b - a) * w);
  return std::fabs(f) < std::numeric_limits<float>::min() ? 0.0f : f;
}

const std::vector<std::string> kKeys = {"model.decay",     "model.sensor_angle_deg", "display.exposure",
                                        "display.palette", "model.turn_rule",        "display.levels"};

Value random_value(const std::string& key, std::mt19937& rng) {
  const registry::Param& p = *registry::resolve(Preset{}, key).param;
  if (p.type == registry::Type::Float) {
    // Decay ranges over 0..1: small values too, where rounding to a float and subnormals matter.
    const double hi = key == "model.decay" ? 1.0 : std::min(p.hi, 180.0);
    return static_cast<float>(std::uniform_real_distribution<double>(p.lo, hi)(rng));
  }
  if (key == "display.palette") return std::string(rng() % 2 ? "magma" : "viridis");
  if (key == "model.turn_rule") return std::string(rng() % 2 ? "simple" : "jones");
  return static_cast<int64_t>(2 + rng() % 15);
}

// Keyframes at random steps (gaps of 0 when `duplicates`), each naming a random subset of kKeys;
// the first key starts late and the second ends early.
std::vector<Keyframe> random_keyframes(std::mt19937& rng, size_t count, bool duplicates) {
  std::vector<Keyframe> ks;
  uint64_t step = rng() % 20;
  for (size_t i = 0; i < count; ++i) {
    Keyframe k;
    k.step = step;
    k.ease = static_cast<Ease>(rng() % 3);
    for (size_t j = 0; j < kKeys.size(); ++j) {
      if (j == 0 && i < count / 3) continue;
      if (j == 1 && i > count / 2) continue;
      if (rng() % 3 == 0 || (j == 2 && k.values.empty()))
        k.values.push_back({kKeys[j], random_value(kKeys[j], rng)});
    }
    ks.push_back(std::move(k));
    step += (duplicates ? rng() % 4 : 1 + rng() % 4) * (rng() % 8 == 0 ? 40 : 1);
  }
  return ks;
}

void expect_values_at(const Preset& got, const std::vector<Keyframe>& ks, uint64_t step) {
  for (const std::string& key : kKeys) {
    EXPECT_EQ(registry::get(got, registry::resolve(got, key)), reference_value(ks, key, step))
        << key << " at step " << step;
  }
}

}  // namespace

// Forward one step at a time, jumps across several keyframes, and back, on timelines with keyframes
// at the same step (which only code, not a preset file, can make).
TEST(KeyframeStepping, TimelineValuesMatchAScanOfEveryKeyframe) {
  std::mt19937 rng(21);
  for (int round = 0; round < 40; ++round) {
    Preset p;
    p.keyframes = random_keyframes(rng, 5 + rng() % 60, round % 2 == 1);
    KeyframeTimeline timeline(p);
    Preset live = p;
    const uint64_t last = p.keyframes.back().step + 30;
    std::vector<uint64_t> steps;
    for (uint64_t s = 0; s <= last; ++s) steps.push_back(s);
    for (int i = 0; i < 200; ++i) steps.push_back(rng() % (last + 1));  // anywhere: forward and back
    for (uint64_t s = last; s > 0; s -= std::min<uint64_t>(s, 1 + rng() % 3)) steps.push_back(s);
    for (const uint64_t s : steps) {
      timeline.apply(live, s);
      expect_values_at(live, p.keyframes, s);
      if (HasFailure()) return;
    }
  }
}

// run::Run applies the values of each step before it, stepped one step at a time and in jumps of up
// to a few hundred steps across keyframes: the backend holds the model of the last step run, the
// live preset every key's value at the step it is at.
TEST(KeyframeStepping, RunAppliesTheValuesOfEveryStep) {
  std::mt19937 rng(7);
  for (int round = 0; round < 6; ++round) {
    Preset p;
    p.run.size = {16, 12};
    p.run.agents = 40;
    p.keyframes = random_keyframes(rng, 30 + rng() % 40, false);
    run::Recipe r;
    r.base = p;
    r.backend = "cpu";
    r.threads = 1;
    run::Run run(r);
    const uint64_t last = p.keyframes.back().step + 20;
    while (run.backend().steps_done() < last) {
      const uint64_t n = rng() % 4 == 0 ? 1 + rng() % 200 : 1;
      run.step(n);
      const uint64_t done = run.backend().steps_done();
      expect_values_at(run.preset(), p.keyframes, done);
      Preset before = p;
      for (const std::string& key : kKeys)
        registry::set(before, registry::resolve(before, key), reference_value(p.keyframes, key, done - 1));
      EXPECT_EQ(run.backend().model(), before.model) << "the step before " << done;
      if (HasFailure()) return;
    }
  }
}

// Keyframes changed through live_preset() (as the window's timeline does) apply from the next step.
TEST(KeyframeStepping, RunFollowsKeyframesEditedInPlace) {
  Preset p;
  p.run.size = {16, 12};
  p.run.agents = 40;
  p.keyframes = {Keyframe{0, Ease::Linear, {{"model.decay", 0.1f}}},
                 Keyframe{100, Ease::Linear, {{"model.decay", 0.3f}}}};
  run::Recipe r;
  r.base = p;
  r.backend = "cpu";
  r.threads = 1;
  run::Run run(r);
  run.step(50);
  EXPECT_EQ(Value{run.preset().model.decay}, reference_value(p.keyframes, "model.decay", 50));
  Preset& live = run.live_preset();
  live.keyframes[1].values[0].value = 0.5f;
  run.step(1);
  EXPECT_EQ(Value{run.preset().model.decay}, reference_value(live.keyframes, "model.decay", 51));
  EXPECT_EQ(Value{run.backend().model().decay}, reference_value(live.keyframes, "model.decay", 50));
  live.keyframes.push_back(Keyframe{60, Ease::Hold, {{"display.exposure", 3.0f}}});
  run.step(10);
  EXPECT_EQ(run.preset().display.exposure, 3.0f);
  live.keyframes.pop_back();
  live.keyframes[1].step = 70;
  run.step(1);
  EXPECT_EQ(Value{run.preset().model.decay}, reference_value(live.keyframes, "model.decay", 62));
}

namespace {

// `count` keyframes, each naming every keyframable key (as the window's "add keyframe here" makes
// them), the decay changing at each.
Preset keyframed_everywhere(size_t count) {
  Preset p;
  p.run.size = {16, 12};
  p.run.agents = 50;
  p.run.seed = 3;
  Preset at = p;
  for (size_t k = 0; k < count; ++k) {
    at.model.decay = 0.01f + 0.001f * static_cast<float>(k % 7);
    p.keyframes.push_back(capture_keyframe(at, k * 5, static_cast<Ease>(k % 3)));
  }
  return p;
}

// CPU seconds for `steps` calls of step(1) of a run of `p` on one CPU thread.
double seconds_stepping(const Preset& p, uint64_t steps) {
  run::Recipe r;
  r.base = p;
  r.backend = "cpu";
  r.threads = 1;
  run::Run run(r);
  const double start = test::process_cpu_seconds();
  for (uint64_t s = 0; s < steps; ++s) run.step(1);
  return test::process_cpu_seconds() - start;
}

}  // namespace

// The most keyframes a preset may hold, every one naming every key, stepped a step per call (as
// Python's step() and a paused window do): each call grouped every value of every keyframe again
// (about 2 ms a call here, 4 s for these steps). Now a step costs what it costs with two keyframes;
// 1 s is over ten times what it takes on a loaded machine.
TEST(KeyframeStepping, AStepCostsTheSameWithThousandsOfKeyframes) {
  constexpr uint64_t kSteps = 2000;
  const Preset many = keyframed_everywhere(kMaxKeyframes);
  ASSERT_GT(many.keyframes.front().values.size(), 20u);
  const double two = seconds_stepping(keyframed_everywhere(2), kSteps);
  const double most = seconds_stepping(many, kSteps);
  std::printf("step(1) with 2 keyframes: %.1f us a step; with %zu: %.1f us a step\n", two / kSteps * 1e6,
              kMaxKeyframes, most / kSteps * 1e6);
  EXPECT_LT(most, 1.0);
}

// The window's twin steps B with A's keyframed values a step at a time: each step copied the preset
// and grouped its keyframes again (19 s for these ten frames of 64 steps on a loaded 2-core machine,
// 0.3 s now); 3 s is ten times that.
TEST(KeyframeStepping, TheWindowsTwinFollowsThousandsOfKeyframesCheaply) {
  run::Recipe r;
  r.base = keyframed_everywhere(kMaxKeyframes);
  r.backend = "cpu";
  r.threads = 1;
  run::Run a(r);
  app::TwinRun twin;
  twin.start(a.backend(), a.recipe(), a.preset(), "agent:0:theta:0");
  twin.every = 1;
  const double start = test::process_cpu_seconds();
  for (int frame = 0; frame < 10; ++frame) {
    const uint64_t from = a.backend().steps_done();
    const Preset before = a.preset();
    a.step(64);
    twin.follow(a.backend(), before, from, 64);
  }
  const double took = test::process_cpu_seconds() - start;
  std::printf("the twin's 10 frames of 64 steps with %zu keyframes: %.3f s of CPU\n", kMaxKeyframes, took);
  EXPECT_LT(took, 3.0);
  // B ran with A's values at every step: the twins agree exactly.
  ASSERT_EQ(twin.records().size(), 11u);
  for (const auto& rec : twin.records()) {
    EXPECT_EQ(rec.field_distance, 0.0) << rec.step;
    EXPECT_EQ(rec.agent_fraction, 0.0) << rec.step;
  }
  EXPECT_EQ(twin.backend()->model(), a.backend().model());
}
