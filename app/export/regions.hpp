// Connected regions of a grid of cells, one labelling for the cave's regions (4 face neighbours, 6 in
// a volume: cave.hpp) and the network's components (8 neighbours: analysis/network.hpp), and one
// union-find for the sets that later merge (towns joined by the network, the spanning tree's
// components).
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace physarum::app::exporter {

// Labels the connected regions of the cells where in(i) holds; each_neighbour(i, visit) calls
// visit(j) for every neighbour j of cell i. Regions are numbered in the raster order of their first
// cell and every cell of one gets its number; other cells -1. Returns each region's size, by
// number. A flood fill with a stack of its own: no recursion, whatever a region's shape.
template <class In, class EachNeighbour>
std::vector<int64_t> label_connected(size_t cells, In&& in, EachNeighbour&& each_neighbour,
                                     std::vector<int>& labels) {
  labels.assign(cells, -1);
  std::vector<int64_t> sizes;
  std::vector<size_t> stack;
  for (size_t start = 0; start < cells; ++start) {
    if (labels[start] >= 0 || !in(start)) continue;
    const int label = static_cast<int>(sizes.size());
    int64_t count = 0;
    labels[start] = label;
    stack.push_back(start);
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      ++count;
      each_neighbour(i, [&](size_t j) {
        if (labels[j] < 0 && in(j)) {
          labels[j] = label;
          stack.push_back(j);
        }
      });
    }
    sizes.push_back(count);
  }
  return sizes;
}

// Sets of 0..n-1 that merge, with path halving: find(a) is the representative of a's set, and
// unite(a, b) hangs a's representative under b's (false, changing nothing, when they are one set).
class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), size_t{0}); }
  size_t find(size_t a) {
    while (parent_[a] != a) {
      parent_[a] = parent_[parent_[a]];
      a = parent_[a];
    }
    return a;
  }
  bool unite(size_t a, size_t b) {
    const size_t ra = find(a);
    const size_t rb = find(b);
    if (ra == rb) return false;
    parent_[ra] = rb;
    return true;
  }

 private:
  std::vector<size_t> parent_;
};

}  // namespace physarum::app::exporter
