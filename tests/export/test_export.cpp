// The export algorithms on small hand-made fields: interpolation, cave clean-up, marching squares,
// simplification and the height mapping (app/export/).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "export/cave.hpp"
#include "export/contours.hpp"
#include "export/grid.hpp"
#include "export/height.hpp"
#include "export_support.hpp"
#include "sim/json_text.hpp"
#include "test_support.hpp"

namespace physarum::app::exporter {
namespace {

using test::region_sizes;

Grid make_grid(int w, int h, float (*f)(int, int)) {
  Grid g{w, h, std::vector<float>(static_cast<size_t>(w) * h)};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) g.values[static_cast<size_t>(y) * w + x] = f(x, y);
  }
  return g;
}

Mask blank(int w, int h) {
  return Mask{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h, 0)};
}
void set_rect(Mask& m, int x0, int y0, int x1, int y1, uint8_t v) {
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) m.cells[static_cast<size_t>(y) * m.width + x] = v;
  }
}

TEST(ExportGrid, BicubicKeepsTheRangeAndEqualSizeIsACopy) {
  const Grid g = make_grid(16, 12, [](int x, int y) { return static_cast<float>((x * 7 + y * 13) % 5); });
  const Grid same = resample_bicubic(g, 16, 12);
  EXPECT_EQ(same.values, g.values);
  const Grid big = resample_bicubic(g, 64, 48);
  ASSERT_EQ(big.width, 64);
  ASSERT_EQ(big.height, 48);
  ASSERT_EQ(big.values.size(), 64u * 48u);
  EXPECT_GE(*std::min_element(big.values.begin(), big.values.end()), 0.0f);
  EXPECT_LE(*std::max_element(big.values.begin(), big.values.end()), 4.0f);
}

TEST(ExportGrid, BicubicOfALinearRampIsTheRamp) {
  // Catmull-Rom reproduces linear functions; away from the wrapped edges the enlarged ramp must be
  // the ramp sampled at the new cell centres.
  const Grid g = make_grid(32, 4, [](int x, int) { return static_cast<float>(x); });
  const Grid big = resample_bicubic(g, 128, 16);
  for (int i = 8; i < 120; ++i) {
    const double expected = (i + 0.5) * 32.0 / 128.0 - 0.5;
    EXPECT_NEAR(big.at(i, 7), expected, 1e-4) << "at column " << i;
  }
}

TEST(ExportCave, IslandsSmallerThanKAreRemoved) {
  Mask m = blank(40, 40);
  set_rect(m, 2, 2, 30, 30, 1);    // a big floor region
  set_rect(m, 10, 10, 13, 13, 0);  // a 9-cell rock island inside it
  set_rect(m, 33, 33, 36, 36, 1);  // a 9-cell floor island
  set_rect(m, 20, 33, 27, 39, 1);  // a 42-cell floor region that stays
  remove_islands(m, 0, 16);
  remove_islands(m, 1, 16);
  for (uint8_t v : {uint8_t{0}, uint8_t{1}}) {
    for (int s : region_sizes(m.cells, m.width, m.height, v)) EXPECT_GE(s, 16) << "value " << int(v);
  }
  EXPECT_EQ(m.at(11, 11), 1);  // the rock island became floor
  EXPECT_EQ(m.at(34, 34), 0);  // the floor island became rock
  EXPECT_EQ(m.at(22, 35), 1);
}

TEST(ExportCave, CorridorsJoinEveryRegionAndKeepThemAll) {
  Mask m = blank(60, 30);
  set_rect(m, 2, 2, 20, 28, 1);
  set_rect(m, 40, 5, 58, 25, 1);
  set_rect(m, 25, 2, 30, 6, 1);
  ASSERT_EQ(region_sizes(m.cells, 60, 30, 1).size(), 3u);
  EXPECT_EQ(join_with_corridors(m, 3), 2);
  EXPECT_EQ(region_sizes(m.cells, 60, 30, 1).size(), 1u);
  EXPECT_EQ(m.at(10, 10), 1);
  EXPECT_EQ(m.at(50, 10), 1);
  EXPECT_EQ(m.at(27, 3), 1);
}

