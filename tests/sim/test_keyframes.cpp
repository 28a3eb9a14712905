// Keyframed parameters (docs/MODEL.md, "Keyframes"): interpolation against hand-computed values,
// the preset at a step, round trips, bad [[keyframe]] tables refused with their line and key, and
// keyframed runs that repeat bit for bit (CPU twice; CUDA against CPU where there is a device).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"

using namespace physarum;

namespace {

const char* kStory = R"([model]
decay = 0.01
deposit = 1.0

[run]
size = "64x48"
agents = 3000
seed = 7

[display]
exposure = 1.0
palette = "inferno"

[[keyframe]]
step = 10
ease = "smoothstep"
model.decay = 0.02
display.palette = "magma"

[[keyframe]]
step = 20
ease = "hold"
model.decay = 0.04
model.deposit = 2

[[keyframe]]
step = 30
model.decay = 0.08
display.palette = "viridis"
display.exposure = 4
)";

std::string error_of(const std::string& text) {
  try {
    (void)parse_preset(text, "p.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Keyframes, EasesAgainstHandComputedValues) {
  // a = 1 at step 0, b = 3 at step 4: t = 1/4, 2/4, 3/4.
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Linear, 0), 1.0f);
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Linear, 1), 1.5f);
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Linear, 2), 2.0f);
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Linear, 3), 2.5f);
  // smoothstep w = t^2 (3 - 2t): 0.15625, 0.5, 0.84375 -> 1 + 2w.
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Smoothstep, 1), 1.3125f);
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Smoothstep, 2), 2.0f);
  EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Smoothstep, 3), 2.6875f);
  for (uint64_t s = 0; s < 4; ++s) EXPECT_EQ(interpolate(1.0f, 3.0f, 0, 4, Ease::Hold, s), 1.0f);
  // Offsets: steps 100..300, at 150 t = 1/4 (descending values).
  EXPECT_EQ(interpolate(8.0f, 0.0f, 100, 300, Ease::Linear, 150), 6.0f);
  EXPECT_EQ(interpolate(8.0f, 0.0f, 100, 300, Ease::Smoothstep, 150), 8.0f - 8.0f * 0.15625f);
}

TEST(Keyframes, RoundedOnceFromDouble) {
  // 0.1f -> 0.2f at t = 1/3: computed in double and rounded once, which float arithmetic
  // (three roundings) does not always give.
  const float a = 0.1f, b = 0.2f;
  const double want = static_cast<double>(a) + (static_cast<double>(b) - static_cast<double>(a)) / 3.0;
  EXPECT_EQ(interpolate(a, b, 0, 3, Ease::Linear, 1), static_cast<float>(want));
  // Decay from 0.01 to 0.05 over 7 steps, every step, against the formula in long double.
  for (uint64_t s = 0; s < 7; ++s) {
    const long double t = static_cast<long double>(s) / 7.0L;
    const long double w = t * t * (3.0L - 2.0L * t);
    const long double v = 0.01f + (static_cast<long double>(0.05f) - 0.01f) * w;
    // The float nearest to the exact value (no tie is near for these numbers).
    EXPECT_EQ(interpolate(0.01f, 0.05f, 0, 7, Ease::Smoothstep, s), static_cast<float>(v)) << s;
  }
}

