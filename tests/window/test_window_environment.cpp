// Food and walls on screen: the overlays drawn by the renderer that
// the window and `physarum render` share (walls exactly in their colour, food tinted, nothing changed
// with the overlays off), the display keys in presets, the brush modes, a dropped image becoming the
// map it was dropped as, and the window under Xvfb showing a coastline and towns.
#include <gtest/gtest.h>
#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "png_image.hpp"
#include "render/colormap.hpp"
#include "render/environment_overlay.hpp"
#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "sim/backend.hpp"
#include "sim/png_writer.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "window/brush.hpp"
#include "window/drop.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

using Image = test::RgbaImage;
using test::load_rgba_png;

// The colour 0xRRGGBB as bytes, independently of render::colour_components.
bool is_colour(const uint8_t* px, uint32_t rgb) {
  return px[0] == ((rgb >> 16) & 0xff) && px[1] == ((rgb >> 8) & 0xff) && px[2] == (rgb & 0xff);
}

// A grey image (value per pixel) written as an RGBA PNG.
void write_grey_png(const fs::path& file, int w, int h, const std::vector<uint8_t>& grey) {
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * h * 4, 255);
  for (size_t i = 0; i < grey.size(); ++i) rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = grey[i];
  write_png_rgba(file, rgba.data(), w, h);
}

constexpr int kW = 48, kH = 32;

// Walls: a block at x in [30, 40), y in [4, 20); food: a gradient row y = 26, E = x / 24 (1 and
// more from x = 24 on), and one full cell.
Environment test_environment() {
  Environment e;
  e.walls.assign(kW * kH, 0);
  e.food.assign(kW * kH, 0.0f);
  for (int y = 4; y < 20; ++y)
    for (int x = 30; x < 40; ++x) e.walls[static_cast<size_t>(y) * kW + x] = 1;
  for (int x = 1; x < kW; ++x) e.food[26 * kW + x] = static_cast<float>(x) / 24.0f;
  e.food[8 * kW + 8] = 1.0f;
  return e;
}

std::unique_ptr<Backend> small_backend(const Environment& env) {
  SimConfig c;
  c.size = {kW, kH};
  c.agents = 600;
  c.seed = 5;
  c.threads = 1;
  c.environment = env;
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(12);
  return b;
}

std::vector<uint8_t> draw(render::FieldRenderer& r, const DisplayParams& d) {
  r.draw(d, render::View{}, kW, kH);
  return render::read_framebuffer_rgba(kW, kH);
}

TEST(EnvironmentOverlay, WallsInTheirColourExactlyFoodTintedAndOffIsThePlainPicture) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Environment env = test_environment();
  auto b = small_backend(env);
  test::Fbo fbo(kW, kH);
  const render::Palette pal = render::greyscale_palette();
  DisplayParams d;
  d.palette = pal.name;
  d.walls_colour = 0xc01a7eU;
  d.food_colour = 0x10f020U;

  render::FieldRenderer r;
  r.set_palette(pal);
  r.update_field(*b, true);
  ASSERT_TRUE(r.has_walls_map());
  ASSERT_TRUE(r.has_food_map());
  const auto shown = draw(r, d);

  // The CPU reference: the plain colouring of the same field, then the overlay rule by hand.
  std::vector<float> field;
  b->read_field(field);
  const auto plain = render::render_field_to_rgba(field, kW, kH, d, pal);
  int walls = 0, tinted = 0, worst = 0;
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      const size_t i = static_cast<size_t>(y) * kW + x;
      const uint8_t* px = &shown[i * 4];
      if (env.walls[i] != 0) {
        ++walls;
        EXPECT_TRUE(is_colour(px, d.walls_colour)) << "wall cell " << x << "," << y;
        EXPECT_EQ(px[3], 255);
        continue;
      }
      EXPECT_FALSE(is_colour(px, d.walls_colour)) << "not a wall: " << x << "," << y;
      const double w = 0.7 * std::min(1.0, static_cast<double>(env.food[i]));
      const uint8_t tint[3] = {0x10, 0xf0, 0x20};
      for (int k = 0; k < 3; ++k) {
        const double want = plain[i * 4 + k] * (1.0 - w) + tint[k] * w;
        worst = std::max(worst, static_cast<int>(std::lround(std::fabs(px[k] - want))));
      }
      tinted += env.food[i] > 0;
    }
  }
  EXPECT_EQ(walls, 10 * 16);
  EXPECT_EQ(tinted, kW);
  EXPECT_LE(worst, 2);

  // The host mirror (render/environment_overlay.hpp) says the same.
  std::vector<uint8_t> mirrored = plain;
  render::overlay_environment(mirrored, {kW, kH}, env.food, env.walls, d);
  int mirror_worst = 0;
  for (size_t i = 0; i < mirrored.size(); ++i)
    mirror_worst = std::max(mirror_worst, std::abs(mirrored[i] - shown[i]));
  EXPECT_LE(mirror_worst, 2);

  // Overlays off: byte for byte what a renderer that never saw an environment draws.
  DisplayParams off = d;
  off.show_walls = false;
  off.show_food = false;
  const auto hidden = draw(r, off);
  render::FieldRenderer plain_renderer;
  plain_renderer.set_palette(pal);
  plain_renderer.upload_host_field(field.data(), {kW, kH});
  ASSERT_FALSE(plain_renderer.has_walls_map());
  EXPECT_EQ(hidden, draw(plain_renderer, d));
  EXPECT_NE(hidden, shown);

  // Walls only: the food cells have their plain colours again.
  DisplayParams walls_only = d;
  walls_only.show_food = false;
  const auto w_only = draw(r, walls_only);
  for (int x = 0; x < kW; ++x) {
    const size_t i = 26 * kW + x;
    EXPECT_TRUE(std::equal(&w_only[i * 4], &w_only[i * 4] + 4, &hidden[i * 4])) << "food cell " << x;
  }
}

