#include "analysis/network_graph.hpp"

#include <cmath>
#include <numeric>

#include "sim/params.hpp"

namespace physarum::app::analysis {
namespace {

// The skeleton's cells and what each belongs to while the graph is cut out of it.
class GraphCutter {
 public:
  GraphCutter(const Mask& skel, const Grid& field, const std::vector<Town>& towns, const Mask* net)
      : s_(skel),
        field_(field),
        towns_(towns),
        net_(net),
        w_(skel.width),
        node_of_(skel.cells.size(), -1),
        traced_(skel.cells.size(), 0) {
    g_.towns = static_cast<int>(towns.size());
    for (const Town& t : towns)
      g_.nodes.push_back({NodeKind::Town, t.x, t.y, static_cast<int>(g_.nodes.size())});
  }

  NetworkGraph cut() {
    claim_town_cells();
    make_junctions_and_ends();
    for (size_t i = 0; i < s_.cells.size(); ++i) {
      if (node_of_[i] >= 0) trace_from(i);
    }
    // What is left are closed rings without a node: one node on each, then its edge round.
    for (size_t i = 0; i < s_.cells.size(); ++i) {
      if (!s_.cells[i] || node_of_[i] >= 0 || traced_[i]) continue;
      node_of_[i] = add_node(NodeKind::Loop, {i});
      trace_from(i);
    }
    return std::move(g_);
  }

 private:
  int x_of(size_t i) const { return static_cast<int>(i % static_cast<size_t>(w_)); }
  int y_of(size_t i) const { return static_cast<int>(i / static_cast<size_t>(w_)); }
  size_t at(int x, int y) const { return static_cast<size_t>(y) * static_cast<size_t>(w_) + x; }
  int steps(size_t i, SkeletonStep out[8]) const { return skeleton_steps(s_, x_of(i), y_of(i), out); }

  void claim_town_cells() {
    for (size_t t = 0; t < towns_.size(); ++t) {
      bool touched = false;
      for (const int64_t z : towns_[t].zone) {
        const auto i = static_cast<size_t>(z);
        if (s_.cells[i] && node_of_[i] < 0) node_of_[i] = static_cast<int>(t);
        touched = touched || (s_.cells[i] && node_of_[i] == static_cast<int>(t));
      }
      if (!touched && net_) claim_nearest_line(static_cast<int>(t));
    }
  }

  // A town whose zone touches the network but not its centre line (thinning stops a line's end short
  // of a wide trail's end) takes the nearest skeleton cell through the network, searched breadth
  // first at most kReach cells away, so a town the network reaches is a node of it.
  void claim_nearest_line(int town) {
    constexpr int kReach = 64;
    if (seen_.empty()) seen_.assign(s_.cells.size(), -1);
    std::vector<std::pair<size_t, int>> queue;
    for (const int64_t z : towns_[static_cast<size_t>(town)].zone) {
      const auto i = static_cast<size_t>(z);
      if (net_->cells[i] && seen_[i] != town) seen_[i] = town, queue.emplace_back(i, 0);
    }
    for (size_t q = 0; q < queue.size(); ++q) {
      const auto [i, depth] = queue[q];
      if (s_.cells[i] && node_of_[i] < 0) {
        node_of_[i] = town;
        return;
      }
      if (depth == kReach) continue;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int x = x_of(i) + dx, y = y_of(i) + dy;
          if (x < 0 || y < 0 || x >= w_ || y >= s_.height) continue;
          const size_t j = at(x, y);
          if (net_->cells[j] && seen_[j] != town) seen_[j] = town, queue.emplace_back(j, depth + 1);
        }
      }
    }
  }

  int add_node(NodeKind kind, const std::vector<size_t>& cells) {
    double sx = 0, sy = 0;
    for (const size_t i : cells) sx += x_of(i), sy += y_of(i);
    const auto n = static_cast<double>(cells.size());
    g_.nodes.push_back({kind, sx / n, sy / n, -1});
    return static_cast<int>(g_.nodes.size()) - 1;
  }

