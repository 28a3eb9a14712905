// The network as a graph (app/analysis/network_graph.hpp): skeletons drawn by hand cut into the
// nodes and edges worked out by hand, Tero et al.'s measures on a triangle, a star and a ladder
// against values worked out on paper, the hysteresis threshold, the GraphML and JSON writers, and
// shapes that would make a quadratic method take minutes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "analysis/network.hpp"
#include "analysis/network_graph.hpp"
#include "test_support.hpp"

namespace physarum::app::analysis {
namespace {

Mask empty_mask(int w, int h) {
  return Mask{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h, 0)};
}

void set(Mask& m, int x, int y) {
  m.cells[static_cast<size_t>(y) * m.width + x] = 1;
}

// A town of one cell at (x, y) whose zone is the cells within `reach` of it.
Town town_at(int w, int h, int x, int y, int reach) {
  Town t{static_cast<double>(x), static_cast<double>(y), 1, {}};
  for (int yy = 0; yy < h; ++yy)
    for (int xx = 0; xx < w; ++xx)
      if ((xx - x) * (xx - x) + (yy - y) * (yy - y) <= reach * reach)
        t.zone.push_back(static_cast<int64_t>(yy) * w + xx);
  return t;
}

// A T: a line from town 0 at (5, 10) to town 1 at (45, 10), and a stem down from (25, 10) to a
// loose end at (25, 30). Level 2 along the bar, 4 down the stem.
TEST(NetworkGraph, AT_BetweenTwoTownsHasTwoTownsAJunctionAnEndAndThreeEdges) {
  const int w = 50, h = 40;
  Mask skel = empty_mask(w, h);
  Grid field{w, h, std::vector<float>(static_cast<size_t>(w) * h, 0.0f)};
  for (int x = 5; x <= 45; ++x) set(skel, x, 10), field.values[10 * w + x] = 2.0f;
  for (int y = 11; y <= 30; ++y) set(skel, 25, y), field.values[static_cast<size_t>(y) * w + 25] = 4.0f;
  const std::vector<Town> towns{town_at(w, h, 5, 10, 2), town_at(w, h, 45, 10, 2)};
  const NetworkGraph g = extract_graph(skel, field, towns);
  ASSERT_EQ(g.towns, 2);
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[0].kind, NodeKind::Town);
  EXPECT_EQ(g.nodes[1].kind, NodeKind::Town);
  EXPECT_EQ(g.nodes[1].town, 1);
  // Raster order after the towns: the junction (y = 10) before the end (y = 30).
  EXPECT_EQ(g.nodes[2].kind, NodeKind::Junction);
  EXPECT_DOUBLE_EQ(g.nodes[2].x, 25);
  EXPECT_DOUBLE_EQ(g.nodes[2].y, 10);
  EXPECT_EQ(g.nodes[3].kind, NodeKind::End);
  EXPECT_DOUBLE_EQ(g.nodes[3].y, 30);
  ASSERT_EQ(g.edges.size(), 3u);
  int seen = 0;
  for (const GraphEdge& e : g.edges) {
    const int lo = std::min(e.a, e.b), hi = std::max(e.a, e.b);
    if (lo == 0 && hi == 2) {
      // Cells 7..25 (the town's zone ends at x = 7): 18 steps, then 2 straight on to the centroid.
      EXPECT_DOUBLE_EQ(e.length, 20.0);
      EXPECT_EQ(e.cells, 19);
      EXPECT_DOUBLE_EQ(e.level, 2.0);
      seen |= 1;
    } else if (lo == 1 && hi == 2) {
      EXPECT_DOUBLE_EQ(e.length, 20.0);
      seen |= 2;
    } else if (lo == 2 && hi == 3) {
      EXPECT_DOUBLE_EQ(e.length, 20.0);
      EXPECT_EQ(e.cells, 21);
      EXPECT_NEAR(e.level, (2.0 + 20 * 4.0) / 21, 1e-12);
      seen |= 4;
    }
  }
  EXPECT_EQ(seen, 7);
}

