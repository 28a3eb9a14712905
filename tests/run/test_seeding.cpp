// Seeding from an image (the drop handler), the brush (window position -> field cells under zoom
// and pan, and its effect on the field) and the preset library (save then load).
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "run/preset_library.hpp"
#include "run/seeding.hpp"
#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/brush.hpp"

namespace physarum::app {
namespace {

std::unique_ptr<Backend> small_cpu(const Preset& p) {
  return create_backend(BackendKind::Cpu, config_from(p, 1));
}

Preset small_preset(int w, int h, uint64_t agents) {
  Preset p;
  p.run.size = {w, h};
  p.run.agents = agents;
  p.run.seed = 5;
  return p;
}

// A w x h PNG: the left half white, the right half black.
std::filesystem::path half_white_png(const std::filesystem::path& dir, int w, int h) {
  std::vector<uint8_t> px(static_cast<size_t>(w) * h * 3, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w / 2; ++x)
      for (int c = 0; c < 3; ++c) px[(static_cast<size_t>(y) * w + x) * 3 + c] = 255;
  const auto file = dir / "half.png";
  EXPECT_TRUE(stbi_write_png(file.c_str(), w, h, 3, px.data(), 0));
  return file;
}

TEST(Seeding, CorruptImageGivesAMessageAndLeavesTheFieldUnchanged) {
  const auto dir = test::temp_dir();
  Preset p = small_preset(64, 48, 500);
  p.spawn.agents_from_image = true;
  auto b = small_cpu(p);
  b->step(10);
  std::vector<float> before, after;
  b->read_field(before);
  const AgentState agents_before = b->read_agents();
  // A PNG signature followed by garbage, and a file that does not exist.
  test::write_file(dir / "corrupt.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(200, 'x'));
  for (const auto& f : {dir / "corrupt.png", dir / "missing.png"}) {
    std::string msg;
    EXPECT_FALSE(run::seed_from_image(*b, p, f, ImageFit::Fill, &msg));
    EXPECT_NE(msg.find(f.filename().string()), std::string::npos) << msg;
    b->read_field(after);
    EXPECT_EQ(before, after);
    EXPECT_EQ(b->read_agents().x, agents_before.x);
  }
}

TEST(Seeding, FieldBecomesLuminanceTimesStrength) {
  const auto dir = test::temp_dir();
  Preset p = small_preset(64, 32, 100);
  p.spawn.field_strength = 7.5f;
  auto b = small_cpu(p);
  const auto file = half_white_png(dir, 64, 32);
  std::string msg;
  ASSERT_TRUE(run::seed_from_image(*b, p, file, ImageFit::Fill, &msg)) << msg;
  std::vector<float> f;
  b->read_field(f);
  // Away from the edge between the halves (the resize filter blends a few cells there).
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 64; ++x) {
      const float v = f[static_cast<size_t>(y) * 64 + x];
      if (x < 28) {
        EXPECT_NEAR(v, 7.5f, 1e-3f) << x << "," << y;
      } else if (x > 35) {
        EXPECT_NEAR(v, 0.0f, 1e-3f) << x << "," << y;
      }
    }
  }
}

TEST(Seeding, AgentsFromImageRespawnWhereTheImageIsBright) {
  const auto dir = test::temp_dir();
  Preset p = small_preset(64, 32, 2000);
  p.spawn.agents_from_image = true;
  auto b = small_cpu(p);
  const auto file = half_white_png(dir, 64, 32);
  std::string msg;
  ASSERT_TRUE(run::seed_from_image(*b, p, file, ImageFit::Fill, &msg)) << msg;
  const AgentState a = b->read_agents();
  ASSERT_EQ(a.size(), 2000u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_LT(a.x[i], 36.0f);  // none in the black half
}

TEST(Brush, WindowPositionMapsToFieldCellsUnderZoomAndPan) {
  // An 800x600 framebuffer shows a 200x100 field letterboxed at 4 px per cell; zoom 2 makes it 8.
  render::View v;
  v.zoom = 2.0f;
  v.center_x = 0.2f;  // cell 40 at the centre of the framebuffer
  v.center_y = 0.5f;  // cell 50
  const Size field{200, 100};
  BrushSettings s;
  s.radius = 3, s.strength = 2, s.erase = 9;
  auto st = brush_stroke_at(v, 400 + 80, 300 - 40, 800, 600, field, s, false);
  ASSERT_TRUE(st);
  EXPECT_FLOAT_EQ(st->x, 40 + 80 / 8.0f);
  EXPECT_FLOAT_EQ(st->y, 50 - 40 / 8.0f);
  EXPECT_FLOAT_EQ(st->radius, 3);
  EXPECT_FLOAT_EQ(st->amount, 2);
  st = brush_stroke_at(v, 400, 300, 800, 600, field, s, true);
  ASSERT_TRUE(st);
  EXPECT_FLOAT_EQ(st->amount, -9);
  // Left of the field's left edge (cell 40 - 400/8 = -10): nothing.
  EXPECT_FALSE(brush_stroke_at(v, 0, 300, 800, 600, field, s, false));
  // Zooming at a pixel keeps the cell under it there.
  const auto before = brush_stroke_at(v, 600, 200, 800, 600, field, s, false);
  v.zoom_at(1.7f, 600, 200, 800, 600, field);
  const auto after = brush_stroke_at(v, 600, 200, 800, 600, field, s, false);
  ASSERT_TRUE(before && after);
  EXPECT_NEAR(after->x, before->x, 1e-3f);
  EXPECT_NEAR(after->y, before->y, 1e-3f);
}

TEST(Brush, PaintsAndErasesWhereTheCursorIs) {
  Preset p = small_preset(80, 60, 1);
  auto b = small_cpu(p);  // a fresh field is all zero
  render::View v;         // 160x120 framebuffer: 2 px per cell, no zoom
  BrushSettings s;
  s.radius = 4, s.strength = 3, s.erase = 100;
  const auto st = brush_stroke_at(v, 2 * 20.5f, 2 * 30.5f, 160, 120, {80, 60}, s, false);
  ASSERT_TRUE(st);
  b->brush(*st);
  std::vector<float> f;
  b->read_field(f);
  const auto at = [&](int x, int y) { return f[static_cast<size_t>(y) * 80 + x]; };
  EXPECT_FLOAT_EQ(at(20, 30), 3.0f);
  EXPECT_FLOAT_EQ(at(24, 30), 3.0f);  // on the radius
  EXPECT_FLOAT_EQ(at(20, 26), 3.0f);
  EXPECT_FLOAT_EQ(at(25, 30), 0.0f);  // outside
  EXPECT_FLOAT_EQ(at(23, 33), 0.0f);  // 3^2 + 3^2 > 4^2
  EXPECT_FLOAT_EQ(at(60, 10), 0.0f);
  double sum = 0;
  for (float x : f) sum += x;
  int disc = 0;  // cells within the radius, counted independently
  for (int dy = -4; dy <= 4; ++dy)
    for (int dx = -4; dx <= 4; ++dx) disc += dx * dx + dy * dy <= 16;
  EXPECT_DOUBLE_EQ(sum, 3.0 * disc);
  b->brush(*brush_stroke_at(v, 2 * 21.5f, 2 * 30.5f, 160, 120, {80, 60}, s, true));
  b->read_field(f);
  EXPECT_FLOAT_EQ(at(20, 30), 0.0f);
  EXPECT_FLOAT_EQ(at(24, 30), 0.0f);
  EXPECT_FLOAT_EQ(at(16, 30), 3.0f);  // 5 cells left of the eraser's centre: untouched
}

TEST(PresetLibrary, SaveThenLoadGivesTheSameState) {
  const auto dir = test::temp_dir();
  Preset p = small_preset(48, 40, 800);
  p.model.decay = 0.037f;
  p.model.sensor_angle_deg = 33.25f;
  p.model.turn_rule = TurnRule::Jones;
  p.model.jitter = 0.1f;
  p.spawn.mode = SpawnMode::Disc;
  p.display.palette = "viridis";
  p.display.cave = CaveMode::Even;
  p.display.levels = 7;
  const auto file = run::save_user_preset(p, dir / "user", "my test preset");
  EXPECT_EQ(file, dir / "user" / "my test preset.toml");
  const Preset q = load_preset(file);
  EXPECT_EQ(q, p);
  // The same preset runs to the same field, bit for bit.
  auto a = small_cpu(p), b = small_cpu(q);
  a->step(30);
  b->step(30);
  std::vector<float> fa, fb;
  a->read_field(fa);
  b->read_field(fb);
  EXPECT_EQ(fa, fb);
  // It is listed as the user's, after the shipped ones.
  test::write_file(dir / "shipped.toml", "[model]\ndecay = 0.02\n");
  const auto list = run::list_presets(dir, dir / "user");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "shipped");
  EXPECT_FALSE(list[0].user);
  EXPECT_EQ(list[1].name, "my test preset");
  EXPECT_TRUE(list[1].user);
}

TEST(PresetLibrary, BadNamesAndBrokenFilesAreRefused) {
  const auto dir = test::temp_dir();
  for (const char* bad : {"", "../up", "a/b", ".hidden", "tab\tname"}) {
    EXPECT_THROW(run::save_user_preset(Preset{}, dir, bad), Error) << bad;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  test::write_file(dir / "broken.toml", "[model]\ndecay = \"lots\"\n");
  EXPECT_THROW(load_preset(dir / "broken.toml"), Error);
}

TEST(PresetLibrary, UserDirectoryFollowsXdgConfigHome) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CONFIG_HOME", "/some/where", 1);
  EXPECT_EQ(run::user_preset_dir(), std::filesystem::path("/some/where/physarum/presets"));
  ::unsetenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (home && *home) {
    EXPECT_EQ(run::user_preset_dir(), std::filesystem::path(home) / ".config/physarum/presets");
  }
  if (old) ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  EXPECT_TRUE(std::filesystem::exists(run::shipped_preset_dir() / "defaults.toml"));
}

}  // namespace
}  // namespace physarum::app

