// The network measures (app/analysis/network.hpp) on hand-made fields whose answers are
// known: a straight line, a ring, two islands, and a brute-force spanning tree; and the showcase map.
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <string>

#include "analysis/network.hpp"
#include "analysis/report_maps.hpp"
#include "run/environment_maps.hpp"
#include "sim/image.hpp"
#include "test_support.hpp"

namespace physarum::app::analysis {
namespace {

constexpr double kPi = 3.14159265358979323846;

Grid blank(int w, int h) {
  return Grid{w, h, std::vector<float>(static_cast<size_t>(w) * h, 0.0f)};
}

float& at(Grid& g, int x, int y) {
  return g.values[static_cast<size_t>(y) * g.width + x];
}

// Cells whose centre lies within `half` of the segment (x0, y0)-(x1, y1) get `v`.
void thick_segment(Grid& g, double x0, double y0, double x1, double y1, double half, float v) {
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const double dx = x1 - x0, dy = y1 - y0;
      double t = ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy);
      t = std::clamp(t, 0.0, 1.0);
      if (std::hypot(x - (x0 + t * dx), y - (y0 + t * dy)) <= half) at(g, x, y) = v;
    }
  }
}

void disc(Grid& g, double cx, double cy, double r, float v) {
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      if (std::hypot(x - cx, y - cy) <= r) at(g, x, y) = v;
    }
  }
}

NetworkOptions absolute(float t) {
  NetworkOptions o;
  o.threshold = t;
  return o;
}

TEST(Network, StraightLineBetweenTwoTownsHasTheirDistanceAndNoFaultTolerance) {
  Grid field = blank(100, 40), food = blank(100, 40);
  thick_segment(field, 10, 20, 80, 20, 1.0, 1.0f);  // three cells wide
  disc(food, 10, 20, 2, 1.0f);
  disc(food, 80, 20, 2, 1.0f);
  const NetworkReport r = analyse_network(field, &food, nullptr, absolute(0.5f));
  EXPECT_EQ(r.towns, 2);
  EXPECT_TRUE(r.towns_connected);
  EXPECT_EQ(r.components, 1);
  EXPECT_NEAR(r.mst_length, 70.0, 1e-9);
  // The skeleton stops a cell or so short of the line's rounded ends.
  EXPECT_NEAR(r.network_length, 70.0, 3.0);
  ASSERT_TRUE(r.ratio.has_value());
  EXPECT_NEAR(*r.ratio, r.network_length / 70.0, 1e-12);
  ASSERT_TRUE(r.fault_tolerance.has_value());
  EXPECT_GT(r.cuts, 20);
  EXPECT_EQ(*r.fault_tolerance, 0.0);  // every cut between the two towns separates them
}

TEST(Network, RingThroughThreeTownsSurvivesEverySingleCut) {
  Grid field = blank(100, 100), food = blank(100, 100);
  const double cx = 50, cy = 50, radius = 30;
  for (int y = 0; y < 100; ++y) {
    for (int x = 0; x < 100; ++x) {
      if (std::abs(std::hypot(x - cx, y - cy) - radius) <= 1.0) at(field, x, y) = 1.0f;
    }
  }
  // Towns at whole cells, so that each disc's centroid is its centre.
  std::vector<Point> at_cells;
  for (double deg : {90.0, 210.0, 330.0}) {
    at_cells.push_back({std::round(cx + radius * std::cos(deg * kPi / 180)),
                        std::round(cy + radius * std::sin(deg * kPi / 180))});
    disc(food, at_cells.back().x, at_cells.back().y, 2, 1.0f);
  }
  const NetworkReport r = analyse_network(field, &food, nullptr, absolute(0.5f));
  EXPECT_EQ(r.towns, 3);
  EXPECT_TRUE(r.towns_connected);
  EXPECT_EQ(r.cuts, r.cut_candidates);  // fewer than max_cuts: every one is made
  EXPECT_GT(r.cuts, 100);
  ASSERT_TRUE(r.fault_tolerance.has_value());
  EXPECT_EQ(*r.fault_tolerance, 1.0);
  // An 8-step chain over-measures oblique curves (a 22.5 degree run by 8%): between the circle's
  // length and 9% over it.
  const double circle = 2 * kPi * radius;
  EXPECT_GE(r.network_length, circle * 0.98);
  EXPECT_LE(r.network_length, circle * 1.09);
  // The spanning tree of a triangle: its two shortest sides.
  std::vector<double> sides;
  for (size_t i = 0; i < 3; ++i) {
    const Point &a = at_cells[i], &b = at_cells[(i + 1) % 3];
    sides.push_back(std::hypot(a.x - b.x, a.y - b.y));
  }
  std::sort(sides.begin(), sides.end());
  EXPECT_NEAR(r.mst_length, sides[0] + sides[1], 1e-9);
}