// A closed ring with no junction, end or town: one loop node and one edge round it, as long as
// the ring (32 orthogonal steps round a 11 x 7 rectangle's outline); a diagonal line measures sqrt 2
// a step, as skeleton_length does.
TEST(NetworkGraph, ARingIsOneLoopAndADiagonalMeasuresRootTwoAStep) {
  const int w = 40, h = 20;
  Mask skel = empty_mask(w, h);
  for (int x = 2; x <= 12; ++x) set(skel, x, 2), set(skel, x, 8);
  for (int y = 3; y <= 7; ++y) set(skel, 2, y), set(skel, 12, y);
  for (int k = 0; k <= 10; ++k) set(skel, 20 + k, 5 + k);
  const Grid field{w, h, std::vector<float>(static_cast<size_t>(w) * h, 1.0f)};
  const NetworkGraph g = extract_graph(skel, field, {});
  ASSERT_EQ(g.nodes.size(), 3u);
  ASSERT_EQ(g.edges.size(), 2u);
  double total = 0;
  for (const GraphEdge& e : g.edges) {
    total += e.length;
    const GraphNode& a = g.nodes[static_cast<size_t>(e.a)];
    if (a.kind == NodeKind::Loop) {
      EXPECT_EQ(e.a, e.b);
      EXPECT_DOUBLE_EQ(e.length, 32.0);
    } else {
      EXPECT_EQ(a.kind, NodeKind::End);
      EXPECT_NEAR(e.length, 10 * std::sqrt(2.0), 1e-12);
    }
  }
  EXPECT_NEAR(total, skeleton_length(skel), 1e-9);
}

// A graph drawn node by node: the towns at `towns`, then junctions at `junctions`, and edges
// straight between them.
NetworkGraph drawn(const std::vector<Point>& towns, const std::vector<Point>& junctions,
                   const std::vector<std::pair<int, int>>& edges) {
  NetworkGraph g;
  g.towns = static_cast<int>(towns.size());
  for (size_t t = 0; t < towns.size(); ++t)
    g.nodes.push_back({NodeKind::Town, towns[t].x, towns[t].y, static_cast<int>(t)});
  for (const Point& p : junctions) g.nodes.push_back({NodeKind::Junction, p.x, p.y, -1});
  for (const auto& [a, b] : edges) {
    const GraphNode& p = g.nodes[static_cast<size_t>(a)];
    const GraphNode& q = g.nodes[static_cast<size_t>(b)];
    g.edges.push_back({a, b, std::hypot(p.x - q.x, p.y - q.y), 1.0, 2});
  }
  return g;
}

// Towns at (0, 0), (3, 0), (0, 4), all three sides built: TL = 3 + 4 + 5 = 12; the spanning tree
// keeps 3 and 4 (TL_MST = 7). Through the triangle the pairs are 3, 4 and 5 apart (MD = 4); through
// the tree 3, 4 and 3 + 4 (MD_MST = 14 / 3). No side is a bridge.
TEST(TeroMeasures, TriangleOfTowns) {
  const std::vector<Point> towns{{0, 0}, {3, 0}, {0, 4}};
  const TeroMeasures m = tero_measures(drawn(towns, {}, {{0, 1}, {1, 2}, {2, 0}}), towns);
  ASSERT_TRUE(m.cost && m.efficiency && m.fault_tolerance);
  EXPECT_NEAR(*m.cost, 12.0 / 7.0, 1e-12);
  EXPECT_NEAR(m.mean_distance, 4.0, 1e-12);
  EXPECT_NEAR(m.mst_mean_distance, 14.0 / 3.0, 1e-12);
  EXPECT_NEAR(*m.efficiency, 4.0 / (14.0 / 3.0), 1e-12);
  EXPECT_EQ(m.links, 3);
  EXPECT_EQ(m.bridges, 0);
  EXPECT_DOUBLE_EQ(*m.fault_tolerance, 0.0);
}