namespace physarum::app {

TEST(Brush, AFastDragPaintsAnUnbrokenLine) {
  const BrushStroke from{10.0f, 20.0f, 4.0f, 3.0f};
  const BrushStroke to{50.0f, 50.0f, 4.0f, 3.0f};  // 50 cells away in one frame
  const std::vector<BrushStroke> dabs = brush_segment(from, to);
  ASSERT_EQ(dabs.size(), 25u);  // ceil(50 / (radius / 2))
  BrushStroke prev = from;
  for (const BrushStroke& d : dabs) {
    EXPECT_LE(std::hypot(d.x - prev.x, d.y - prev.y), 2.0f + 1e-4f);  // never more than half a radius apart
    EXPECT_EQ(d.radius, to.radius);
    EXPECT_EQ(d.amount, to.amount);
    prev = d;
  }
  EXPECT_FLOAT_EQ(dabs.back().x, to.x);
  EXPECT_FLOAT_EQ(dabs.back().y, to.y);
  // Painted on a field, every cell on the straight line between the ends is covered.
  Preset p = small_preset(80, 60, 1);
  auto b = small_cpu(p);
  for (const BrushStroke& d : dabs) b->brush(d);
  std::vector<float> f;
  b->read_field(f);
  for (int i = 0; i <= 40; ++i) {
    const int x = 10 + i, y = 20 + (30 * i) / 40;
    EXPECT_GT(f[static_cast<size_t>(y) * 80 + x], 0.0f) << x << "," << y;
  }
  // A jump across the whole field is capped.
  EXPECT_EQ(brush_segment(BrushStroke{0, 0, 0.1f, 1}, BrushStroke{10000, 0, 0.1f, 1}).size(),
            static_cast<size_t>(kMaxDabs));
}

}  // namespace physarum::app