TEST(Network, TwoSeparateComponentsDoNotConnectTheTowns) {
  Grid field = blank(120, 40), food = blank(120, 40);
  thick_segment(field, 10, 20, 50, 20, 1.0, 1.0f);
  thick_segment(field, 60, 20, 110, 20, 1.0, 1.0f);
  for (int x : {10, 50, 60, 110}) disc(food, x, 20, 1.5, 1.0f);
  const NetworkReport r = analyse_network(field, &food, nullptr, absolute(0.5f));
  EXPECT_EQ(r.towns, 4);
  EXPECT_EQ(r.components, 2);
  EXPECT_EQ(r.towns_on_network, 4);
  EXPECT_FALSE(r.towns_connected);
  ASSERT_TRUE(r.fault_tolerance.has_value());
  EXPECT_EQ(*r.fault_tolerance, 0.0);
  EXPECT_EQ(r.cuts, 0);
}

TEST(Network, ComponentsTouchingNoTownAreNotTheTransportNetwork) {
  Grid field = blank(100, 60), food = blank(100, 60);
  thick_segment(field, 10, 15, 80, 15, 1.0, 1.0f);
  thick_segment(field, 10, 45, 50, 45, 1.0, 1.0f);  // an island mesh with no town on it
  disc(food, 10, 15, 2, 1.0f);
  disc(food, 80, 15, 2, 1.0f);
  const NetworkReport r = analyse_network(field, &food, nullptr, absolute(0.5f));
  EXPECT_TRUE(r.towns_connected);
  EXPECT_NEAR(r.network_length, 70.0, 3.0);
  EXPECT_NEAR(r.network_length_all - r.network_length, 40.0, 3.0);
}

TEST(Network, WallsAreNeverNetworkAndTheFractionCountsOpenCellsOnly) {
  Grid field = blank(50, 20);
  for (size_t i = 0; i < field.values.size(); ++i) field.values[i] = static_cast<float>(i);  // distinct
  Mask walls{50, 20, std::vector<uint8_t>(1000, 0)};
  for (int i = 0; i < 400; ++i) walls.cells[static_cast<size_t>(999 - i)] = 1;  // the brightest 400 are walls
  const float t = threshold_for_fraction(field, &walls, 0.1);
  const Mask m = network_mask(field, &walls, t);
  EXPECT_EQ(std::count(m.cells.begin(), m.cells.end(), uint8_t{1}), 60);  // 10% of the 600 open cells
  for (size_t i = 0; i < m.cells.size(); ++i) EXPECT_FALSE(m.cells[i] && walls.cells[i]);
  EXPECT_EQ(t, 540.0f);  // the open cells are 0..599: the top 60 start at 540
}

TEST(Network, TownsAreFoodBlobsWithWeightedCentroidsAndZones) {
  Grid food = blank(30, 20);
  at(food, 3, 4) = 1.0f;
  at(food, 4, 4) = 3.0f;  // centroid (3.75, 4)
  at(food, 20, 10) = 2.0f;
  at(food, 21, 11) = 2.0f;  // diagonal: one blob under 8-connectivity, centroid (20.5, 10.5)
  const std::vector<Town> towns = find_towns(food, 1);
  ASSERT_EQ(towns.size(), 2u);
  EXPECT_DOUBLE_EQ(towns[0].x, 3.75);
  EXPECT_DOUBLE_EQ(towns[0].y, 4.0);
  EXPECT_EQ(towns[0].cells, 2);
  EXPECT_DOUBLE_EQ(towns[1].x, 20.5);
  EXPECT_DOUBLE_EQ(towns[1].y, 10.5);
  // Reach 1 around two cells side by side: the two plus-shapes of 5 cells overlap in 2 -> 8 cells.
  EXPECT_EQ(towns[0].zone.size(), 8u);
}

