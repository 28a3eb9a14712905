// A volume in the window without a window (EGL, Mesa's llvmpipe): a plane's window loads a volume
// preset, grows it as the run library grows it, draws it with the volume renderer (not the
// background), saves F12's picture and records it, and goes back to a plane.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "png_image.hpp"
#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "system/process.hpp"
#include "test_support.hpp"
#include "window/explore_previews.hpp"
#include "window/panel.hpp"
#include "window/panel_values.hpp"
#include "window/thumbnails.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"
#include "window/window_recording.hpp"
#include "window_support.hpp"

namespace physarum::app {
namespace {

std::string preset_file(const char* name) {
  return std::string(PHYSARUM_SOURCE_DIR) + "/assets/presets/" + name + ".toml";
}

// web-3d at a size the CPU grows in a test.
Preset small_volume() {
  Preset p = load_preset(preset_file("web-3d"));
  p.run.size = {24, 24, 24};
  p.run.agents = 6000;
  return p;
}

// The pixels of `rgba` that differ from its top-left corner's colour (the background).
size_t pixels_off_background(const std::vector<uint8_t>& rgba) {
  size_t n = 0;
  for (size_t i = 0; i < rgba.size(); i += 4) {
    const int d =
        std::abs(rgba[i] - rgba[0]) + std::abs(rgba[i + 1] - rgba[1]) + std::abs(rgba[i + 2] - rgba[2]);
    n += d > 24;
  }
  return n;
}

std::vector<uint8_t> drawn(WindowCore& core, int w, int h) {
  test::Fbo fbo(w, h);
  core.render(w, h);
  return render::read_framebuffer_rgba(w, h);
}

TEST(WindowVolume, APlaneWindowLoadsAVolumePresetGrowsAndDrawsItAndGoesBackToAPlane) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  ASSERT_FALSE(core.is_volume());
  const Preset v = small_volume();
  ASSERT_TRUE(core.apply_preset(v, preset_file("web-3d"))) << core.notice();
  ASSERT_TRUE(core.is_volume());
  EXPECT_EQ(core.field_size(), (Size{24, 24, 24}));
  EXPECT_EQ(core.agent_count(), 6000u);
  EXPECT_EQ(core.steps_done(), 0u);
  core.steps_per_frame = 3;
  for (int f = 0; f < 4; ++f) core.step();
  EXPECT_EQ(core.steps_done(), 12u);
  // The same bytes as the run library grows from the same preset (a timed step is a step).
  run::Run ref(run::with_base(test::small_window_recipe(), v));
  ref.step(12);
  std::vector<float> a, b;
  core.run().volume().read_field(a);
  ref.volume().read_field(b);
  EXPECT_EQ(a, b);
  // The first frame's steps were timed, stage by stage.
  EXPECT_EQ(core.stage_timings().samples, 1);
  EXPECT_GT(core.stage_timings().step_ms, 0.0);

  const std::vector<uint8_t> picture = drawn(core, 320, 180);
  EXPECT_GT(pixels_off_background(picture), 320u * 180u / 50u) << "the volume's picture is blank";
  // The camera is the display keys: turned half a turn, the picture changes.
  core.preset.display.camera_yaw_deg += 90.0f;
  EXPECT_NE(drawn(core, 320, 180), picture);