// Towns A (10, 0), B (-10, 0), C (0, 10) on a star from a junction at the origin, one arm split at
// (5, 0) by a node of two edges, and a loose spur from the junction to (0, -7) that reaches no town.
// The transport graph is the three arms (the spur is cut back, the split arm is one link): TL = 30.
// The tree: A-C and B-C, each 10 sqrt 2. Pairs through the star are all 20 apart; through the tree
// 10 sqrt 2, 10 sqrt 2 and 20 sqrt 2 (MD_MST = 40 sqrt 2 / 3). Every arm is a bridge.
TEST(TeroMeasures, StarWithASpurAndASplitArm) {
  const std::vector<Point> towns{{10, 0}, {-10, 0}, {0, 10}};
  // Nodes: 3 the junction, 4 the split, 5 the spur's end.
  const NetworkGraph g = drawn(towns, {{0, 0}, {5, 0}, {0, -7}}, {{3, 4}, {4, 0}, {3, 1}, {3, 2}, {3, 5}});
  const TeroMeasures m = tero_measures(g, towns);
  ASSERT_TRUE(m.cost && m.efficiency && m.fault_tolerance);
  const double r2 = std::sqrt(2.0);
  EXPECT_NEAR(m.total_length, 30.0, 1e-12);
  EXPECT_NEAR(*m.cost, 30.0 / (20 * r2), 1e-12);
  EXPECT_NEAR(m.mean_distance, 20.0, 1e-12);
  EXPECT_NEAR(*m.efficiency, 20.0 / (40 * r2 / 3), 1e-12);
  EXPECT_EQ(m.links, 3);
  EXPECT_EQ(m.bridges, 3);
  EXPECT_DOUBLE_EQ(*m.fault_tolerance, 1.0);
}

// Towns at the corners of a 20 x 10 ladder with three rungs (junctions at (10, 0) and (10, 10)):
// TL = 4 x 10 of rail + 3 x 10 of rungs = 70; the tree is two short sides and a long one, 40, so
// cost 1.75. Pairs through the ladder: 20, 20, 10, 10, 30, 30 (MD = 20); through the tree 20, 10,
// 10, 40, 30, 30 (MD_MST = 140 / 6), so efficiency 6 / 7. Every link lies on a cycle: no bridge.
// A pendant town E at (30, 0) adds a bridge: 1 of 8 links.
TEST(TeroMeasures, LadderAndAPendantTown) {
  const std::vector<Point> corners{{0, 0}, {20, 0}, {0, 10}, {20, 10}};
  const std::vector<std::pair<int, int>> ladder{{0, 4}, {4, 1}, {2, 5}, {5, 3}, {0, 2}, {4, 5}, {1, 3}};
  const TeroMeasures m = tero_measures(drawn(corners, {{10, 0}, {10, 10}}, ladder), corners);
  ASSERT_TRUE(m.cost && m.efficiency && m.fault_tolerance);
  EXPECT_NEAR(*m.cost, 1.75, 1e-12);
  EXPECT_NEAR(m.mean_distance, 20.0, 1e-12);
  EXPECT_NEAR(*m.efficiency, 20.0 / (140.0 / 6.0), 1e-12);
  EXPECT_EQ(m.links, 7);
  EXPECT_DOUBLE_EQ(*m.fault_tolerance, 0.0);

  std::vector<Point> five = corners;
  five.push_back({30, 0});
  // Town 4 is E; the junctions are now nodes 5 and 6.
  const std::vector<std::pair<int, int>> with_e{{0, 5}, {5, 1}, {2, 6}, {6, 3},
                                                {0, 2}, {5, 6}, {1, 3}, {1, 4}};
  const TeroMeasures p = tero_measures(drawn(five, {{10, 0}, {10, 10}}, with_e), five);
  ASSERT_TRUE(p.fault_tolerance);
  EXPECT_EQ(p.links, 8);
  EXPECT_EQ(p.bridges, 1);
  EXPECT_DOUBLE_EQ(*p.fault_tolerance, 1.0 / 8.0);
}