TEST(Network, NoFoodMeansNoTownsAndNullTownNumbers) {
  Grid field = blank(60, 30);
  thick_segment(field, 5, 15, 55, 15, 1.0, 2.0f);
  const NetworkReport r = analyse_network(field, nullptr, nullptr, absolute(1.0f));
  EXPECT_EQ(r.towns, 0);
  EXPECT_FALSE(r.fault_tolerance.has_value());
  EXPECT_NEAR(r.network_length, 50.0, 3.0);
  const std::string json = network_json(r, "  \"steps\": 7,\n");
  EXPECT_NE(json.find("\"towns\": 0,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"towns_connected\": null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"mst_length\": null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fault_tolerance\": null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"steps\": 7,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"network_length\": "), std::string::npos) << json;
}

// Brute force: every set of n - 1 edges that spans the points, the lightest one.
double brute_force_mst(const std::vector<Point>& p) {
  const int n = static_cast<int>(p.size());
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) edges.push_back({i, j});
  }
  const int m = static_cast<int>(edges.size());
  double best = std::numeric_limits<double>::infinity();
  std::vector<int> pick(static_cast<size_t>(n - 1));
  std::iota(pick.begin(), pick.end(), 0);
  while (true) {
    std::vector<int> parent(static_cast<size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&](int a) {
      while (parent[static_cast<size_t>(a)] != a) a = parent[static_cast<size_t>(a)];
      return a;
    };
    bool tree = true;
    double sum = 0;
    for (int e : pick) {
      const auto [a, b] = edges[static_cast<size_t>(e)];
      const int ra = find(a), rb = find(b);
      if (ra == rb) {
        tree = false;
        break;
      }
      parent[static_cast<size_t>(ra)] = rb;
      sum += std::hypot(p[static_cast<size_t>(a)].x - p[static_cast<size_t>(b)].x,
                        p[static_cast<size_t>(a)].y - p[static_cast<size_t>(b)].y);
    }
    if (tree) best = std::min(best, sum);
    // Next combination of n - 1 out of m edges.
    int k = n - 2;
    while (k >= 0 && pick[static_cast<size_t>(k)] == m - (n - 1) + k) --k;
    if (k < 0) break;
    ++pick[static_cast<size_t>(k)];
    for (int i = k + 1; i < n - 1; ++i) pick[static_cast<size_t>(i)] = pick[static_cast<size_t>(i - 1)] + 1;
  }
  return best;
}

TEST(Network, MinimumSpanningTreeMatchesBruteForce) {
  uint32_t s = 12345;
  const auto next = [&] {
    s = s * 1664525u + 1013904223u;
    return static_cast<double>(s >> 8) / (1 << 24) * 100.0;
  };
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<Point> p;
    for (int i = 0; i < 7; ++i) p.push_back({next(), next()});
    EXPECT_NEAR(mst_length(p), brute_force_mst(p), 1e-9) << "trial " << trial;
  }
  EXPECT_EQ(mst_length({}), 0.0);
  EXPECT_EQ(mst_length({{3, 4}}), 0.0);
  EXPECT_DOUBLE_EQ(mst_length({{0, 0}, {3, 4}}), 5.0);
}

// Prim over all pairs: the plain definition, for point sets large enough to split the k-d tree.
double prim_mst(const std::vector<Point>& p) {
  std::vector<double> dist(p.size(), std::numeric_limits<double>::infinity());
  std::vector<uint8_t> in(p.size(), 0);
  double total = 0;
  if (p.empty()) return 0;
  dist[0] = 0;
  for (size_t step = 0; step < p.size(); ++step) {
    size_t u = p.size();
    for (size_t i = 0; i < p.size(); ++i)
      if (!in[i] && (u == p.size() || dist[i] < dist[u])) u = i;
    in[u] = 1;
    total += dist[u];
    for (size_t i = 0; i < p.size(); ++i)
      dist[i] = std::min(dist[i], std::hypot(p[i].x - p[u].x, p[i].y - p[u].y));
  }
  return total;
}