  // Back to a plane, which draws as a plane again.
  Preset plane = load_preset(preset_file("jones-2010"));
  plane.run.size = {96, 64};
  plane.run.agents = 3000;
  ASSERT_TRUE(core.apply_preset(plane, preset_file("jones-2010"))) << core.notice();
  ASSERT_FALSE(core.is_volume());
  EXPECT_EQ(core.backend().size(), (Size{96, 64}));
  for (int f = 0; f < 4; ++f) core.step();
  EXPECT_GT(pixels_off_background(drawn(core, 96, 64)), 96u * 64u / 50u);
}

// The words of one headless panel frame (every label and text, as ImGui's log takes them), and
// whether the frame told an error. ImGui ends a log with the window it ends in, so it goes to a
// file, which keeps what the panel's window wrote.
std::string panel_words(WindowCore& core, bool* error) {
  PanelState st;
  Toasts toasts;
  const std::filesystem::path log = test::temp_dir() / "panel.txt";
  for (int frame = 0; frame < 2; ++frame) {  // a window's first frame only measures its items
    std::filesystem::remove(log);
    ImGui::NewFrame();
    ImGui::LogToFile(0, log.c_str());  // 0: tree nodes stay as they are (closed ones stay closed)
    draw_panel(core, st, toasts);
    ImGui::LogFinish();
    ImGui::Render();
  }
  *error = false;
  for (const auto& e : toasts.entries()) *error |= e.error;
  return test::read_file(log);
}

TEST(WindowVolume, AVolumesPanelShowsItsKeysFromTheRegistryAndHidesWhatNeedsAPlane) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  test::HeadlessImGui imgui(1280, 4000);  // tall: every open section is drawn
  WindowCore core(test::small_window_recipe());
  bool error = false;
  const std::string plane = panel_words(core, &error);
  EXPECT_FALSE(error);
  ASSERT_TRUE(core.apply_preset(small_volume(), preset_file("web-3d"))) << core.notice();
  const std::string volume = panel_words(core, &error);
  EXPECT_FALSE(error);
  // Every display key the registry marks as a volume's, in words, and the model's volume keys.
  for (const registry::Param& p : registry::params()) {
    if (!p.volume_only || (p.section != registry::Section::Display && p.section != registry::Section::Model))
      continue;
    const std::string label = label_of(p);
    EXPECT_NE(volume.find(label), std::string::npos) << label << " is not in the volume's panel";
    EXPECT_EQ(plane.find(label), std::string::npos) << label << " is in the plane's panel";
  }
  EXPECT_NE(volume.find("Volume 24x24x24"), std::string::npos);
  EXPECT_NE(volume.find("Add turntable"), std::string::npos);
  EXPECT_NE(volume.find("show walls"), std::string::npos);  // the volume renderer's overlays
  EXPECT_NE(volume.find("a volume takes them from its preset"), std::string::npos);
  EXPECT_NE(plane.find("sensor angle"), std::string::npos) << "the log holds the panel's words";
  // What acts on a plane only.
  EXPECT_NE(plane.find("Seed image & brush"), std::string::npos);
  EXPECT_EQ(volume.find("Seed image & brush"), std::string::npos);
  EXPECT_EQ(volume.find("Network graph"), std::string::npos);
}

TEST(WindowVolume, AVolumePresetsThumbnailIsAPlaneAtItsDensityPerVoxel) {
  const Preset v = load_preset(preset_file("web-3d"));
  ASSERT_TRUE(v.run.size.volume());
  const run::Recipe r = preview_recipe(v, kThumbnailSize);
  EXPECT_EQ(r.size, "256x144");
  const double per_voxel = static_cast<double>(v.run.agents) / static_cast<double>(cells_of(v.run.size));
  EXPECT_EQ(std::stoll(r.agents), std::llround(per_voxel * 256.0 * 144.0));
}

TEST(WindowVolume, TheVolumeReachesThePictureThroughInteropOnCuda) {
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o = test::small_window_recipe();
  o.backend = "cuda";
  o.size = "32x32x32";
  o.agents = "20K";
  WindowCore core(o);
  ASSERT_TRUE(core.is_volume());
  EXPECT_EQ(core.backend_kind(), BackendKind::Cuda);
  for (int f = 0; f < 5; ++f) core.step();
  const std::vector<uint8_t> picture = drawn(core, 320, 180);
  EXPECT_TRUE(core.interop_active()) << core.interop_status();
  EXPECT_GT(pixels_off_background(picture), 320u * 180u / 50u) << "the volume's picture is blank";
  EXPECT_GT(core.stage_timings().step_ms, 0.0);
}