TEST(Keyframes, PresetAtEachStep) {
  const Preset p = parse_preset(kStory, "story.toml");
  ASSERT_EQ(p.keyframes.size(), 3u);
  EXPECT_EQ(p.keyframes[0].ease, Ease::Smoothstep);
  EXPECT_EQ(p.keyframes[2].ease, Ease::Linear);  // the default
  // Before the first keyframe naming a key: that keyframe's value.
  Preset at = preset_at(p, 0);
  EXPECT_EQ(at.model.decay, 0.02f);
  EXPECT_EQ(at.model.deposit, 2.0f);  // first named at step 20
  EXPECT_EQ(at.display.palette, "magma");
  EXPECT_EQ(at.display.exposure, 4.0f);
  EXPECT_EQ(at.model.sensor_distance, p.model.sensor_distance);  // not keyframed: the preset's
  // Halfway through the smoothstep segment 10 -> 20: w = 0.5.
  at = preset_at(p, 15);
  EXPECT_EQ(at.model.decay,
            static_cast<float>(static_cast<double>(0.02f) +
                               (static_cast<double>(0.04f) - static_cast<double>(0.02f)) * 0.5));
  EXPECT_EQ(at.display.palette, "magma");  // strings hold
  // A hold segment keeps 0.04 until step 30 exactly.
  EXPECT_EQ(preset_at(p, 20).model.decay, 0.04f);
  EXPECT_EQ(preset_at(p, 29).model.decay, 0.04f);
  at = preset_at(p, 30);
  EXPECT_EQ(at.model.decay, 0.08f);
  EXPECT_EQ(at.display.palette, "viridis");
  EXPECT_EQ(preset_at(p, 1000000).model.decay, 0.08f);  // after the last: its value
  EXPECT_EQ(preset_at(p, 1000000).keyframes, p.keyframes);
}