TEST(Network, MinimumSpanningTreeOfManyPointsMatchesPrim) {
  uint32_t s = 777;
  const auto next = [&] {
    s = s * 1664525u + 1013904223u;
    return static_cast<double>(s >> 8) / (1 << 24);
  };
  for (const int n : {9, 60, 500, 2000}) {
    std::vector<Point> scattered, clustered, snapped;
    for (int i = 0; i < n; ++i) {
      scattered.push_back({next() * 300.0, next() * 200.0});
      const double cx = (i % 5) * 1000.0;  // five far clusters
      clustered.push_back({cx + next() * 10.0, next() * 10.0});
      snapped.push_back({std::floor(next() * 20.0), std::floor(next() * 20.0)});  // ties and duplicates
    }
    for (const auto* p : {&scattered, &clustered, &snapped})
      EXPECT_NEAR(mst_length(*p), prim_mst(*p), 1e-9 * prim_mst(*p)) << n << " points";
  }
}

// Tens of thousands of towns (a dotted food map): all pairs took tens of seconds, so a few seconds is
// generous. A lattice of unit spacing, shuffled, has n - 1 as its tree length and ties everywhere.
TEST(Network, MinimumSpanningTreeOfSixtyThousandTownsIsFast) {
  std::vector<Point> p;
  for (int y = 0; y < 240; ++y)
    for (int x = 0; x < 250; ++x) p.push_back({static_cast<double>(x), static_cast<double>(y)});
  uint32_t s = 5;
  for (size_t i = p.size() - 1; i > 0; --i) {
    s = s * 1664525u + 1013904223u;
    std::swap(p[i], p[s % (i + 1)]);
  }
  const double start = test::thread_cpu_seconds();
  EXPECT_DOUBLE_EQ(mst_length(p), 59999.0);
  EXPECT_LT(test::thread_cpu_seconds() - start, 5.0);
}

// Zhang-Suen as usually written: every sub-iteration scans the whole image; then the staircase
// corners are dropped in raster order.
Mask thinned_by_full_scans(Mask s) {
  const int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
  const auto ring = [&](int x, int y, int(&p)[8]) {
    int b = 0;
    for (int k = 0; k < 8; ++k) {
      const int nx = x + dx[k], ny = y + dy[k];
      p[k] = nx >= 0 && ny >= 0 && nx < s.width && ny < s.height &&
             s.cells[static_cast<size_t>(ny) * s.width + nx];
      b += p[k];
    }
    return b;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<size_t> clear;
      for (int y = 0; y < s.height; ++y) {
        for (int x = 0; x < s.width; ++x) {
          int p[8];
          if (!s.cells[static_cast<size_t>(y) * s.width + x]) continue;
          const int b = ring(x, y, p);
          int a = 0;
          for (int k = 0; k < 8; ++k) a += !p[k] && p[(k + 1) % 8];
          const bool ok = pass == 0 ? !(p[0] && p[2] && p[4]) && !(p[2] && p[4] && p[6])
                                    : !(p[0] && p[2] && p[6]) && !(p[0] && p[4] && p[6]);
          if (b >= 2 && b <= 6 && a == 1 && ok) clear.push_back(static_cast<size_t>(y) * s.width + x);
        }
      }
      for (const size_t i : clear) s.cells[i] = 0;
      changed |= !clear.empty();
    }
  }
  for (int y = 0; y < s.height; ++y) {
    for (int x = 0; x < s.width; ++x) {
      int p[8];
      if (!s.cells[static_cast<size_t>(y) * s.width + x] || ring(x, y, p) != 2) continue;
      if ((p[0] && p[2]) || (p[2] && p[4]) || (p[4] && p[6]) || (p[6] && p[0]))
        s.cells[static_cast<size_t>(y) * s.width + x] = 0;
    }
  }
  return s;
}

TEST(Network, SkeletonMatchesThinningByFullScans) {
  uint32_t seed = 99;
  const auto next = [&](int n) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 8) % static_cast<uint32_t>(n));
  };
  for (int trial = 0; trial < 12; ++trial) {
    Mask m{90, 70, std::vector<uint8_t>(90 * 70, 0)};
    for (int disc = 0; disc < 3 + trial; ++disc) {  // overlapping discs and bars: blobs, loops, holes
      const int cx = next(90), cy = next(70), r = 1 + next(14), bar = next(3);
      for (int y = 0; y < 70; ++y)
        for (int x = 0; x < 90; ++x) {
          const bool in =
              bar == 0 ? std::abs(y - cy) <= r / 3 : (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
          if (in) m.cells[static_cast<size_t>(y) * 90 + x] = trial % 4 == 3 ? 0 : 1;
        }
      if (trial % 4 == 3 && disc == 0) std::fill(m.cells.begin(), m.cells.end(), uint8_t{1});
    }
    for (int noise = 0; noise < trial * 20; ++noise) m.cells[static_cast<size_t>(next(90 * 70))] ^= 1;
    EXPECT_EQ(skeleton(m).cells, thinned_by_full_scans(m).cells) << "trial " << trial;
  }
}