TEST(EnvironmentOverlay, FollowsTheBackendsEnvironmentAsItChanges) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  auto b = small_backend({});
  test::Fbo fbo(kW, kH);
  render::FieldRenderer r;
  DisplayParams d;
  r.update_field(*b, true);
  EXPECT_FALSE(r.has_walls_map());
  EXPECT_FALSE(r.has_food_map());
  const auto before = draw(r, d);
  for (size_t i = 0; i < before.size(); i += 4) EXPECT_FALSE(is_colour(&before[i], d.walls_colour));

  // A wall brushed in: the next update uploads it.
  BrushStroke s;
  s.x = 10.5f;
  s.y = 10.5f;
  s.radius = 2.0f;
  s.mode = BrushMode::Wall;
  b->brush(s);
  r.update_field(*b, true);
  EXPECT_TRUE(r.has_walls_map());
  auto shown = draw(r, d);
  EXPECT_TRUE(is_colour(&shown[(10 * kW + 10) * 4], d.walls_colour));
  EXPECT_FALSE(is_colour(&shown[(20 * kW + 20) * 4], d.walls_colour));

  // Another backend with the same (never edited) environment history: its own maps, not the last one's.
  auto other = small_backend({});
  r.update_field(*other, true);
  EXPECT_FALSE(r.has_walls_map());
  shown = draw(r, d);
  EXPECT_FALSE(is_colour(&shown[(10 * kW + 10) * 4], d.walls_colour));
}

TEST(EnvironmentOverlay, DisplayKeysReadValidateAndAreWrittenOnlyWhenChanged) {
  const Preset p = parse_preset(
      "[display]\nshow_walls = false\nshow_food = false\nwalls_colour = \"#102030\"\nfood_colour = "
      "\"#ABCDEF\"\n");
  EXPECT_FALSE(p.display.show_walls);
  EXPECT_FALSE(p.display.show_food);
  EXPECT_EQ(p.display.walls_colour, 0x102030U);
  EXPECT_EQ(p.display.food_colour, 0xabcdefU);
  const std::string text = preset_to_toml(p);
  EXPECT_NE(text.find("show_walls = false"), std::string::npos) << text;
  EXPECT_NE(text.find("walls_colour = \"#102030\""), std::string::npos) << text;
  EXPECT_EQ(parse_preset(text), p);

  const std::string plain = preset_to_toml(Preset{});
  for (const char* key : {"show_walls", "show_food", "walls_colour", "food_colour"})
    EXPECT_EQ(plain.find(key), std::string::npos) << key << " written with its default value:\n" << plain;

  Preset q;
  apply_override(q, "display.show_food=off");
  EXPECT_FALSE(q.display.show_food);
  try {
    (void)parse_preset("[display]\nwalls_colour = \"blue\"\n", "x.toml");
    ADD_FAILURE() << "a colour that is not #rrggbb was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("display.walls_colour"), std::string::npos) << e.what();
  }
}