TEST(Keyframes, RoundTripWhenSaved) {
  const Preset p = parse_preset(kStory, "story.toml");
  const std::string text = preset_to_toml(p);
  EXPECT_NE(text.find("[[keyframe]]\nstep = 10\nease = \"smoothstep\"\nmodel.decay = 0.02\n"
                      "display.palette = \"magma\"\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(parse_preset(text, "saved.toml"), p);

  // Several species: species keys and the matrix (held) round trip too.
  const char* two = R"([[species]]
name = "a"
[[species]]
name = "b"
colour = "#2040ff"
[interaction]
matrix = [[1, -0.5], [-0.5, 1]]
[[keyframe]]
step = 0
species.1.deposit = 3
species.0.colour = "#ff0000"
interaction.matrix = [[1, 0.5], [0.5, 1]]
[[keyframe]]
step = 50
ease = "hold"
species.1.deposit = 0.5
interaction.matrix = [[1, -1], [-1, 1]]
)";
  const Preset q = parse_preset(two, "two.toml");
  ASSERT_EQ(q.keyframes.size(), 2u);
  EXPECT_EQ(parse_preset(preset_to_toml(q), "saved.toml"), q);
  const Preset at = preset_at(q, 25);
  EXPECT_EQ(at.species.list[1].model.deposit, static_cast<float>(3.0 + (0.5 - 3.0) * 0.5));
  EXPECT_EQ(at.species.list[0].colour, 0xff0000u);
  EXPECT_EQ(at.species.interaction, (std::vector<float>{1, 0.5f, 0.5f, 1}));
  EXPECT_EQ(preset_at(q, 50).species.interaction, (std::vector<float>{1, -1, -1, 1}));
}

TEST(Keyframes, CaptureHoldsEveryKeyframableKey) {
  Preset p;
  p.model.decay = 0.125f;
  p.display.palette = "magma";
  const Keyframe k = capture_keyframe(p, 40, Ease::Smoothstep);
  bool decay = false, palette = false;
  for (const KeyframeValue& v : k.values) {
    EXPECT_NE(v.key.rfind("run.", 0), 0u) << v.key;
    EXPECT_NE(v.key.rfind("spawn.", 0), 0u) << v.key;
    decay |= v.key == "model.decay" && v.value == Value{0.125f};
    palette |= v.key == "display.palette" && v.value == Value{std::string("magma")};
  }
  EXPECT_TRUE(decay && palette);
  Preset with = p;
  with.keyframes.push_back(k);
  EXPECT_NO_THROW(validate(with));
  EXPECT_EQ(parse_preset(preset_to_toml(with), "saved.toml"), with);
  // Applying the captured keyframe to other values brings back p's.
  Preset other = with;
  other.model.decay = 0.5f;
  other.display.palette = "viridis";
  EXPECT_EQ(preset_at(other, 0).model, p.model);
  EXPECT_EQ(preset_at(other, 0).display, p.display);
}

TEST(Keyframes, BadTablesRefusedWithLineAndKey) {
  const std::string head = "[model]\ndecay = 0.1\n";  // lines 1-2
  struct Case {
    std::string body;  // from line 3
    std::string want;
  };
  const std::vector<Case> cases = {
      {"[[keyframe]]\nmodel.decay = 0.2\n", "p.toml:3: keyframe.0: needs 'step = N'"},
      {"[[keyframe]]\nstep = -1\nmodel.decay = 0.2\n", "p.toml:4: keyframe.0.step: must be an integer"},
      {"[[keyframe]]\nstep = 1.5\nmodel.decay = 0.2\n", "p.toml:4: keyframe.0.step: must be an integer"},
      {"[[keyframe]]\nstep = 10\nmodel.decay = 0.2\n[[keyframe]]\nstep = 10\nmodel.decay = 0.3\n",
       "p.toml:7: keyframe.1.step: keyframes must come in increasing steps"},
      {"[[keyframe]]\nstep = 0\nease = \"bounce\"\nmodel.decay = 0.2\n",
       "p.toml:5: keyframe.0.ease: ease 'bounce' is not one of: linear, smoothstep, hold"},
      {"[[keyframe]]\nstep = 0\nease = 1\nmodel.decay = 0.2\n",
       "p.toml:5: keyframe.0.ease: expected a string"},
      {"[[keyframe]]\nstep = 0\nmodel.decayy = 0.2\n", "p.toml:5: keyframe.0.model.decayy: unknown key"},
      {"[[keyframe]]\nstep = 0\nrun.size = \"10x10\"\n",
       "p.toml:5: keyframe.0.run.size: cannot be keyframed"},
      {"[[keyframe]]\nstep = 0\nspawn.mode = \"disc\"\n",
       "p.toml:5: keyframe.0.spawn.mode: cannot be keyframed"},
      {"[[keyframe]]\nstep = 0\nmodel.decay = 2\n",
       "p.toml:5: keyframe.0.model.decay: model.decay = 2 is out of range"},
      {"[[keyframe]]\nstep = 0\nmodel.decay = \"x\"\n",
       "p.toml:5: keyframe.0.model.decay: expected a number"},
      {"[[keyframe]]\nstep = 0\ndisplay.palette = 3\n",
       "p.toml:5: keyframe.0.display.palette: expected a string"},
      {"[[keyframe]]\nstep = 0\ndisplay.levels = 40\n",
       "p.toml:5: keyframe.0.display.levels: display.levels = 40 is out of range: allowed 2 to 16"},
      {"[[keyframe]]\nstep = 0\nmodel.turn_rule = \"spin\"\n",
       "p.toml:5: keyframe.0.model.turn_rule: model.turn_rule 'spin' is not one of"},
      {"[[keyframe]]\nstep = 0\n", "p.toml:3: keyframe.0: sets no keys"},
      {"[[keyframe]]\nstep = 0\nmodel.decay = 1e-50\n", "p.toml:5: keyframe.0.model.decay: is too small"},
      {"[[keyframe]]\nstep = 1000000000001\nmodel.decay = 0.2\n", "p.toml:4: keyframe.0.step: must be"},
  };
  for (const Case& c : cases) {
    const std::string err = error_of(head + c.body);
    EXPECT_EQ(err.rfind(c.want, 0), 0u) << c.body << "\n got: " << err;
  }
  EXPECT_EQ(error_of("keyframe = 3\n" + head)
                .rfind("p.toml:1: keyframe: must be written as [[keyframe]] tables", 0),
            0u)
      << error_of("keyframe = 3\n" + head);
  // A preset with [[species]] keyframes its species' keys, not [model]'s.
  const std::string species = "[[species]]\nname = \"a\"\n[[keyframe]]\nstep = 0\nmodel.decay = 0.2\n";
  EXPECT_EQ(error_of(species).rfind("p.toml:5: keyframe.0.model.decay: unknown key", 0), 0u)
      << error_of(species);
  const std::string share = "[[species]]\nname = \"a\"\n[[keyframe]]\nstep = 0\nspecies.0.share = 2\n";
  EXPECT_EQ(error_of(share).rfind("p.toml:5: keyframe.0.species.0.share: cannot be keyframed", 0), 0u)
      << error_of(share);
  const std::string missing = "[[species]]\nname = \"a\"\n[[keyframe]]\nstep = 0\nspecies.3.decay = 0.2\n";
  EXPECT_EQ(error_of(missing).rfind("p.toml:5: keyframe.0.species.3.decay: unknown key", 0), 0u)
      << error_of(missing);
}

namespace {

std::vector<float> keyframed_field(BackendKind kind, const Preset& p, uint64_t steps) {
  auto b = create_backend(kind, config_from(p, 2));
  Preset live = p;
  step_with_keyframes(*b, live, steps);
  std::vector<float> f;
  b->read_field(f);
  return f;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// kStory's decay before step s, worked out from docs/MODEL.md by hand rather than by preset_at: 0.02
// holds until step 10, a smoothstep to 0.04 by step 20, a hold to step 30, then 0.08.
float story_decay(uint64_t s) {
  if (s < 10) return 0.02f;
  if (s >= 30) return 0.08f;
  if (s >= 20) return 0.04f;
  const double t = static_cast<double>(s - 10) / 10.0;
  const double w = t * t * (3.0 - 2.0 * t);
  return static_cast<float>(static_cast<double>(0.02f) +
                            (static_cast<double>(0.04f) - static_cast<double>(0.02f)) * w);
}

}  // namespace

TEST(Keyframes, ParametersApplyBeforeEachStep) {
  const Preset p = parse_preset(kStory, "story.toml");
  const std::vector<float> keyed = keyframed_field(BackendKind::Cpu, p, 40);
  // The same run by hand: before step s, the decay of story_decay(s); the deposit is 2 throughout
  // (its only keyframe, at step 20, holds from the start).
  auto b = create_backend(BackendKind::Cpu, config_from(p, 2));
  for (uint64_t s = 0; s < 40; ++s) {
    ModelParams m = p.model;
    m.decay = story_decay(s);
    m.deposit = 2.0f;
    b->set_model(m);
    b->step(1);
  }
  std::vector<float> by_hand;
  b->read_field(by_hand);
  EXPECT_TRUE(same_bits(keyed, by_hand));
  // And the keyframes matter: without them the field differs.
  Preset plain = p;
  plain.keyframes.clear();
  EXPECT_FALSE(same_bits(keyed, keyframed_field(BackendKind::Cpu, plain, 40)));
}

TEST(Keyframes, KeyframedRunRepeatsBitForBit) {
  const Preset p = parse_preset(kStory, "story.toml");
  EXPECT_TRUE(same_bits(keyframed_field(BackendKind::Cpu, p, 45), keyframed_field(BackendKind::Cpu, p, 45)));
  // In pieces of any size (as the window and render call it) the same bits.
  auto b = create_backend(BackendKind::Cpu, config_from(p, 1));
  Preset live = p;
  for (uint64_t n : {3u, 7u, 1u, 20u, 14u}) step_with_keyframes(*b, live, n);
  std::vector<float> pieces;
  b->read_field(pieces);
  EXPECT_TRUE(same_bits(pieces, keyframed_field(BackendKind::Cpu, p, 45)));
  EXPECT_EQ(live.display.palette, "viridis");  // `live` follows the keyframes
  EXPECT_EQ(live.model.decay, 0.08f);
}

TEST(Keyframes, CudaMatchesCpuBitForBit) {
  if (!cuda_built()) GTEST_SKIP() << "built without the CUDA backend (no nvcc at configure)";
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  Preset p = parse_preset(kStory, "story.toml");
  p.run.size = {256, 192};
  p.run.agents = 20000;
  EXPECT_TRUE(same_bits(keyframed_field(BackendKind::Cuda, p, 45), keyframed_field(BackendKind::Cpu, p, 45)));
}

TEST(KeyframesE2e, RunCommandFollowsKeyframesAndRepeats) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "story.toml", kStory);
  const std::vector<std::string> args = {"run", "--preset", "story.toml", "--backend",
                                         "cpu", "--steps",  "40"};
  auto with_out = [&](const std::string& out) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--out", out});
    return test::run_physarum(a, dir);
  };
  ASSERT_EQ(with_out("a.npy").exit_code, 0);
  ASSERT_EQ(with_out("b.npy").exit_code, 0);
  const std::string a = test::read_file(dir / "a.npy");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, test::read_file(dir / "b.npy"));
  // The field equals the library's keyframed run.
  const std::vector<float> want = keyframed_field(BackendKind::Cpu, parse_preset(kStory, "s"), 40);
  ASSERT_GE(a.size(), want.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(a.data() + a.size() - want.size() * sizeof(float), want.data(),
                        want.size() * sizeof(float)),
            0);
}

