// Values typed into the panel (Dear ImGui's Ctrl+click takes any number, NaN and inf included):
// every panel value goes through settle() with hostile input and lands in its range; the model is
// refused with a toast before the backend sees it; the brush, the image strength and the display
// survive anything; an exception inside the panel becomes a toast and the ImGui frame still ends.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "render/field_renderer.hpp"
#include "run/seeding.hpp"
#include "sim/backend.hpp"
#include "sim/png_writer.hpp"
#include "test_support.hpp"
#include "window/brush.hpp"
#include "window/panel.hpp"
#include "window/panel_values.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"
#include "window_support.hpp"

namespace physarum::app {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

bool has_error_toast(const Toasts& t, const std::string& part) {
  for (const auto& e : t.entries()) {
    if (e.error && e.text.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(PanelValues, EveryFloatValueIsClampedAndNaNIsRefused) {
  std::vector<FloatLimit> all(limits::kAllFloat.begin(), limits::kAllFloat.end());
  const std::vector<FloatLimit> params = registry_float_limits();
  ASSERT_GE(params.size(), 13u);  // the model's 8 floats, exposure, gamma, threshold, field_strength, W
  all.insert(all.end(), params.begin(), params.end());
  for (const FloatLimit& lim : all) {
    SCOPED_TRACE(lim.name);
    ASSERT_LT(lim.lo, lim.hi);
    const float mid = 0.5f * (lim.lo + lim.hi);
    for (const float typed : {kInf, -kInf, 1e30f, -1e30f, lim.hi + 1.0f, lim.lo - 1.0f,
                              std::numeric_limits<float>::denorm_min(), -0.0f}) {
      float value = mid;
      std::string refusal;
      settle(typed, value, lim, &refusal);
      EXPECT_TRUE(value >= lim.lo && value <= lim.hi) << "typed " << typed << " gave " << value;
      EXPECT_TRUE(refusal.empty()) << refusal;
    }
    float value = mid;
    EXPECT_EQ(settle(kInf, value, lim), lim.hi != mid);
    EXPECT_EQ(value, lim.hi);
    settle(-kInf, value, lim);
    EXPECT_EQ(value, lim.lo);
    // NaN: refused, the value kept, and the reason names the value.
    value = mid;
    std::string refusal;
    EXPECT_FALSE(settle(kNaN, value, lim, &refusal));
    EXPECT_EQ(value, mid);
    EXPECT_NE(refusal.find(lim.name), std::string::npos) << refusal;
    // A value in range is taken as typed.
    EXPECT_TRUE(settle(mid, value = lim.lo, lim));
    EXPECT_EQ(value, mid);
  }
}

TEST(PanelValues, EveryIntValueIsClamped) {
  for (const IntLimit& lim : limits::kAllInt) {
    SCOPED_TRACE(lim.name);
    for (const int typed :
         {std::numeric_limits<int>::max(), std::numeric_limits<int>::min(), -1, 0, 100, 1'000'000'000}) {
      int value = lim.lo;
      settle(typed, value, lim);
      EXPECT_TRUE(value >= lim.lo && value <= lim.hi) << "typed " << typed << " gave " << value;
    }
  }
  // The cave levels can never index past the thresholds array, nor smoothing run unbounded.
  int levels = 5, smoothing = 0;
  settle(100, levels, int_slider_limit(registry::Section::Display, "levels"));
  settle(1'000'000'000, smoothing, int_slider_limit(registry::Section::Display, "smoothing"));
  EXPECT_EQ(levels, render::kMaxLevels);
  EXPECT_LE(levels - 1, render::kMaxThresholds);
  EXPECT_EQ(smoothing, render::kMaxSmoothing);
}

const FloatLimit& model_limit(std::string_view key) {
  return slider_limit(registry::Section::Model, key);
}

TEST(PanelValues, ModelValuesAreClampedOrRefusedBeforeTheBackend) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  Toasts toasts;
  const ModelParams before = core.backend().model();

  // The panel's path: the widget's value through settle(), then apply_model_edit().
  ModelParams m = core.preset.model;
  std::string refusal;
  EXPECT_FALSE(settle(kNaN, m.decay, model_limit("decay"), &refusal));
  EXPECT_FALSE(refusal.empty());
  settle(kInf, m.sensor_distance, model_limit("sensor_distance"));
  settle(-kInf, m.deposit, model_limit("deposit"));
  settle(1e9f, m.jitter, model_limit("jitter"));
  ASSERT_TRUE(apply_model_edit(core, m, toasts));
  EXPECT_EQ(core.backend().model().decay, before.decay);
  EXPECT_EQ(core.backend().model().sensor_distance, model_limit("sensor_distance").hi);
  EXPECT_EQ(core.backend().model().deposit, 0.0f);
  EXPECT_EQ(core.backend().model().jitter, model_limit("jitter").hi);
  core.step();

  // Whatever slips past settle() meets sim's validation: refused with a toast, nothing changed.
  const ModelParams applied = core.backend().model();
  for (const float bad : {kNaN, kInf, -1.0f, 1e9f}) {
    ModelParams raw = applied;
    raw.sensor_angle_deg = bad;
    Toasts t;
    EXPECT_FALSE(apply_model_edit(core, raw, t)) << bad;
    EXPECT_TRUE(has_error_toast(t, "sensor_angle")) << bad;
    EXPECT_EQ(core.backend().model(), applied);
    EXPECT_EQ(core.preset.model, applied);
  }
  core.step();
}

TEST(PanelValues, TheBrushTakesAnyTypedSettingWithoutThrowing) {
  Preset p;
  p.run.size = {64, 48};
  p.run.agents = 500;
  auto backend = create_backend(BackendKind::Cpu, config_from(p, 1));
  const render::View view;
  for (const float bad : {kInf, -kInf, -5.0f, kNaN, 1e30f, 0.0f}) {
    for (const int which : {0, 1, 2}) {
      BrushSettings b;
      (which == 0 ? b.radius : which == 1 ? b.strength : b.erase) = bad;
      for (const bool erase : {false, true}) {
        SCOPED_TRACE(testing::Message() << "value " << bad << " in setting " << which << " erase " << erase);
        const auto stroke = brush_stroke_at(view, 320, 240, 640, 480, p.run.size, b, erase);
        ASSERT_TRUE(stroke.has_value());
        EXPECT_TRUE(std::isfinite(stroke->radius) && stroke->radius >= 0 && stroke->radius <= 64.0f);
        EXPECT_TRUE(std::isfinite(stroke->amount) && std::fabs(stroke->amount) <= kMaxBrushAmount);
        EXPECT_NO_THROW(backend->brush(*stroke));
        EXPECT_NO_THROW(for (const auto& dab : brush_segment(*stroke, *stroke)) backend->brush(dab));
      }
    }
  }
  std::vector<float> field;
  backend->read_field(field);
  for (const float v : field) ASSERT_TRUE(std::isfinite(v));
}

TEST(PanelValues, AnImageStrengthTheModelRefusesIsAMessageNotAnException) {
  const auto dir = test::temp_dir();
  std::vector<uint8_t> rgba(32 * 32 * 4, 200);
  const auto file = dir / "grey.png";
  write_png_rgba(file, rgba.data(), 32, 32);
  Preset p;
  p.run.size = {64, 48};
  p.run.agents = 500;
  auto backend = create_backend(BackendKind::Cpu, config_from(p, 1));
  backend->step(3);
  std::vector<float> before, after;
  backend->read_field(before);
  for (const float bad : {kInf, kNaN, -1.0f, 1e31f}) {
    Preset q = p;
    q.spawn.field_strength = bad;
    std::string msg;
    bool seeded = true;
    EXPECT_NO_THROW(seeded = run::seed_from_image(*backend, q, file, ImageFit::Fill, &msg)) << bad;
    EXPECT_FALSE(seeded) << bad;
    EXPECT_NE(msg.find("field_strength"), std::string::npos) << msg;
    backend->read_field(after);
    EXPECT_EQ(before, after) << bad;
  }
  // The largest strength the panel offers seeds as usual.
  Preset q = p;
  q.spawn.field_strength = slider_limit(registry::Section::Spawn, "field_strength").hi;
  std::string msg;
  EXPECT_TRUE(run::seed_from_image(*backend, q, file, ImageFit::Fill, &msg)) << msg;
}

// A headless ImGui frame: no window and no renderer backend, only a built font atlas.
TEST(PanelValues, AnExceptionInsideThePanelBecomesAToastAndTheFrameStillEnds) {
  test::HeadlessImGui imgui(1280, 800);
  Toasts toasts;
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::NewFrame();
    run_panel_guarded(toasts, [] {
      ImGui::Begin("panel");
      ImGui::PushID("scope");
      ImGui::SetNextItemOpen(true);
      ImGui::TreeNode("node");
      ImGui::BeginDisabled();
      throw Error("brush: radius inf is out of range");
    });
    ImGui::Render();  // ImGui asserts here on a frame left unbalanced
    EXPECT_NE(ImGui::GetDrawData(), nullptr);
  }
  EXPECT_TRUE(has_error_toast(toasts, "radius inf"));
}

TEST(PanelValues, HostileValuesInTheLiveStateDrawAPanelAndASaneFrame) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  test::HeadlessImGui imgui(1280, 800);
  PanelState st;
  Toasts toasts;
  test::Fbo fbo(200, 150);
  // Values the panel's widgets could have held before this change, in every cave mode.
  for (const CaveMode cave : {CaveMode::Off, CaveMode::Even, CaveMode::Quantile, CaveMode::Binary}) {
    DisplayParams& d = core.preset.display;
    d.cave = cave;
    d.levels = 100;
    d.smoothing = 1'000'000'000;
    d.gamma = 0.0f;
    d.exposure = kNaN;
    d.threshold = kInf;
    core.steps_per_frame = 1'000'000;
    ImGui::NewFrame();
    draw_panel(core, st, toasts);
    ImGui::Render();
    core.step();
    core.render(200, 150);
    ASSERT_NO_THROW(render::check_gl("a frame with hostile display values"));
    const auto hostile = render::read_framebuffer_rgba(200, 150);
    // The same field drawn with the values clamped by hand: the renderer drew exactly that.
    const DisplayParams typed = d;
    d = render::drawable_display(typed);
    EXPECT_EQ(d.levels, render::kMaxLevels);
    EXPECT_EQ(d.smoothing, render::kMaxSmoothing);
    EXPECT_EQ(d.gamma, render::kMinGamma);
    EXPECT_EQ(d.exposure, DisplayParams{}.exposure);
    core.render(200, 150);
    EXPECT_EQ(render::read_framebuffer_rgba(200, 150), hostile) << "cave mode " << static_cast<int>(cave);
    size_t differ = 0;  // not one flat colour (all black, all NaN)
    for (size_t i = 4; i < hostile.size(); i += 4) differ += std::memcmp(&hostile[i], &hostile[0], 3) != 0;
    EXPECT_GT(differ, hostile.size() / 4 / 100) << "cave mode " << static_cast<int>(cave);
  }
  EXPECT_EQ(core.backend().steps_done(), 4u * 64u) << "steps per frame are bounded";
}

}  // namespace
}  // namespace physarum::app
