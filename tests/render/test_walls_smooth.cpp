// Walls drawn larger than the field: sampled like the trails, with an antialiased edge, so a
// slanted coastline is a slanted line and not a staircase of cells; one pixel per cell stays the
// exact cell-by-cell picture (tests/test_window_environment.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gl_support.hpp"
#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "sim/backend.hpp"
#include "sim/preset.hpp"

namespace physarum {
namespace {

constexpr int kW = 32, kH = 32, kScale = 8;
constexpr uint32_t kWall = 0xc01a7eU;

// A wall left of the line x = 8 + y / 2 (cell centres): one cell right every two rows.
bool is_wall_cell(int x, int y) {
  return x + 0.5 < 8.0 + (y + 0.5) / 2.0;
}

bool is_wall_pixel(const uint8_t* px) {
  return px[0] == ((kWall >> 16) & 0xff) && px[1] == ((kWall >> 8) & 0xff) && px[2] == (kWall & 0xff);
}

struct Pictures {
  std::vector<uint8_t> walls, plain;
};

Pictures draw_magnified(bool bicubic) {
  Environment env;
  env.walls.assign(kW * kH, 0);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) env.walls[static_cast<size_t>(y) * kW + x] = is_wall_cell(x, y) ? 1 : 0;
  SimConfig c;
  c.size = {kW, kH};
  c.agents = 400;
  c.seed = 3;
  c.threads = 1;
  c.environment = env;
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(20);

  const int ow = kW * kScale, oh = kH * kScale;
  test::Fbo fbo(ow, oh);
  const render::Palette pal = render::greyscale_palette();
  DisplayParams d;
  d.palette = pal.name;
  d.walls_colour = kWall;
  render::FieldRenderer r;
  r.set_palette(pal);
  r.set_bicubic(bicubic);
  r.update_field(*b, true);
  Pictures out;
  r.draw(d, render::View{}, ow, oh);
  out.walls = render::read_framebuffer_rgba(ow, oh);
  d.show_walls = false;
  r.draw(d, render::View{}, ow, oh);
  out.plain = render::read_framebuffer_rgba(ow, oh);
  return out;
}

// The longest run of pixel rows with the same number of wall-coloured pixels, away from the
// field's wrapped edges: a staircase repeats each count for a whole cell of rows.
int longest_equal_run(const std::vector<uint8_t>& img) {
  const int ow = kW * kScale;
  int longest = 0, run = 0, last = -1;
  for (int y = 4 * kScale; y < (kH - 4) * kScale; ++y) {
    int n = 0;
    for (int x = 4 * kScale; x < 28 * kScale; ++x)
      n += is_wall_pixel(&img[(static_cast<size_t>(y) * ow + x) * 4]);
    run = n == last ? run + 1 : 1;
    last = n;
    longest = std::max(longest, run);
  }
  return longest;
}

TEST(WallsOverlay, MagnifiedWallsFollowTheirSlantWithAnAntialiasedEdge) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Pictures smooth = draw_magnified(true);
  const int ow = kW * kScale;
  ASSERT_EQ(smooth.walls.size(), static_cast<size_t>(ow) * kH * kScale * 4);

  int blended_rows = 0, rows = 0;
  for (int y = 4 * kScale; y < (kH - 4) * kScale; ++y) {
    const double fy = (y + 0.5) / kScale;
    bool blended = false;
    for (int x = 0; x < ow; ++x) {
      const size_t i = (static_cast<size_t>(y) * ow + x) * 4;
      const double fx = (x + 0.5) / kScale;
      const double past_edge = fx - (8.0 + fy / 2.0);  // cells right of the slanted edge
      const uint8_t* px = &smooth.walls[i];
      if (past_edge < -2.0) {
        EXPECT_TRUE(is_wall_pixel(px)) << "inside the wall at pixel " << x << "," << y;
      } else if (past_edge > 2.0 && fx < kW - 2.0) {
        EXPECT_TRUE(std::equal(px, px + 4, &smooth.plain[i]))
            << "outside the wall at pixel " << x << "," << y;
      } else if (!is_wall_pixel(px) && !std::equal(px, px + 4, &smooth.plain[i])) {
        // Between the wall's colour and the field's, channel by channel: an edge pixel partly covered.
        const uint8_t wall[3] = {(kWall >> 16) & 0xff, (kWall >> 8) & 0xff, kWall & 0xff};
        bool between = true;
        for (int k = 0; k < 3; ++k)
          between &= px[k] >= std::min(wall[k], smooth.plain[i + k]) - 1 &&
                     px[k] <= std::max(wall[k], smooth.plain[i + k]) + 1;
        blended |= between;
      }
    }
    ++rows;
    blended_rows += blended;
  }
  EXPECT_GE(blended_rows, rows * 9 / 10) << "the wall's edge has no partly covered pixels";
  EXPECT_LE(longest_equal_run(smooth.walls), kScale / 2) << "the slanted wall is drawn as steps";

  // Cell by cell the same wall is a staircase, so the measure above can tell them apart.
  const Pictures stairs = draw_magnified(false);
  EXPECT_GE(longest_equal_run(stairs.walls), kScale);
}

}  // namespace
}  // namespace physarum
