// The one labelling of connected regions and the one union-find (export/regions.hpp) that the cave's
// regions and the network's components share, on hand-made grids.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "export/regions.hpp"

namespace physarum::app::exporter {
namespace {

// '#' cells of a picture, row by row.
struct Picture {
  int w = 0, h = 0;
  std::string cells;
  bool in(size_t i) const { return cells[i] == '#'; }
};

// Face neighbours (4) or all eight.
auto neighbours(const Picture& p, bool diagonal) {
  return [&p, diagonal](size_t i, auto&& visit) {
    const int x = static_cast<int>(i) % p.w, y = static_cast<int>(i) / p.w;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || (!diagonal && dx != 0 && dy != 0)) continue;
        const int nx = x + dx, ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < p.w && ny < p.h) visit(static_cast<size_t>(ny * p.w + nx));
      }
    }
  };
}

TEST(Regions, LabelsInRasterOrderWithSizesAndTheNeighbourhoodDecides) {
  const Picture p{6, 4,
                  "#..##."
                  ".#..#."
                  "......"
                  "##...#"};
  std::vector<int> labels;
  const auto in = [&](size_t i) { return p.in(i); };
  // Four neighbours: {0}, {3, 4, 10}, {7}, {18, 19}, {23}.
  EXPECT_EQ(label_connected(p.cells.size(), in, neighbours(p, false), labels),
            (std::vector<int64_t>{1, 3, 1, 2, 1}));
  const std::vector<int> four{0,  -1, -1, 1,  1,  -1, -1, 2, -1, -1, 1,  -1,
                              -1, -1, -1, -1, -1, -1, 3,  3, -1, -1, -1, 4};
  EXPECT_EQ(labels, four);
  // Eight: the diagonal pair (0, 7) joins.
  EXPECT_EQ(label_connected(p.cells.size(), in, neighbours(p, true), labels),
            (std::vector<int64_t>{2, 3, 2, 1}));
  EXPECT_EQ(labels[0], 0);
  EXPECT_EQ(labels[7], 0);
  EXPECT_EQ(labels[3], 1);
  EXPECT_EQ(labels[18], 2);
  EXPECT_EQ(labels[23], 3);
  // Nothing in: no regions, every cell -1.
  EXPECT_TRUE(label_connected(
                  p.cells.size(), [](size_t) { return false; }, neighbours(p, true), labels)
                  .empty());
  EXPECT_EQ(labels, std::vector<int>(p.cells.size(), -1));
}

TEST(Regions, UnionFindMergesOnceAndKnowsItsSets) {
  UnionFind u(6);
  EXPECT_TRUE(u.unite(0, 1));
  EXPECT_TRUE(u.unite(2, 3));
  EXPECT_TRUE(u.unite(1, 3));
  EXPECT_FALSE(u.unite(0, 2));  // one set already
  EXPECT_EQ(u.find(0), u.find(2));
  EXPECT_EQ(u.find(1), u.find(3));
  EXPECT_NE(u.find(0), u.find(4));
  EXPECT_NE(u.find(4), u.find(5));
  EXPECT_EQ(u.find(5), 5U);
  // unite(a, b) hangs a's representative under b's.
  EXPECT_TRUE(u.unite(4, 5));
  EXPECT_EQ(u.find(4), 5U);
}

}  // namespace
}  // namespace physarum::app::exporter