// The panel's brush settings through the same functions the mouse uses: each mode edits what it says.
TEST(WindowEnvironment, BrushModesPaintFoodAndWallsAndTheRightButtonUndoesThem) {
  auto b = small_backend({});
  const render::View view;  // the field fills a kW x kH framebuffer, one pixel per cell
  BrushSettings brush;
  brush.radius = 3.0f;
  const auto dab = [&](float px, float py, bool right) {
    const auto s = brush_stroke_at(view, px, py, kW, kH, {kW, kH}, brush, right);
    ASSERT_TRUE(s.has_value());
    b->brush(*s);
  };
  std::vector<uint8_t> walls;
  std::vector<float> food;

  brush.mode = BrushMode::Wall;
  dab(12.5f, 12.5f, false);
  b->read_walls(walls);
  EXPECT_EQ(walls[12 * kW + 12], 1);
  EXPECT_EQ(walls[12 * kW + 14], 1);  // within the radius
  EXPECT_EQ(walls[12 * kW + 20], 0);
  // No agent stands in the new wall (the backend moved them out).
  const AgentState a = b->read_agents();
  for (size_t i = 0; i < a.x.size(); ++i) {
    const int cx = static_cast<int>(a.x[i]), cy = static_cast<int>(a.y[i]);
    EXPECT_EQ(walls[static_cast<size_t>(cy) * kW + cx], 0) << "agent " << i;
  }
  dab(12.5f, 12.5f, true);  // right button in wall mode: erase
  b->read_walls(walls);
  EXPECT_EQ(walls[12 * kW + 12], 0);

  brush.mode = BrushMode::EraseWall;
  dab(30.5f, 20.5f, true);  // right button in erase mode: build
  b->read_walls(walls);
  EXPECT_EQ(walls[20 * kW + 30], 1);
  dab(30.5f, 20.5f, false);
  b->read_walls(walls);
  EXPECT_EQ(walls[20 * kW + 30], 0);

  brush.mode = BrushMode::Food;
  brush.food = 0.25f;
  dab(8.5f, 24.5f, false);
  dab(8.5f, 24.5f, false);
  b->read_food(food);
  EXPECT_FLOAT_EQ(food[24 * kW + 8], 0.5f);
  EXPECT_EQ(food[24 * kW + 30], 0.0f);
  dab(8.5f, 24.5f, true);  // right button: no food left
  b->read_food(food);
  EXPECT_EQ(food[24 * kW + 8], 0.0f);

  // A drag keeps the mode in every dab it fills in: a line of walls, not of trail.
  brush.mode = BrushMode::Wall;
  brush.radius = 0.5f;
  const auto from = brush_stroke_at(view, 2.5f, 30.5f, kW, kH, {kW, kH}, brush, false);
  const auto to = brush_stroke_at(view, 40.5f, 30.5f, kW, kH, {kW, kH}, brush, false);
  ASSERT_TRUE(from && to);
  const std::vector<BrushStroke> line = brush_segment(*from, *to);
  for (const BrushStroke& s : line) {
    EXPECT_EQ(s.mode, BrushMode::Wall);
    b->brush(s);
  }
  b->read_walls(walls);
  for (int x = 3; x <= 40; ++x) EXPECT_EQ(walls[30 * kW + x], 1) << x;
}