// A constant field makes the network one solid square: thinning it by whole-image scans took time
// cubic in its side (minutes); a few seconds is generous.
TEST(Network, SkeletonOfASolidSquareIsFast) {
  const Mask m{2000, 2000, std::vector<uint8_t>(2000 * 2000, 1)};
  const double start = test::thread_cpu_seconds();
  const Mask s = skeleton(m);
  EXPECT_LT(test::thread_cpu_seconds() - start, 5.0);
  const auto kept = std::count(s.cells.begin(), s.cells.end(), uint8_t{1});
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, 2000 * 8);  // a thin figure, not the square
}

// The stop hook is polled between the phases: asked at its nth poll, the analysis throws Stopped;
// never asked, the report is the one without a hook.
TEST(Network, AStopRequestEndsTheAnalysisAtItsNextPoll) {
  Grid field = blank(100, 100), food = blank(100, 100);
  thick_segment(field, 10, 50, 90, 50, 2.0, 1.0f);
  thick_segment(field, 50, 10, 50, 90, 2.0, 1.0f);
  for (const auto& [x, y] : {std::pair{10, 50}, std::pair{90, 50}, std::pair{50, 10}, std::pair{50, 90}}) {
    food.values[static_cast<size_t>(y) * 100 + x] = 1.0f;  // towns of two cells (TownRule)
    food.values[static_cast<size_t>(y) * 100 + x + 1] = 1.0f;
  }
  NetworkOptions o;
  o.threshold = 0.5f;
  const NetworkReport plain = analyse_network(field, &food, nullptr, o);
  ASSERT_GT(plain.cuts, 0);
  int polls = 0;
  o.stop = [&] { return ++polls < 0; };
  const NetworkReport hooked = analyse_network(field, &food, nullptr, o);
  EXPECT_EQ(network_json(hooked, ""), network_json(plain, ""));
  const int all = polls;
  ASSERT_GT(all, 4);  // the phases and every cut
  for (const int n : {1, 3, all}) {
    polls = 0;
    o.stop = [&] { return ++polls >= n; };
    EXPECT_THROW(analyse_network(field, &food, nullptr, o), Stopped) << "stop at poll " << n;
    EXPECT_EQ(polls, n);
  }
}

TEST(Network, SkeletonIsOneCellWideInsideTheMaskAndMeasuresDiagonals) {
  Grid field = blank(80, 80);
  thick_segment(field, 10, 10, 70, 70, 2.5, 1.0f);  // a 45 degree bar about five cells wide
  const Mask m = network_mask(field, nullptr, 0.5f);
  const Mask s = skeleton(m);
  int cells = 0;
  for (int y = 0; y + 1 < s.height; ++y) {
    for (int x = 0; x + 1 < s.width; ++x) {
      const size_t i = static_cast<size_t>(y) * s.width + x;
      if (!s.cells[i]) continue;
      ++cells;
      EXPECT_TRUE(m.cells[i]) << x << "," << y;
      // One cell wide: no 2x2 block of skeleton.
      EXPECT_FALSE(s.cells[i + 1] && s.cells[i + s.width] && s.cells[i + s.width + 1]) << x << "," << y;
    }
  }
  EXPECT_GT(cells, 40);
  EXPECT_NEAR(skeleton_length(s), 60 * std::sqrt(2.0), 4.0);
}

TEST(Network, PolylinesUseEverySkeletonEdgeOnceInFewStrokes) {
  // A plus sign and a separate square loop.
  Grid field = blank(90, 50);
  thick_segment(field, 5, 25, 45, 25, 1.0, 1.0f);
  thick_segment(field, 25, 5, 25, 45, 1.0, 1.0f);
  for (int y = 10; y <= 40; ++y) {
    for (int x = 55; x <= 85; ++x) {
      const bool ring = (x <= 57 || x >= 83 || y <= 12 || y >= 38);
      if (ring) at(field, x, y) = 1.0f;
    }
  }
  const Mask s = skeleton(network_mask(field, nullptr, 0.5f));
  const std::vector<Polyline> lines = skeleton_polylines(s);
  double total = 0;
  for (const Polyline& l : lines) {
    total += exporter::length(l);
    for (const Point& p : l.points) {
      EXPECT_TRUE(s.at(static_cast<int>(p.x), static_cast<int>(p.y))) << p.x << "," << p.y;
    }
  }
  EXPECT_NEAR(total, skeleton_length(s), 1e-9);
  // The plus: two strokes straight through the crossing; the square: one closed loop.
  EXPECT_LE(lines.size(), 3u);
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(), [](const Polyline& l) { return l.closed; }), 1);
}

