// MIDI knobs without a device: a control change's value along a slider's range, learn mode binding
// the key the panel edited to the knob turned, the bindings file, and bound knobs moving a running
// WindowCore (EGL) through the same commands as OSC.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gl_support.hpp"
#include "remote/midi_map.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "test_support.hpp"
#include "window/history.hpp"
#include "window/midi_control.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

const registry::Param& param(registry::Section s, std::string_view name) {
  const registry::Param* p = registry::find(s, name);
  EXPECT_NE(p, nullptr) << name;
  return *p;
}

TEST(MidiMap, AKnobSpansTheSlidersRange) {
  using S = registry::Section;
  // diffuse: a linear slider 0..1; 0 and 127 are its ends, 64 just past the middle.
  EXPECT_EQ(value_for_cc(param(S::Model, "diffuse"), 0), Value(0.0f));
  EXPECT_EQ(value_for_cc(param(S::Model, "diffuse"), 127), Value(1.0f));
  EXPECT_EQ(value_for_cc(param(S::Model, "diffuse"), 64), Value(static_cast<float>(64.0 / 127.0)));
  // exposure: a log slider 0.01..100; the middle of the knob is the geometric middle, 1.
  EXPECT_EQ(value_for_cc(param(S::Display, "exposure"), 0), Value(0.01f));
  EXPECT_EQ(value_for_cc(param(S::Display, "exposure"), 127), Value(100.0f));
  const float mid = std::get<float>(value_for_cc(param(S::Display, "exposure"), 64));
  EXPECT_NEAR(mid, std::pow(10.0, -2.0 + 4.0 * 64.0 / 127.0), 1e-4);
  // decay: a log slider from 0 starts at 0 and rises along the curve.
  EXPECT_EQ(value_for_cc(param(S::Model, "decay"), 0), Value(0.0f));
  EXPECT_EQ(value_for_cc(param(S::Model, "decay"), 127), Value(1.0f));
  EXPECT_LT(std::get<float>(value_for_cc(param(S::Model, "decay"), 32)), 0.01f);
  // levels 2..16, whole numbers; invert on from 64; mapping's two choices split the travel.
  EXPECT_EQ(value_for_cc(param(S::Display, "levels"), 0), Value(int64_t{2}));
  EXPECT_EQ(value_for_cc(param(S::Display, "levels"), 127), Value(int64_t{16}));
  EXPECT_EQ(value_for_cc(param(S::Display, "invert"), 63), Value(false));
  EXPECT_EQ(value_for_cc(param(S::Display, "invert"), 64), Value(true));
  EXPECT_EQ(value_for_cc(param(S::Display, "mapping"), 63), Value(std::string("linear")));
  EXPECT_EQ(value_for_cc(param(S::Display, "mapping"), 64), Value(std::string("log")));
  // No slider: no knob.
  EXPECT_NE(
      test::error_of([] { (void)value_for_cc(param(S::Display, "palette"), 3); }).find("display.palette"),
      std::string::npos);
  // Every slider's knob gives values its parameter accepts, at every position.
  for (const registry::Param& p : registry::params()) {
    if (!(p.ui_hi > p.ui_lo) || (p.type != registry::Type::Float && p.type != registry::Type::Int)) continue;
    for (int cc = 0; cc < 128; ++cc)
      EXPECT_NO_THROW(registry::check(p, value_for_cc(p, cc), std::string(p.name)));
  }
}

TEST(MidiMap, LearnBindsTheEditedKeyToTheTurnedKnobInEitherOrder) {
  MidiMap m;
  EXPECT_EQ(m.learn_key("model.decay"), std::nullopt);  // not learning: nothing
  m.learn(true);
  EXPECT_EQ(m.learn_key("model.decay"), std::nullopt);
  EXPECT_EQ(m.learn_key("model.deposit"), std::nullopt);  // the last edit counts
  const auto b = m.learn_control(0, 21);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*b, (MidiBinding{0, 21, "model.deposit"}));
  EXPECT_FALSE(m.learning());
  m.learn(true);
  EXPECT_EQ(m.learn_control(2, 7), std::nullopt);
  EXPECT_EQ(m.learn_key("display.exposure"), (MidiBinding{2, 7, "display.exposure"}));
  // Binding the knob again, or the key to another knob, replaces the older binding.
  m.bind({0, 21, "model.diffuse"});
  m.bind({5, 1, "display.exposure"});
  EXPECT_EQ(m.bindings(), (std::vector<MidiBinding>{{0, 21, "model.diffuse"}, {5, 1, "display.exposure"}}));
  ASSERT_NE(m.find(5, 1), nullptr);
  EXPECT_EQ(m.find(5, 1)->key, "display.exposure");
  EXPECT_EQ(m.find(2, 7), nullptr);
}