namespace {

float busy_decay(uint64_t s) {
  return 0.01f + 0.001f * static_cast<float>(s % 7);
}

}  // namespace

// The most keyframes a preset may hold, each naming every keyframable key and holding its values for
// eight steps, stepped one step per call (as the window and Python may) and then in one call (as
// render does): the segments were found by scanning every value of every keyframe for each key at
// every step (a minute or more here); a few seconds is generous.
TEST(Keyframes, SteppingThousandsOfKeyframesCostsLittlePerStep) {
  constexpr uint64_t kEvery = 8;
  constexpr uint64_t kSteps = kMaxKeyframes * kEvery;
  Preset p;
  p.run.size = {16, 12};
  p.run.agents = 50;
  p.run.seed = 3;
  Preset at = p;
  for (uint64_t k = 0; k < kMaxKeyframes; ++k) {
    at.model.decay = busy_decay(k);
    p.keyframes.push_back(capture_keyframe(at, k * kEvery, Ease::Hold));
  }
  validate_keyframes(p);
  ASSERT_GT(p.keyframes.front().values.size(), 10u);
  auto keyed = create_backend(BackendKind::Cpu, config_from(p, 1));
  Preset live = p;
  const double start = test::process_cpu_seconds();
  // A call costs one pass over the values; each step in it a binary search per key.
  for (uint64_t s = 0; s < 64; ++s) step_with_keyframes(*keyed, live, 1);
  step_with_keyframes(*keyed, live, kSteps - 64);
  EXPECT_LT(test::process_cpu_seconds() - start, 5.0);
  // The same run by hand: each keyframe holds its value for its eight steps.
  auto by_hand = create_backend(BackendKind::Cpu, config_from(p, 1));
  for (uint64_t s = 0; s < kSteps; ++s) {
    ModelParams m = p.model;
    m.decay = busy_decay(s / kEvery);
    by_hand->set_model(m);
    by_hand->step(1);
  }
  std::vector<float> a, b;
  keyed->read_field(a);
  by_hand->read_field(b);
  EXPECT_TRUE(same_bits(a, b));
  EXPECT_EQ(live.model.decay, busy_decay(kMaxKeyframes - 1));
}

// A value that is fine alone but breaks the rest of the preset is refused when the preset loads,
// not when its step is reached mid-run.
TEST(Keyframes, AValueThatBreaksThePresetIsRefusedWhenItLoads) {
  const std::string one_species =
      "[model]\ndecay = 0.1\n[[keyframe]]\nstep = 500\ndisplay.cave_channel = 2\n";
  EXPECT_EQ(error_of(one_species)
                .rfind("keyframe.0.display.cave_channel: display.cave_channel must be -1 (the sum) "
                       "or a species' channel, 0 to 0 (got 2)",
                       0),
            0u)
      << error_of(one_species);
  const std::string two_species =
      "[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\n[[keyframe]]\nstep = 9\ndisplay.cave_channel = "
      "1\n";
  EXPECT_EQ(error_of(two_species), "");
}