// A field of single-cell islands on a 3-cell grid (about 29,000 regions): searching the whole map once
// per region took minutes; one search finishes in well under a second, so a few seconds is generous.
TEST(ExportCave, CorridorsThroughAFieldOfIslandsAreFast) {
  for (const int w : {1, 3}) {
    Mask m = blank(512, 512);
    for (int y = 1; y < 512; y += 3)
      for (int x = 1; x < 512; x += 3) m.cells[static_cast<size_t>(y) * 512 + x] = 1;
    const std::vector<uint8_t> before = m.cells;
    const size_t islands = region_sizes(m.cells, 512, 512, 1).size();
    ASSERT_GT(islands, 20000u);
    const double start = test::process_cpu_seconds();
    const int carved = join_with_corridors(m, w);
    EXPECT_LT(test::process_cpu_seconds() - start, 5.0) << "width " << w;
    EXPECT_EQ(region_sizes(m.cells, 512, 512, 1).size(), 1u) << "width " << w;
    EXPECT_GE(carved, 1);
    EXPECT_LE(static_cast<size_t>(carved), islands - 1);
    for (size_t i = 0; i < before.size(); ++i) {
      if (before[i]) {
        ASSERT_EQ(m.cells[i], 1) << "floor cell " << i << " was lost";
      }
    }
  }
}

TEST(ExportCave, LargestKeepsOnlyTheLargestRegion) {
  Mask m = blank(60, 30);
  set_rect(m, 2, 2, 20, 28, 1);
  set_rect(m, 40, 5, 50, 10, 1);
  keep_largest_floor(m);
  EXPECT_EQ(region_sizes(m.cells, 60, 30, 1).size(), 1u);
  EXPECT_EQ(m.at(10, 10), 1);
  EXPECT_EQ(m.at(45, 7), 0);
}

// Brute force: every floor cell lies in some w x w square of floor.
bool every_floor_cell_in_square(const Mask& m, int w) {
  for (int y = 0; y < m.height; ++y) {
    for (int x = 0; x < m.width; ++x) {
      if (!m.at(x, y)) continue;
      bool found = false;
      for (int y0 = std::max(0, y - w + 1); y0 <= y && !found; ++y0) {
        for (int x0 = std::max(0, x - w + 1); x0 <= x && !found; ++x0) {
          if (x0 + w > m.width || y0 + w > m.height) continue;
          bool all = true;
          for (int yy = y0; yy < y0 + w && all; ++yy) {
            for (int xx = x0; xx < x0 + w && all; ++xx) all = m.at(xx, yy) != 0;
          }
          found = all;
        }
      }
      if (!found) return false;
    }
  }
  return true;
}

TEST(ExportCave, NarrowPassagesAreWidenedAndMeasured) {
  Mask m = blank(50, 20);
  set_rect(m, 0, 0, 10, 20, 1);
  set_rect(m, 40, 0, 50, 20, 1);
  set_rect(m, 10, 9, 40, 10, 1);  // a passage one cell wide along the row 9
  EXPECT_EQ(narrowest_passage(m, 64), 1);
  EXPECT_FALSE(every_floor_cell_in_square(m, 2));
  widen_passages(m, 4);
  EXPECT_TRUE(every_floor_cell_in_square(m, 4));
  EXPECT_EQ(narrowest_passage(m, 64), 4);
  EXPECT_EQ(region_sizes(m.cells, 50, 20, 1).size(), 1u);
}

TEST(ExportCave, FloorFractionSetsTheShareBeforeCleanUp) {
  const Grid g =
      make_grid(64, 64, [](int x, int y) { return static_cast<float>(x * 64 + y); });  // all distinct
  CaveOptions o;
  o.floor_fraction = 0.3;
  o.smoothing = 0;
  o.min_floor_island = 0;
  o.min_rock_island = 0;
  o.connect = Connect::None;
  CaveReport r;
  make_cave(g, o, r);
  EXPECT_NEAR(r.floor_fraction, 0.3, 0.01);
  EXPECT_EQ(r.regions_after, 1);
}

float cone(int x, int y) {
  return static_cast<float>(std::hypot(x - 20.0, y - 18.0));
}

// The bilinear surface through the grid points, evaluated here independently of the exporter.
double bilinear(const Grid& g, double x, double y) {
  const int x0 = std::clamp(static_cast<int>(std::floor(x)), 0, g.width - 2);
  const int y0 = std::clamp(static_cast<int>(std::floor(y)), 0, g.height - 2);
  const double fx = x - x0, fy = y - y0;
  return (g.at(x0, y0) * (1 - fx) + g.at(x0 + 1, y0) * fx) * (1 - fy) +
         (g.at(x0, y0 + 1) * (1 - fx) + g.at(x0 + 1, y0 + 1) * fx) * fy;
}