TEST(WindowEnvironment, ADroppedImageBecomesTheChosenMapAndABadOneChangesNothing) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const auto dir = test::temp_dir();
  // An image the size of the field: black on the left third, white elsewhere.
  std::vector<uint8_t> grey(static_cast<size_t>(kW) * kH, 255);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < 16; ++x) grey[static_cast<size_t>(y) * kW + x] = 0;
  write_grey_png(dir / "map.png", kW, kH, grey);
  test::write_file(dir / "bad.png", "\x89PNG\r\n\x1a\nthis is not a PNG at all");

  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = std::to_string(kW) + "x" + std::to_string(kH);
  o.agents = "1K";
  WindowCore core(o);
  std::string msg;

  // Walls: the dark third.
  ASSERT_TRUE(load_dropped_image(core, (dir / "map.png").string(), DropKind::Walls, ImageFit::Fill, &msg))
      << msg;
  std::vector<uint8_t> walls;
  core.backend().read_walls(walls);
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      const size_t i = static_cast<size_t>(y) * kW + x;
      ASSERT_EQ(walls[i] != 0, grey[i] == 0) << x << "," << y;
    }
  }
  EXPECT_EQ(fs::path(core.preset.environment.walls), fs::absolute(dir / "map.png").lexically_normal());

  // Food: its brightness (white 1, black 0); the walls stay.
  ASSERT_TRUE(load_dropped_image(core, (dir / "map.png").string(), DropKind::Food, ImageFit::Fill, &msg))
      << msg;
  std::vector<float> food;
  core.backend().read_food(food);
  EXPECT_NEAR(food[5 * kW + 40], 1.0f, 1e-4);
  EXPECT_EQ(food[5 * kW + 5], 0.0f);
  core.backend().read_walls(walls);
  EXPECT_NE(walls[5 * kW + 5], 0);

  // A bad image: refused, with a message, nothing changed.
  const uint64_t version = core.backend().environment_version();
  const Environment before = core.backend().environment();
  msg.clear();
  EXPECT_FALSE(load_dropped_image(core, (dir / "bad.png").string(), DropKind::Walls, ImageFit::Fill, &msg));
  EXPECT_NE(msg.find("bad.png"), std::string::npos) << msg;
  EXPECT_EQ(core.backend().environment_version(), version);
  EXPECT_EQ(core.backend().environment(), before);

  // Seed: the field takes the image, the maps stay.
  ASSERT_TRUE(load_dropped_image(core, (dir / "map.png").string(), DropKind::Seed, ImageFit::Fill, &msg))
      << msg;
  std::vector<float> field;
  core.backend().read_field(field);
  EXPECT_GT(field[5 * kW + 40], 0.0f);
  EXPECT_EQ(core.backend().environment(), before);

  // A reset keeps the dropped maps (they are the preset's now).
  ASSERT_TRUE(core.reset()) << core.notice();
  core.backend().read_walls(walls);
  core.backend().read_food(food);
  EXPECT_NE(walls[5 * kW + 5], 0);
  EXPECT_NEAR(food[5 * kW + 40], 1.0f, 1e-4);

  // Modifiers: Shift is food, Ctrl walls, none waits for the dialog.
  EXPECT_EQ(drop_kind_for_mods(GLFW_MOD_SHIFT), DropKind::Food);
  EXPECT_EQ(drop_kind_for_mods(GLFW_MOD_CONTROL), DropKind::Walls);
  EXPECT_FALSE(drop_kind_for_mods(0).has_value());
  DropDialog dialog;
  Toasts toasts;
  std::vector<DroppedFile> dropped{{(dir / "bad.png").string(), GLFW_MOD_SHIFT},
                                   {(dir / "map.png").string(), 0}};
  dialog.take(core, dropped, ImageFit::Fill, toasts);
  EXPECT_TRUE(dropped.empty());
  ASSERT_EQ(dialog.waiting().size(), 1u);  // the plain drop asks
  ASSERT_EQ(toasts.entries().size(), 1u);  // the Shift drop loaded at once: a bad image, an error toast
  EXPECT_TRUE(toasts.entries().front().error);
  dialog.cancel_first();
  EXPECT_TRUE(dialog.waiting().empty());
}

// The dialog on a headless ImGui frame: it opens for a plain drop and shows the file; its answer
// loads the image as chosen, and once nothing waits it closes.
TEST(WindowEnvironment, DropDialogOpensForAPlainDropAndItsAnswerLoadsTheMap) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const auto dir = test::temp_dir();
  std::vector<uint8_t> grey(static_cast<size_t>(kW) * kH, 255);
  for (int x = 0; x < kW; ++x) grey[static_cast<size_t>(3) * kW + x] = 0;  // one black row: a wall
  write_grey_png(dir / "row.png", kW, kH, grey);
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = std::to_string(kW) + "x" + std::to_string(kH);
  o.agents = "1K";
  WindowCore core(o);

  std::optional<test::HeadlessImGui> imgui(std::in_place, 800.0f, 600.0f);
  DropDialog dialog;
  Toasts toasts;
  std::vector<DroppedFile> dropped{{(dir / "row.png").string(), 0}};
  dialog.take(core, dropped, ImageFit::Fill, toasts);
  const auto frame = [&] {
    ImGui::NewFrame();
    dialog.draw(core, ImageFit::Fill, toasts);
    const bool open = ImGui::IsPopupOpen("Dropped image");
    ImGui::Render();
    return open;
  };
  EXPECT_TRUE(frame());
  EXPECT_TRUE(frame());
  dialog.answer(core, DropKind::Walls, ImageFit::Fill, toasts);
  EXPECT_FALSE(frame());
  imgui.reset();

  std::vector<uint8_t> walls;
  core.backend().read_walls(walls);
  EXPECT_NE(walls[3 * kW + 10], 0);
  EXPECT_EQ(walls[20 * kW + 10], 0);
  ASSERT_EQ(toasts.entries().size(), 1u);
  EXPECT_FALSE(toasts.entries().front().error) << toasts.entries().front().text;
}