TEST(Network, SampledCutsAreDeterministicAndCapped) {
  // A grid of lines: many skeleton cells, towns at the four corners.
  Grid field = blank(120, 120), food = blank(120, 120);
  for (int k = 10; k <= 110; k += 20) {
    thick_segment(field, 10, k, 110, k, 1.0, 1.0f);
    thick_segment(field, k, 10, k, 110, 1.0, 1.0f);
  }
  for (int x : {10, 110}) {
    for (int y : {10, 110}) disc(food, x, y, 2, 1.0f);
  }
  NetworkOptions o = absolute(0.5f);
  o.max_cuts = 40;
  o.seed = 7;
  const NetworkReport a = analyse_network(field, &food, nullptr, o);
  const NetworkReport b = analyse_network(field, &food, nullptr, o);
  EXPECT_EQ(a.cuts, 40);
  EXPECT_GT(a.cut_candidates, 40);
  ASSERT_TRUE(a.fault_tolerance && b.fault_tolerance);
  EXPECT_EQ(*a.fault_tolerance, *b.fault_tolerance);
  EXPECT_EQ(*a.fault_tolerance, 1.0);  // a mesh: no single cut separates the corners
}

}  // namespace
}  // namespace physarum::app::analysis

namespace physarum::app::analysis {
namespace {

namespace fs = std::filesystem;

// The showcase map as the report reads it: 24 towns, none in the sea, all on one stretch of land
// (so a network can link them), the land the larger part of the map.
// The towns are the map's, not its noise: a JPEG of the shipped map (ringing round every town, a
// black that is not quite 0) and the map with its black lifted give the same 24 towns in the same places.
TEST(NetworkShowcase, TownsSurviveJpegNoiseAndALiftedBlack) {
  const fs::path images = fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "images";
  const LumaImage png = load_luma(images / "towns_food.png");
  const fs::path dir = test::temp_dir();
  std::vector<uint8_t> grey(png.luma.size()), lifted(png.luma.size());
  for (size_t i = 0; i < grey.size(); ++i) {
    grey[i] = static_cast<uint8_t>(std::lround(png.luma[i] * 255.0f));
    lifted[i] = static_cast<uint8_t>(std::lround(20.0f + png.luma[i] * 235.0f));
  }
  ASSERT_TRUE(stbi_write_jpg((dir / "towns.jpg").c_str(), png.width, png.height, 1, grey.data(), 60));
  ASSERT_TRUE(stbi_write_png((dir / "lifted.png").c_str(), png.width, png.height, 1, lifted.data(), 0));
  const Size size{640, 360};
  std::vector<Town> reference;  // the PNG's, the first map read
  for (const fs::path& food : {images / "towns_food.png", dir / "towns.jpg", dir / "lifted.png"}) {
    SCOPED_TRACE(food.filename().string());
    EnvironmentParams params;
    params.food = food.string();
    const Environment env = run::load_environment(params, SpeciesSet{}, size);
    const EnvironmentMaps maps = environment_maps(size, env.food, std::vector<uint8_t>(env.food.size(), 0));
    ASSERT_TRUE(maps.food);
    // The old rule (every blob of food > 0) is fooled by the JPEG and by the lifted black.
    if (food.extension() == ".jpg") {
      EXPECT_NE(find_towns(*maps.food, 2, TownRule{0.0, 1}).size(), 24u);
    }
    const std::vector<Town> towns = find_towns(*maps.food, 2);
    EXPECT_EQ(towns.size(), 24u);
    // The same towns, each within a cell of where the PNG puts it.
    if (reference.empty()) reference = towns;
    for (const Town& r : reference) {
      double nearest = 1e9;
      for (const Town& t : towns) nearest = std::min(nearest, std::hypot(t.x - r.x, t.y - r.y));
      EXPECT_LT(nearest, 1.0) << "the PNG's town at " << r.x << "," << r.y;
    }
  }
}

TEST(NetworkShowcase, TownsMapHasTwentyFourTownsOnOneLandmass) {
  const fs::path images = fs::path(PHYSARUM_SOURCE_DIR) / "assets" / "images";
  EnvironmentParams params;
  params.food = (images / "towns_food.png").string();
  params.walls = (images / "towns_walls.png").string();
  for (const Size size : {Size{640, 360}, Size{960, 540}, Size{320, 180}}) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    // The maps as a run loads them (run/environment_maps), then as the report reads them.
    const Environment env = run::load_environment(params, SpeciesSet{}, size);
    const EnvironmentMaps maps = environment_maps(size, env.food, env.walls);
    ASSERT_TRUE(maps.food && maps.walls);
    const std::vector<Town> towns = find_towns(*maps.food, 2);
    EXPECT_EQ(towns.size(), 24u);
    // Land, 8-connected, labelled independently of the network code: a flood fill from town 0.
    const int w = size.width, h = size.height;
    std::vector<uint8_t> reached(static_cast<size_t>(w) * h, 0);
    std::vector<int> stack{static_cast<int>(std::lround(towns[0].y)) * w +
                           static_cast<int>(std::lround(towns[0].x))};
    reached[static_cast<size_t>(stack[0])] = 1;
    int64_t land = 0;
    for (uint8_t c : maps.walls->cells) land += c ? 0 : 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int x = i % w + dx, y = i / w + dy;
          if (x < 0 || y < 0 || x >= w || y >= h) continue;
          const size_t j = static_cast<size_t>(y) * w + x;
          if (!reached[j] && !maps.walls->cells[j]) {
            reached[j] = 1;
            stack.push_back(static_cast<int>(j));
          }
        }
      }
    }
    for (const Town& t : towns) {
      const size_t c = static_cast<size_t>(std::lround(t.y)) * w + static_cast<size_t>(std::lround(t.x));
      EXPECT_FALSE(maps.walls->cells[c]) << "a town in the sea at " << t.x << "," << t.y;
      EXPECT_TRUE(reached[c]) << "a town off the mainland at " << t.x << "," << t.y;
    }
    EXPECT_GT(land, static_cast<int64_t>(w) * h / 2);
    EXPECT_LT(land, static_cast<int64_t>(w) * h * 4 / 5);
  }
}