TEST(ExportContours, ACircleIsOneClosedLineOnTheLevel) {
  const Grid g = make_grid(40, 36, cone);
  const std::vector<Polyline> lines = iso_lines(g, 10.5f);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].closed);
  EXPECT_GT(lines[0].points.size(), 40u);
  for (const Point& p : lines[0].points) {
    EXPECT_NEAR(bilinear(g, p.x, p.y), 10.5, 1e-4);
    EXPECT_NEAR(std::hypot(p.x - 20, p.y - 18), 10.5, 0.3);
  }
}

TEST(ExportContours, ALineAcrossTheMapIsOpenAndEndsAtTheBorder) {
  const Grid g = make_grid(30, 20, [](int x, int y) { return static_cast<float>(x + 0.3 * y); });
  const std::vector<Polyline> lines = iso_lines(g, 12.25f);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_FALSE(lines[0].closed);
  const Point a = lines[0].points.front(), b = lines[0].points.back();
  EXPECT_TRUE((a.y == 0 && b.y == 19) || (a.y == 19 && b.y == 0));
  // Joined: one line through every row (19 cells high), not 19+ loose segments.
  EXPECT_GE(lines[0].points.size(), 20u);
  for (const Point& p : lines[0].points) EXPECT_NEAR(bilinear(g, p.x, p.y), 12.25, 1e-4);
}

double distance_to_polyline(const Point& p, const Polyline& l) {
  double best = 1e30;
  const size_t n = l.points.size();
  const size_t segs = l.closed ? n : n - 1;
  for (size_t i = 0; i < segs; ++i) {
    const Point a = l.points[i], b = l.points[(i + 1) % n];
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0;
    best = std::min(best, std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy));
  }
  return best;
}

TEST(ExportContours, SimplifiedLinesStayWithinTheTolerance) {
  const Grid g =
      make_grid(80, 80, [](int x, int y) { return static_cast<float>(std::hypot(x - 40.0, y - 40.0)); });
  const Polyline line = iso_lines(g, 30.3f).at(0);
  const Polyline s = simplify(line, 0.25);
  EXPECT_TRUE(s.closed);
  EXPECT_LT(s.points.size(), line.points.size() / 2);
  EXPECT_GE(s.points.size(), 8u);
  for (const Point& p : line.points) EXPECT_LE(distance_to_polyline(p, s), 0.25 + 1e-9);
}

TEST(ExportContours, LengthOfAClosedSquareCountsTheClosingSide) {
  Polyline square{{{0, 0}, {2, 0}, {2, 2}, {0, 2}}, true};
  EXPECT_DOUBLE_EQ(length(square), 8.0);
  square.closed = false;
  EXPECT_DOUBLE_EQ(length(square), 6.0);
}

TEST(ExportHeight, SpansTheFull16BitRangeMonotonically) {
  const Grid g = make_grid(50, 2, [](int x, int) { return static_cast<float>(x * x); });
  for (Mapping m : {Mapping::Linear, Mapping::Log}) {
    DisplayParams d;
    d.mapping = m;
    const std::vector<uint16_t> h = height_samples(g, d);
    EXPECT_EQ(*std::min_element(h.begin(), h.end()), 0);
    EXPECT_EQ(*std::max_element(h.begin(), h.end()), 65535);
    for (int x = 1; x < 50; ++x) EXPECT_GT(h[static_cast<size_t>(x)], h[static_cast<size_t>(x - 1)]);
  }
  const std::string raw = r16_bytes({0x1234, 0xfffe});
  EXPECT_EQ(raw, std::string("\x34\x12\xfe\xff", 4));
}

// JSON has no NaN or infinity: a value without one is null, and strings escape what would end them.
TEST(JsonText, NonFiniteNumbersAreNullAndStringsAreEscaped) {
  EXPECT_EQ(json_number(std::nan("")), "null");
  EXPECT_EQ(json_number(-HUGE_VAL), "null");
  EXPECT_EQ(json_number(0.25, 9), "0.25");
  EXPECT_EQ(json_number(1.0 / 3.0, 9), "0.333333333");
  EXPECT_EQ(json_string("a\"b\\c\n\x1b"), "\"a\\\"b\\\\c\\u000a\\u001b\"");
  CaveReport r;
  r.threshold = std::nanf("");
  const std::string json = report_json(r);
  EXPECT_NE(json.find("\"threshold\": null,"), std::string::npos) << json;
  EXPECT_EQ(json.find("nan"), std::string::npos) << json;
}

}  // namespace
}  // namespace physarum::app::exporter