TEST(WindowVolume, AVolumePresetThatCannotBeMadeChangesNothing) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  core.step();
  const Preset before = core.preset;
  Preset bad = small_volume();
  bad.run.agents = 0;
  const CommandResult r = core.apply_preset(bad, preset_file("web-3d"));
  EXPECT_FALSE(r);
  EXPECT_NE(r.error().find("agents"), std::string::npos) << r.error();
  EXPECT_FALSE(core.is_volume());
  EXPECT_EQ(core.preset, before);
  EXPECT_EQ(core.steps_done(), 1u);
}

TEST(WindowVolume, F12AndTheRecordingOfAVolumeTakeItsPictureAtTheSizeTheWindowShowsIt) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o = test::small_window_recipe();
  o.size = "24x24x24";
  o.agents = "6000";
  WindowCore core(o);
  ASSERT_TRUE(core.is_volume());
  core.field_area = {100, 0, 221, 151};  // beside a panel; odd sides become even
  EXPECT_EQ(core.picture_size(321, 151), (Size{220, 150}));
  for (int f = 0; f < 5; ++f) core.step();
  {
    test::Fbo window(321, 151);
    core.render(321, 151);
  }
  const auto dir = test::temp_dir();
  const Size s = save_picture((dir / "f12.png").string(), core, 321, 151);
  EXPECT_EQ(s, (Size{220, 150}));
  const test::RgbaImage img = test::load_rgba_png(dir / "f12.png");
  ASSERT_EQ(img.w, 220);
  ASSERT_EQ(img.h, 150);
  EXPECT_GT(pixels_off_background(img.rgba), 220u * 150u / 50u) << "F12 saved a blank picture";

  // F9 with the field alone: the same picture, frame after frame, as PNG frames.
  if (!find_on_path("ffmpeg")) GTEST_SKIP() << "ffmpeg not installed: the recording is not checked";
  WindowRecording rec;
  const std::filesystem::path frames = dir / "take" / "%05d.png";
  rec.start(frames, RecordSource::Field, 30, Pacing::EveryFrame, core, 321, 151);
  for (int f = 0; f < 3; ++f) {
    core.step();
    {
      test::Fbo window(321, 151);
      core.render(321, 151);
    }
    rec.capture_field(core);
    EXPECT_TRUE(rec.poll().empty());
  }
  (void)rec.stop();
  const RecordingStatus st = rec.status();
  EXPECT_TRUE(st.rec.error.empty()) << st.rec.error;
  EXPECT_EQ(st.rec.video_width, 220);
  EXPECT_EQ(st.rec.video_height, 150);
  ASSERT_GT(st.rec.written, 0u);
  std::vector<std::filesystem::path> written;
  for (const auto& e : std::filesystem::directory_iterator(dir / "take")) written.push_back(e.path());
  ASSERT_EQ(written.size(), st.rec.written);
  const test::RgbaImage first = test::load_rgba_png(written.front());
  EXPECT_EQ(first.w, 220);
  EXPECT_GT(pixels_off_background(first.rgba), 220u * 150u / 50u) << "the recording's frame is blank";
}

TEST(WindowVolume, ATurntableOfCameraKeyframesTurnsTheCameraAsTheVolumeGrows) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o = test::small_window_recipe();
  o.size = "24x24x24";
  o.agents = "3000";
  WindowCore core(o);
  core.preset.keyframes = {Keyframe{0, Ease::Linear, {{"display.camera_yaw_deg", 0.0f}}},
                           Keyframe{40, Ease::Linear, {{"display.camera_yaw_deg", 360.0f}}}};
  core.steps_per_frame = 5;
  core.step();
  EXPECT_FLOAT_EQ(core.preset.display.camera_yaw_deg, 360.0f * 5.0f / 40.0f);
  core.step();
  EXPECT_FLOAT_EQ(core.preset.display.camera_yaw_deg, 360.0f * 10.0f / 40.0f);
}

}  // namespace
}  // namespace physarum::app
