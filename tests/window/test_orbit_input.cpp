// The mouse on a volume's picture (window/orbit_input.hpp) without a window: a drag turns the
// camera by the angle its length in pixels says, the wheel moves it nearer or farther by a fixed
// factor a notch, a middle drag carries the point under the mouse along with it, and R brings back
// the registry's 3/4 view.
#include <gtest/gtest.h>

#include <cmath>

#include "render/orbit_camera.hpp"
#include "sim/keyframes.hpp"
#include "sim/registry.hpp"
#include "window/orbit_input.hpp"

namespace physarum::app {
namespace {

constexpr render::Area kArea{420, 0, 860, 720};  // beside the panel of a 1280x720 window

TEST(OrbitInput, ADragOfNPixelsTurnsTheCameraByHalfATurnPerPictureHeight) {
  DisplayParams d;
  d.camera_yaw_deg = 10.0f;
  d.camera_pitch_deg = 5.0f;
  orbit_rotate(d, 72.0f, 0.0f, kArea);  // a tenth of the height to the right: 18 degrees
  EXPECT_FLOAT_EQ(d.camera_yaw_deg, 10.0f + 18.0f);
  EXPECT_FLOAT_EQ(d.camera_pitch_deg, 5.0f);
  orbit_rotate(d, 0.0f, 36.0f, kArea);  // down: seen more from above, by 9 degrees
  EXPECT_FLOAT_EQ(d.camera_pitch_deg, 14.0f);
  // The yaw goes round; the pitch stops at the registry's limit, never over the pole.
  orbit_rotate(d, 1000.0f, 0.0f, kArea);  // 250 degrees more
  EXPECT_FLOAT_EQ(d.camera_yaw_deg, 28.0f + 250.0f - 360.0f);
  orbit_rotate(d, 0.0f, 10000.0f, kArea);
  EXPECT_FLOAT_EQ(d.camera_pitch_deg,
                  static_cast<float>(registry::find(registry::Section::Display, "camera_pitch_deg")->hi));
  // Dragging right moves the camera's eye toward the picture's left (-x at yaw 0): the volume's
  // near side follows the mouse.
  DisplayParams front;
  front.camera_yaw_deg = 0.0f;
  front.camera_pitch_deg = 0.0f;
  const Size v{32, 32, 32};
  const float x_before = render::OrbitCamera(front, v).eye().x;
  orbit_rotate(front, 20.0f, 0.0f, kArea);
  EXPECT_LT(render::OrbitCamera(front, v).eye().x, x_before);
}

TEST(OrbitInput, EachNotchOfTheWheelMovesTheCameraByAFixedFactorWithinItsRange) {
  DisplayParams d;
  d.camera_distance = 2.0f;
  orbit_zoom(d, 1.0f);
  EXPECT_FLOAT_EQ(d.camera_distance, 2.0f / 1.15f);
  orbit_zoom(d, -2.0f);
  EXPECT_NEAR(d.camera_distance, 2.0f * 1.15f, 1e-5f);
  const registry::Param& p = *registry::find(registry::Section::Display, "camera_distance");
  orbit_zoom(d, 1000.0f);
  EXPECT_FLOAT_EQ(d.camera_distance, static_cast<float>(p.lo));
  orbit_zoom(d, -1000.0f);
  EXPECT_FLOAT_EQ(d.camera_distance, static_cast<float>(p.hi));
}

TEST(OrbitInput, AMiddleDragCarriesWhatIsAtTheTargetAlongWithTheMouse) {
  const Size v{48, 32, 24};
  for (const float yaw : {0.0f, 35.0f, -120.0f}) {
    DisplayParams d;
    d.camera_yaw_deg = yaw;
    d.camera_pitch_deg = 25.0f;
    const render::Vec3 old_target = render::OrbitCamera(d, v).target();
    orbit_pan(d, 40.0f, -25.0f, kArea, v);
    // The world point that was at the centre of the picture is now 40 pixels right, 25 up.
    float px = 0, py = 0;
    ASSERT_TRUE(render::OrbitCamera(d, v).project(old_target, kArea, px, py));
    EXPECT_NEAR(px, kArea.center_x() + 40.0f, 0.05f) << "yaw " << yaw;
    EXPECT_NEAR(py, kArea.center_y() - 25.0f, 0.05f) << "yaw " << yaw;
    // The camera turned no further.
    EXPECT_EQ(d.camera_yaw_deg, yaw);
    EXPECT_EQ(d.camera_pitch_deg, 25.0f);
  }
}

TEST(OrbitInput, RBringsBackTheRegistrysDefaultViewAndKeepsTheRest) {
  DisplayParams d;
  d.camera_yaw_deg = 170.0f;
  d.camera_pitch_deg = -60.0f;
  d.camera_distance = 7.0f;
  d.camera_fov_deg = 90.0f;
  d.camera_target_x = 0.1f;
  d.camera_target_z = 0.9f;
  d.iso_level = 0.25f;
  d.palette = "viridis";
  orbit_reset(d);
  const DisplayParams defaults;
  EXPECT_EQ(d.camera_yaw_deg, defaults.camera_yaw_deg);
  EXPECT_EQ(d.camera_pitch_deg, defaults.camera_pitch_deg);
  EXPECT_EQ(d.camera_distance, defaults.camera_distance);
  EXPECT_EQ(d.camera_fov_deg, defaults.camera_fov_deg);
  EXPECT_EQ(d.camera_target_x, defaults.camera_target_x);
  EXPECT_EQ(d.camera_target_z, defaults.camera_target_z);
  // A 3/4 view: turned and lifted, neither face-on nor from above.
  EXPECT_GT(std::abs(d.camera_yaw_deg), 10.0f);
  EXPECT_GT(d.camera_pitch_deg, 10.0f);
  EXPECT_LT(d.camera_pitch_deg, 80.0f);
  EXPECT_EQ(d.iso_level, 0.25f);
  EXPECT_EQ(d.palette, "viridis");
}

TEST(OrbitInput, ATurntableIsOneWholeTurnOfYawKeyframesFromNow) {
  Preset p;
  p.display.camera_yaw_deg = 35.0f;
  p.keyframes = {Keyframe{10, Ease::Linear, {{"model.decay", 0.02f}}}};
  add_turntable(p, 10, 100);
  ASSERT_EQ(p.keyframes.size(), 2u);
  EXPECT_EQ(p.keyframes[0].step, 10u);
  EXPECT_EQ(p.keyframes[0].values.size(), 2u);  // the decay stays beside the yaw
  EXPECT_EQ(p.keyframes[1].step, 110u);
  // Halfway, half a turn; at the end the whole turn (the picture as at the start).
  Preset at = p;
  KeyframeTimeline timeline(p);
  timeline.apply(at, 60);
  EXPECT_FLOAT_EQ(at.display.camera_yaw_deg, 35.0f + 180.0f);
  timeline.apply(at, 110);
  EXPECT_FLOAT_EQ(at.display.camera_yaw_deg, 35.0f + 360.0f);
  // Bad input changes nothing.
  const Preset before = p;
  EXPECT_THROW(add_turntable(p, 5, 0), Error);
  EXPECT_THROW(add_turntable(p, kMaxKeyframeStep, 10), Error);
  EXPECT_EQ(p, before);
}

}  // namespace
}  // namespace physarum::app