// The window's own drawing (WindowCore::render): the overlays follow display.show_walls.
TEST(WindowEnvironment, OverlaysToggleInTheWindowsPicture) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = std::to_string(kW) + "x" + std::to_string(kH);
  o.agents = "1K";
  o.sets = {"environment.boundary=walls"};  // the closed box's ring is wall
  WindowCore core(o);
  test::Fbo fbo(kW, kH);
  core.step();
  core.render(kW, kH);
  auto px = render::read_framebuffer_rgba(kW, kH);
  const uint32_t wall = core.preset.display.walls_colour;
  EXPECT_TRUE(is_colour(&px[0], wall));
  EXPECT_TRUE(is_colour(&px[((kH - 1) * kW + 20) * 4], wall));
  EXPECT_FALSE(is_colour(&px[(10 * kW + 20) * 4], wall));
  core.preset.display.show_walls = false;
  core.render(kW, kH);
  px = render::read_framebuffer_rgba(kW, kH);
  EXPECT_FALSE(is_colour(&px[0], wall));
}

// `physarum render` draws the overlays too (the renderer the window uses), and not when they are off.
TEST(EnvironmentOverlayE2e, RenderCommandDrawsWallsUnlessTurnedOff) {
  const auto dir = test::temp_dir();
  std::vector<uint8_t> grey(static_cast<size_t>(kW) * kH, 255);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < 12; ++x) grey[static_cast<size_t>(y) * kW + x] = 0;  // walls: x < 12
  write_grey_png(dir / "walls.png", kW, kH, grey);
  const auto render_to = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> a = {"render",    "--backend", "cpu",   "--threads", "1",  "--agents",
                                  "1K",        "--size",    "48x32", "--steps",   "20", "--walls",
                                  "walls.png", "-q",        "--out", out};
    a.insert(a.end(), extra.begin(), extra.end());
    const auto r = test::run_physarum(a, dir, {{"EGL_PLATFORM", "surfaceless"}});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return load_rgba_png(dir / out);
  };
  const Image on = render_to("on.png", {"--set", "display.walls_colour=#204060"});
  ASSERT_EQ(on.w, kW);
  ASSERT_EQ(on.h, kH);
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      EXPECT_EQ(is_colour(on.at(x, y), 0x204060U), x < 12) << x << "," << y;
    }
  }
  const Image off =
      render_to("off.png", {"--set", "display.walls_colour=#204060", "--set", "display.show_walls=false"});
  ASSERT_EQ(off.w, kW);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) EXPECT_FALSE(is_colour(off.at(x, y), 0x204060U)) << x << "," << y;
}

// End to end: the window under Xvfb with the showcase's coastline and towns. The sea is drawn in
// the walls colour, the towns tinted, and with the overlays off neither shows.
TEST(WindowEnvironmentE2e, XvfbWindowShowsTheCoastlineAsWallsAndTheTownsAsFood) {
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const std::string images = std::string(PHYSARUM_SOURCE_DIR) + "/assets/images/";
  const auto shot = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args{"--frames",     "20",
                                  "--screenshot", name,
                                  "--backend",    "cpu",
                                  "--threads",    "1",
                                  "--size",       "320x180",
                                  "--agents",     "20K",
                                  "--no-vsync",   "--hide-panel",
                                  "--walls",      images + "towns_walls.png",
                                  "--food",       images + "towns_food.png"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_physarum(args, dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                                      {"WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    return load_rgba_png(dir / name);
  };
  const DisplayParams d;
  const auto count = [](const Image& img, const auto& pred) {
    size_t n = 0;
    for (int y = 0; y < img.h; ++y)
      for (int xx = 0; xx < img.w; ++xx) n += pred(img.at(xx, y));
    return n;
  };
  const auto greenish = [&](const uint8_t* p) { return p[1] > p[0] + 40 && p[1] > p[2] + 40; };
  const auto wall = [&](const uint8_t* p) { return is_colour(p, d.walls_colour); };

  const Image on = shot("on.png", {});
  ASSERT_GT(on.w, 0);
  const size_t pixels = static_cast<size_t>(on.w) * on.h;
  EXPECT_GT(count(on, wall), pixels / 10) << "no sea drawn as walls";
  EXPECT_GT(count(on, greenish), 200u) << "no towns drawn as food";

  const Image off =
      shot("off.png", {"--set", "display.show_walls=false", "--set", "display.show_food=false"});
  ASSERT_EQ(off.w, on.w);
  EXPECT_EQ(count(off, wall), 0u);
  EXPECT_LT(count(off, greenish), 20u);
}

}  // namespace
}  // namespace physarum::app