// Two links side by side between the same towns are not bridges; a town nobody reaches leaves the
// efficiency undefined (no path), the cost and the fault tolerance still measured.
TEST(TeroMeasures, ParallelLinksAndAnUnreachedTown) {
  const std::vector<Point> towns{{0, 0}, {10, 0}, {50, 50}};
  const TeroMeasures m = tero_measures(drawn(towns, {}, {{0, 1}, {1, 0}}), towns);
  EXPECT_EQ(m.links, 2);
  EXPECT_EQ(m.bridges, 0);
  EXPECT_FALSE(m.efficiency);
  ASSERT_TRUE(m.cost);
  EXPECT_NEAR(*m.cost, 20.0 / (10.0 + std::hypot(40.0, 50.0)), 1e-12);
}

// Many towns: Dijkstra runs from the first kMaxPairSources only. 300 towns 10 apart on a line,
// each linked to the next: a pair (s, t) is 10 (t - s) apart through the line and through the tree
// alike, so the efficiency is 1 and MD is the mean of 10 (t - s) over s < 256, s < t < 300.
TEST(TeroMeasures, PastTheCapOnlyPairsFromTheFirstTownsAreAveraged) {
  const int n = 300;
  std::vector<Point> towns;
  std::vector<std::pair<int, int>> line;
  for (int i = 0; i < n; ++i) towns.push_back({10.0 * i, 0.0});
  for (int i = 0; i + 1 < n; ++i) line.emplace_back(i, i + 1);
  const TeroMeasures m = tero_measures(drawn(towns, {}, line), towns);
  EXPECT_EQ(m.pair_sources, kMaxPairSources);
  double sum = 0;
  int64_t pairs = 0;
  for (int s = 0; s < kMaxPairSources; ++s)
    for (int t = s + 1; t < n; ++t) sum += 10.0 * (t - s), ++pairs;
  EXPECT_NEAR(m.mean_distance, sum / static_cast<double>(pairs), 1e-9);
  ASSERT_TRUE(m.efficiency && m.cost && m.fault_tolerance);
  EXPECT_NEAR(*m.efficiency, 1.0, 1e-12);
  EXPECT_NEAR(*m.cost, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(*m.fault_tolerance, 1.0);  // a line: every link a bridge
}

// The files: the description (a command line, any bytes) cannot break the XML or the JSON, a level
// that is not a number is GraphML's NaN and JSON's null, and a dense lattice's files stay within
// the bound the output budget is told (graph_file_bound).
TEST(GraphFiles, TheDescriptionIsEscapedNaNIsWrittenAsEachFormatAllowsAndTheFilesFitTheirBound) {
  const std::vector<Point> towns{{0, 0}, {3, 0}};
  NetworkGraph g = drawn(towns, {}, {{0, 1}});
  g.edges[0].level = std::nan("");
  const std::string made_by = "render --out \"a<b>&c.png\" \xff";
  const std::string xml = graph_graphml(g, made_by);
  EXPECT_NE(xml.find("<desc>render --out \"a&lt;b&gt;&amp;c.png\" ?</desc>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<data key=\"level\">NaN</data>"), std::string::npos) << xml;
  const std::string json = graph_json(g, made_by);
  EXPECT_NE(json.find("\"made_by\": \"render --out \\\"a<b>&c.png\\\" "), std::string::npos) << json;
  EXPECT_NE(json.find("\"level\": null"), std::string::npos) << json;
  EXPECT_EQ(json.find("nan"), std::string::npos) << json;

  const int side = 200;
  Mask skel = empty_mask(side, side);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      if (x % 2 == 0 || y % 2 == 0) set(skel, x, y);
  const Grid field{side, side, std::vector<float>(static_cast<size_t>(side) * side, -1.0e-30f)};
  const NetworkGraph lattice = extract_graph(skel, field, {});
  ASSERT_GT(lattice.nodes.size(), 9000u);
  const uint64_t bound = graph_file_bound(static_cast<uint64_t>(side) * side, 0, made_by.size());
  EXPECT_LE(graph_graphml(lattice, made_by).size(), bound);
  EXPECT_LE(graph_json(lattice, made_by).size(), bound);
}

// Cut from a real skeleton, the edges and the junctions' own steps make up the whole skeleton:
// with no towns, every skeleton edge is in one graph edge or inside one junction.
TEST(NetworkGraph, EdgesCoverTheSkeletonOfAThickCross) {
  const int w = 120, h = 90;
  Grid field{w, h, std::vector<float>(static_cast<size_t>(w) * h, 0.0f)};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (std::abs(y - 45) <= 3 || std::abs(x - 60) <= 3 || std::abs(x - y - 10) <= 2)
        field.values[static_cast<size_t>(y) * w + x] = 1.0f;
  const Mask skel = skeleton(network_mask(field, nullptr, 0.5f));
  const NetworkGraph g = extract_graph(skel, field, {});
  double edges = 0;
  for (const GraphEdge& e : g.edges) edges += e.length;
  EXPECT_LE(edges, skeleton_length(skel) + 1e-9);
  EXPECT_GT(edges, skeleton_length(skel) - 12);  // the junctions are small clusters
  int ends = 0;
  for (const GraphNode& n : g.nodes) ends += n.kind == NodeKind::End ? 1 : 0;
  EXPECT_GE(ends, 6);  // the three lines' six ends at the border (thinning may fork an end)
}

// A weak stretch (a tenth of the strong trail) between two towns, and background specks: the top
// 15% alone split the line there; hysteresis keeps it, the specks stay out.
TEST(NetworkThreshold, HysteresisKeepsAWeakStretchAndDropsSpecks) {
  const int w = 200, h = 60;
  Grid field{w, h, std::vector<float>(static_cast<size_t>(w) * h, 0.0f)};
  Grid food = field;
  for (int x = 10; x <= 190; ++x)
    for (int y = 28; y <= 32; ++y)
      field.values[static_cast<size_t>(y) * w + x] = x > 90 && x < 110 ? 4.0f : 30.0f;
  for (int k = 0; k < 40; ++k) field.values[static_cast<size_t>(5 + k % 4) * w + 5 * k] = 5.0f;
  for (const int tx : {10, 190})
    for (int y = 29; y <= 31; ++y) food.values[static_cast<size_t>(y) * w + tx] = 1.0f;
  NetworkOptions single;
  single.fraction = 0.05;
  single.low_ratio = 1.0;
  EXPECT_FALSE(analyse_network(field, &food, nullptr, single).towns_connected);
  NetworkOptions o;
  o.fraction = 0.05;
  const NetworkReport r = analyse_network(field, &food, nullptr, o);
  EXPECT_TRUE(r.towns_connected);
  EXPECT_EQ(r.components, 1);  // the specks reach 5, above the low level but never the high one
  EXPECT_FLOAT_EQ(r.threshold_low, r.threshold * 0.1f);
  ASSERT_TRUE(r.cost && r.efficiency);
  EXPECT_NEAR(*r.efficiency, 1.0, 0.05);  // one line: the tree itself
}

// A lattice of one-cell lines every other cell: a quarter of a million junctions. Cutting it and
// measuring it is linear or n log n; quadratic would take hours.
TEST(NetworkGraph, ALatticeOfAQuarterMillionJunctionsIsFast) {
  const int side = 1000;
  Mask skel = empty_mask(side, side);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      if (x % 2 == 0 || y % 2 == 0) set(skel, x, y);
  const Grid field{side, side, std::vector<float>(static_cast<size_t>(side) * side, 1.0f)};
  const std::vector<Town> towns{town_at(side, side, 0, 0, 1), town_at(side, side, 998, 998, 1)};
  const double start = test::thread_cpu_seconds();
  const NetworkGraph g = extract_graph(skel, field, towns);
  const TeroMeasures m = tero_measures(g, {{0, 0}, {998, 998}});
  EXPECT_LT(test::thread_cpu_seconds() - start, 10.0);
  EXPECT_GT(g.nodes.size(), 240000u);
  ASSERT_TRUE(m.efficiency);
  EXPECT_NEAR(m.mean_distance, 2 * 998, 4.0);  // a staircase path: the Manhattan distance
  EXPECT_EQ(m.bridges, 0);
}

}  // namespace
}  // namespace physarum::app::analysis