  // Junction cells joined by skeleton edges are one junction (a flood fill over them); cells with
  // fewer than two edges are ends.
  void make_junctions_and_ends() {
    SkeletonStep st[8], around[8];
    std::vector<size_t> cluster, stack;
    for (size_t i = 0; i < s_.cells.size(); ++i) {
      if (!s_.cells[i] || node_of_[i] >= 0) continue;
      const int n = steps(i, st);
      if (n < 2) {
        node_of_[i] = add_node(NodeKind::End, {i});
        continue;
      }
      if (n == 2) continue;
      cluster.assign(1, i);
      stack.assign(1, i);
      node_of_[i] = -2;  // taken, numbered once the cluster is whole
      while (!stack.empty()) {
        const size_t c = stack.back();
        stack.pop_back();
        SkeletonStep out[8];
        const int m = steps(c, out);
        for (int k = 0; k < m; ++k) {
          const size_t j = at(x_of(c) + out[k].dx, y_of(c) + out[k].dy);
          if (node_of_[j] != -1 || steps(j, around) < 3) continue;
          node_of_[j] = -2;
          cluster.push_back(j);
          stack.push_back(j);
        }
      }
      const int id = add_node(NodeKind::Junction, cluster);
      for (const size_t c : cluster) node_of_[c] = id;
    }
  }

  // The straight run from a town's centroid to the cell where a line enters it.
  double spoke(int node, size_t cell) const {
    const GraphNode& n = g_.nodes[static_cast<size_t>(node)];
    return n.kind == NodeKind::Town ? std::hypot(x_of(cell) - n.x, y_of(cell) - n.y) : 0.0;
  }

  // Every edge leaving node cell `from` that has not been traced from its other end.
  void trace_from(size_t from) {
    SkeletonStep first[8];
    const int n = steps(from, first);
    const int a = node_of_[from];
    for (int k = 0; k < n; ++k) {
      const size_t next = at(x_of(from) + first[k].dx, y_of(from) + first[k].dy);
      const int b = node_of_[next];
      if (b >= 0) {  // a single step between two nodes, taken once, from its lower-index cell
        if (b != a && from < next)
          add_edge(a, b, from, next, first[k].length, field_.values[from] + field_.values[next], 2);
        continue;
      }
      if (traced_[next]) continue;
      follow(from, next, first[k].length);
    }
  }

  // Along two-edge cells from `from` (a node cell) through `cell` to the next node cell.
  void follow(size_t from, size_t cell, double length) {
    double level = field_.values[from];
    int64_t cells = 1;
    size_t prev = from;
    SkeletonStep st[8];
    while (true) {
      level += field_.values[cell];
      ++cells;
      if (node_of_[cell] >= 0) break;
      traced_[cell] = 1;
      const int n = steps(cell, st);  // two: back to prev, and on
      size_t on = prev;
      double step = 0;
      for (int k = 0; k < n; ++k) {
        const size_t j = at(x_of(cell) + st[k].dx, y_of(cell) + st[k].dy);
        if (j != prev) on = j, step = st[k].length;
      }
      prev = cell;
      cell = on;
      length += step;
    }
    add_edge(node_of_[from], node_of_[cell], from, cell, length, level, cells);
  }

  void add_edge(int a, int b, size_t cell_a, size_t cell_b, double length, double level_sum, int64_t cells) {
    const double l = length + spoke(a, cell_a) + spoke(b, cell_b);
    g_.edges.push_back({a, b, l, level_sum / static_cast<double>(cells), cells});
  }

  const Mask& s_;
  const Grid& field_;
  const std::vector<Town>& towns_;
  const Mask* net_;
  int w_;
  std::vector<int> seen_;     // claim_nearest_line's visits, by town
  std::vector<int> node_of_;  // -1: a two-edge cell (or not skeleton)
  std::vector<uint8_t> traced_;
  NetworkGraph g_;
};

}  // namespace

const char* node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::Town: return "town";
    case NodeKind::Junction: return "junction";
    case NodeKind::End: return "end";
    case NodeKind::Loop: return "loop";
  }
  return "end";
}

NetworkGraph extract_graph(const Mask& skel, const Grid& field, const std::vector<Town>& towns,
                           const Mask* net) {
  if (field.width != skel.width || field.height != skel.height)
    throw Error("extract_graph: the field is " + std::to_string(field.width) + "x" +
                std::to_string(field.height) + ", the skeleton " + std::to_string(skel.width) + "x" +
                std::to_string(skel.height));
  return GraphCutter(skel, field, towns, net).cut();
}

}  // namespace physarum::app::analysis