TEST(MidiMap, BindingsRoundTripThroughTheirFileAndBadOnesAreNamed) {
  MidiMap m;
  m.bind({0, 21, "model.decay"});
  m.bind({15, 127, "species.1.deposit"});
  const std::string text = m.to_toml();
  EXPECT_NE(text.find("channel = 16\ncontroller = 127\nkey = \"species.1.deposit\""), std::string::npos)
      << text;
  EXPECT_EQ(MidiMap::from_toml(text, "midi.toml").bindings(), m.bindings());
  const auto error = [](const std::string& t) {
    return test::error_of([&] { (void)MidiMap::from_toml(t, "midi.toml"); });
  };
  EXPECT_NE(error("[[binding]]\nchannel = 17\ncontroller = 1\nkey = \"model.decay\"\n")
                .find("channel must be 1 to 16"),
            std::string::npos);
  EXPECT_NE(error("[[binding]]\nchannel = 1\ncontroller = 128\nkey = \"model.decay\"\n").find("controller"),
            std::string::npos);
  EXPECT_NE(error("[[binding]]\nchannel = 1\ncontroller = 1\nkey = \"a\\\"b\"\n").find("key must name"),
            std::string::npos);
  EXPECT_NE(error("[[binding]\n").find("midi.toml"), std::string::npos);
}

TEST(MidiControl, EditedKeyIsTheOneThatChanged) {
  Preset a;
  Preset b = a;
  EXPECT_EQ(edited_key(a, b), "");
  b.display.exposure = 2;
  EXPECT_EQ(edited_key(a, b), "display.exposure");
  const Preset two = parse_preset("[[species]]\nname = \"a\"\n[[species]]\nname = \"b\"\n", "two");
  Preset two_b = two;
  two_b.species.list[1].model.deposit = 4;
  EXPECT_EQ(edited_key(two, two_b), "species.1.deposit");
  EXPECT_EQ(edited_key(a, two), "");
}

TEST(MidiControl, LearnedKnobsMoveTheRunningWindowAndAreKeptInTheConfigFolder) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const auto dir = test::temp_dir();
  run::Recipe r;
  r.backend = "cpu";
  r.threads = 1;
  r.size = "64x48";
  r.agents = "2000";
  WindowCore core(r);
  test::Fbo fbo(64, 48);
  Toasts toasts;
  MidiControl midi(dir / "config" / "midi.toml", false);
  midi.map().learn(true);
  // The panel moved the diffuse slider; then a knob turns.
  const Preset before_panel = core.preset;
  ModelParams edited = core.preset.model;
  edited.diffuse = 0.5f;
  ASSERT_TRUE(core.apply_model(edited));
  midi.observe(before_panel, core.preset, toasts);
  EXPECT_FALSE(midi.apply({{3, 74, 10}}, core, toasts));  // learning: the knob is bound, not applied
  ASSERT_EQ(midi.map().bindings(), (std::vector<MidiBinding>{{3, 74, "model.diffuse"}}));
  EXPECT_EQ(core.preset.model.diffuse, 0.5f);
  // Turned again, it moves diffuse along its slider; another knob does nothing.
  EXPECT_TRUE(midi.apply({{3, 74, 127}, {3, 75, 100}}, core, toasts));
  EXPECT_EQ(core.preset.model.diffuse, 1.0f);
  EXPECT_TRUE(midi.editing());
  // The bindings were saved; a new session reads them.
  MidiControl again(dir / "config" / "midi.toml", false);
  EXPECT_EQ(again.map().bindings(), midi.map().bindings());
  EXPECT_TRUE(again.notice().empty()) << again.notice();
  // A key the preset lacks is refused with a toast, and nothing changes.
  again.map().bind({0, 1, "species.1.deposit"});
  const Preset before = core.preset;
  EXPECT_FALSE(again.apply({{0, 1, 64}}, core, toasts));
  EXPECT_EQ(core.preset, before);
  ASSERT_FALSE(toasts.entries().empty());
  EXPECT_NE(toasts.entries().back().text.find("MIDI CC 1 on channel 1 -> species.1.deposit"),
            std::string::npos)
      << toasts.entries().back().text;
}

}  // namespace
}  // namespace physarum::app