TEST(NetworkShowcase, RunMapsBecomeTownsAndWalls) {
  // 6 x 4: a town of two cells, a speck of the resize filter's ringing, a wall column.
  const Size size{6, 4};
  std::vector<float> food(24, 0.0f);
  food[1 * 6 + 1] = 1.0f;
  food[1 * 6 + 2] = 0.25f;
  food[3 * 6 + 4] = 0.4f / 255.0f;  // below half a grey level: not a town
  std::vector<uint8_t> walls(24, 0);
  for (int y = 0; y < 4; ++y) walls[static_cast<size_t>(y) * 6 + 5] = 7;  // any non-zero byte is a wall
  const EnvironmentMaps maps = environment_maps(size, food, walls);
  ASSERT_TRUE(maps.food && maps.walls);
  EXPECT_EQ(maps.food->values[3 * 6 + 4], 0.0f);
  EXPECT_EQ(maps.food->values[1 * 6 + 2], 0.25f);
  const std::vector<Town> towns = find_towns(*maps.food, 0);
  ASSERT_EQ(towns.size(), 1u);
  EXPECT_EQ(towns[0].cells, 2);
  EXPECT_NEAR(towns[0].x, (1.0 * 1.0 + 2.0 * 0.25) / 1.25, 1e-12);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 6; ++x) EXPECT_EQ(maps.walls->cells[static_cast<size_t>(y) * 6 + x], x == 5 ? 1 : 0);
  }
  // A run without an environment: no towns, no walls (the backends give zero planes).
  const EnvironmentMaps none =
      environment_maps(size, std::vector<float>(24, 0.0f), std::vector<uint8_t>(24, 0));
  EXPECT_FALSE(none.food || none.walls);
  EXPECT_THROW(environment_maps(size, std::vector<float>(23, 0.0f), walls), Error);
}

}  // namespace
}  // namespace physarum::app::analysis
