// The atlas's grid and measures without running the program: axes parsed from KEY=a:b:n[:log]
// (values computed here independently), every bad form refused naming it, the mosaic's layout with
// y upward, and a world's statistics against sums taken here.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "atlas/mosaic.hpp"
#include "atlas/sweep_grid.hpp"
#include "atlas/worlds.hpp"
#include "run/recipe.hpp"

namespace physarum {
namespace {

using app::atlas::Axis;
using app::atlas::parse_axis;

Axis parse(const std::string& text) {
  return parse_axis("--x", text, Preset{});
}

TEST(AtlasGrid, LinearValuesRunFromAToBInclusive) {
  const Axis a = parse("model.sensor_angle_deg=5:120:24");
  EXPECT_EQ(a.key, "model.sensor_angle_deg");
  EXPECT_EQ(a.unit, "deg");
  ASSERT_EQ(a.n, 24);
  for (int i = 0; i < 24; ++i) EXPECT_DOUBLE_EQ(a.value(i), 5.0 + 115.0 * i / 23.0) << i;
  EXPECT_EQ(a.value(23), 120.0);
  EXPECT_EQ(a.assignment(0), "model.sensor_angle_deg=5");
  EXPECT_EQ(a.label(), "model.sensor_angle_deg (deg)");
}

TEST(AtlasGrid, LogValuesAreGeometric) {
  const Axis a = parse("model.decay=0.001:0.1:3:log");
  EXPECT_TRUE(a.log);
  EXPECT_DOUBLE_EQ(a.value(0), 0.001);
  EXPECT_DOUBLE_EQ(a.value(1), 0.01);
  EXPECT_DOUBLE_EQ(a.value(2), 0.1);
}

TEST(AtlasGrid, OneValueIsA) {
  const Axis a = parse("model.sensor_distance=7:30:1");
  EXPECT_EQ(a.n, 1);
  EXPECT_EQ(a.value(0), 7.0);
}

TEST(AtlasGrid, SpeciesKeysAsTheRegistryNamesThem) {
  Preset p;
  p.species.list.resize(2);
  const Axis a = parse_axis("--y", "species.1.decay=0.01:0.02:2", p);
  EXPECT_EQ(a.key, "species.1.decay");
  EXPECT_DOUBLE_EQ(a.value(1), 0.02);
}

TEST(AtlasGrid, EveryBadFormIsAUsageErrorNamingTheValue) {
  const struct {
    const char* text;
    const char* named;  // what the message must quote
  } bad[] = {
      {"model.sensor_angle_deg", "KEY=a:b:n"},
      {"=5:120:24", "KEY=a:b:n"},
      {"model.sensor_angle_deg=5:120", "a:b:n"},
      {"model.sensor_angle_deg=5:120:24:lin", "'log'"},
      {"model.sensor_angle_deg=x:120:24", "'x'"},
      {"model.sensor_angle_deg=5:nan:24", "'nan'"},
      {"model.sensor_angle_deg=5:120:0", "'0'"},
      {"model.sensor_angle_deg=5:120:65", "'65'"},
      {"model.sensor_angle_deg=5:120:2.5", "'2.5'"},
      {"model.sensor_angle_deg=0:120:4:log", "log spacing"},
      {"model.no_such_key=1:2:2", "no_such_key"},
      {"model.rule=1:2:2", "model.rule"},
      {"run.seed=1:2:2", "run.seed"},
  };
  for (const auto& b : bad) {
    try {
      (void)parse(b.text);
      ADD_FAILURE() << b.text << " was accepted";
    } catch (const run::UsageError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(std::string("--x ") + b.text), std::string::npos) << m;
      EXPECT_NE(m.find(b.named), std::string::npos) << b.text << ": " << m;
    }
  }
}

TEST(AtlasGrid, AValueOutsideTheKeysRangeIsRefusedBeforeAnyRun) {
  run::Recipe base;
  const Axis x = parse("model.decay=0.5:2:4");
  const Axis y = parse_axis("--y", "model.sensor_distance=3:9:2", Preset{});
  try {
    app::atlas::check_axes(base, x, y);
    ADD_FAILURE() << "decay 1.5 and 2 were accepted";
  } catch (const run::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--x model.decay=1.5"), std::string::npos) << e.what();
  }
}

TEST(AtlasGrid, TilesGoRightWithXAndUpWithY) {
  const app::atlas::MosaicLayout l = app::atlas::layout_for(3, 2, 10, 6);
  EXPECT_EQ(l.canvas_width(), l.left + 30 + l.right);
  EXPECT_EQ(l.canvas_height(), l.top + 12 + l.bottom);
  EXPECT_EQ(l.tile_x(2), l.left + 20);
  EXPECT_EQ(l.tile_y(0), l.top + 6);  // the lowest y value is the bottom row
  EXPECT_EQ(l.tile_y(1), l.top);
  // tiles[iy * nx + ix], each filled with its own index: the bare mosaic puts (2, 0) bottom right.
  std::vector<std::vector<uint8_t>> tiles;
  for (int i = 0; i < 6; ++i) tiles.emplace_back(10 * 6 * 4, static_cast<uint8_t>(i));
  const std::vector<uint8_t> m = app::atlas::bare_mosaic(l, tiles);
  const auto at = [&](int x, int y) { return m[(static_cast<size_t>(y) * 30 + x) * 4]; };
  EXPECT_EQ(at(25, 11), 2);  // bottom right: ix 2, iy 0
  EXPECT_EQ(at(0, 0), 3);    // top left: ix 0, iy 1
  EXPECT_EQ(at(15, 3), 4);
}

TEST(AtlasStats, MeanAndVarianceAreTheFieldsInDouble) {
  const Size s{16, 8};
  std::vector<float> f(128);
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>((i * 37) % 11) * 0.25f;
  double sum = 0, sq = 0;
  for (float v : f) sum += v;
  const double mean = sum / 128.0;
  for (float v : f) sq += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  const app::atlas::WorldStats st = app::atlas::world_stats(s, f, std::vector<uint8_t>(128, 0));
  EXPECT_DOUBLE_EQ(st.mean, mean);
  EXPECT_DOUBLE_EQ(st.variance, sq / 128.0);
}

// A plus sign of trail on a dark field, more than the report's 15% of it: one junction (the
// centre, degree 4), four ends; the network is the plus's cells.
TEST(AtlasStats, APlusHasOneJunctionAndCoversItsCells) {
  const Size s{21, 21};
  std::vector<float> f(21 * 21, 0.0f);
  int lit = 0;
  for (int y = 0; y < 21; ++y) {
    for (int x = 0; x < 21; ++x) {
      if ((std::abs(x - 10) <= 1 && y >= 2 && y <= 18) || (std::abs(y - 10) <= 1 && x >= 2 && x <= 18)) {
        f[static_cast<size_t>(y * 21 + x)] = 10.0f;
        ++lit;
      }
    }
  }
  const app::atlas::WorldStats st = app::atlas::world_stats(s, f, std::vector<uint8_t>(f.size(), 0));
  EXPECT_EQ(st.junctions, 1);
  EXPECT_DOUBLE_EQ(st.coverage, static_cast<double>(lit) / (21.0 * 21.0));
}

}  // namespace
}  // namespace physarum
