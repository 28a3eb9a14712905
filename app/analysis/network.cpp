#include "analysis/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "analysis/network_graph.hpp"
#include "export/regions.hpp"
#include "sim/json_text.hpp"

namespace physarum::app::analysis {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;

// The 8 neighbours clockwise from north: N, NE, E, SE, S, SW, W, NW (y down).
constexpr int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

size_t index_of(int w, int x, int y) {
  return static_cast<size_t>(y) * static_cast<size_t>(w) + x;
}

bool set_at(const Mask& m, int x, int y) {
  return x >= 0 && y >= 0 && x < m.width && y < m.height && m.cells[index_of(m.width, x, y)] != 0;
}

// Labels the 8-connected components of cells where `in(i)` holds (exporter::label_connected).
template <class In>
int label8(int w, int h, In in, std::vector<int>& labels) {
  const auto each_neighbour = [w, h](size_t i, auto&& visit) {
    const int x = static_cast<int>(i % static_cast<size_t>(w)),
              y = static_cast<int>(i / static_cast<size_t>(w));
    for (int k = 0; k < 8; ++k) {
      const int nx = x + kDx[k], ny = y + kDy[k];
      if (nx >= 0 && ny >= 0 && nx < w && ny < h) visit(index_of(w, nx, ny));
    }
  };
  const size_t cells = static_cast<size_t>(w) * static_cast<size_t>(h);
  return static_cast<int>(exporter::label_connected(cells, in, each_neighbour, labels).size());
}

using exporter::UnionFind;

// Towns and components as one graph: are all towns in one piece? Counts the towns on the network.
bool towns_linked(const std::vector<Town>& towns, const std::vector<int>& labels, int components,
                  int* on_network = nullptr) {
  const int t = static_cast<int>(towns.size());
  UnionFind uf(static_cast<size_t>(t + components));
  int on = 0;
  for (int k = 0; k < t; ++k) {
    bool touches = false;
    for (int64_t z : towns[static_cast<size_t>(k)].zone) {
      const int l = labels[static_cast<size_t>(z)];
      if (l >= 0) {
        uf.unite(static_cast<size_t>(k), static_cast<size_t>(t + l));
        touches = true;
      }
    }
    on += touches ? 1 : 0;
  }
  if (on_network) *on_network = on;
  if (t == 0) return false;
  if (t == 1) return true;
  for (int k = 1; k < t; ++k) {
    if (uf.find(static_cast<size_t>(k)) != uf.find(0)) return false;
  }
  return true;
}

// The neighbours a skeleton cell is joined to (see skeleton_length): direction indices into kDx.
int skeleton_edges(const Mask& s, int x, int y, int out[8]) {
  int n = 0;
  for (int k = 0; k < 8; ++k) {
    const int nx = x + kDx[k], ny = y + kDy[k];
    if (!set_at(s, nx, ny)) continue;
    if (k % 2 == 1 && (set_at(s, nx, y) || set_at(s, x, ny))) continue;  // diagonal round a corner
    out[n++] = k;
  }
  return n;
}

// Distance from (x, y) to the nearest cell that is not in the mask or lies outside the grid.
double distance_to_background(const Mask& m, int x, int y) {
  double best = std::numeric_limits<double>::infinity();
  const int limit = std::max(m.width, m.height) + 1;
  for (int r = 1; r <= limit && r < best; ++r) {
    for (int dy = -r; dy <= r; ++dy) {
      for (int dx = -r; dx <= r; ++dx) {
        if (std::max(std::abs(dx), std::abs(dy)) != r) continue;  // the ring at Chebyshev distance r
        if (!set_at(m, x + dx, y + dy)) best = std::min(best, std::hypot(dx, dy));
      }
    }
  }
  return best;
}

// Removes the blobs of fewer than `min_cells` cells and numbers the rest 0, 1, ... in their old
// order; returns how many are left.
int drop_small_blobs(std::vector<int>& labels, int n, int64_t min_cells) {
  std::vector<int64_t> size(static_cast<size_t>(n), 0);
  for (int l : labels)
    if (l >= 0) ++size[static_cast<size_t>(l)];
  std::vector<int> renumber(static_cast<size_t>(n), -1);
  int kept = 0;
  for (int l = 0; l < n; ++l)
    if (size[static_cast<size_t>(l)] >= min_cells) renumber[static_cast<size_t>(l)] = kept++;
  for (int& l : labels)
    if (l >= 0) l = renumber[static_cast<size_t>(l)];
  return kept;
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<Town> find_towns(const Grid& food, int reach, const TownRule& rule) {
  const int w = food.width, h = food.height;
  if (food.values.empty()) return {};
  const auto [lo_it, hi_it] = std::minmax_element(food.values.begin(), food.values.end());
  const double lo = *lo_it, hi = *hi_it;
  if (!(hi > lo)) return {};
  const double level = lo + rule.level * (hi - lo);
  std::vector<int> labels;
  int n = label8(
      w, h, [&](size_t i) { return food.values[i] > 0 && food.values[i] >= level; }, labels);
  n = drop_small_blobs(labels, n, rule.min_cells);
  std::vector<Town> towns(static_cast<size_t>(n));
  std::vector<double> weight(static_cast<size_t>(n), 0.0), sx(static_cast<size_t>(n), 0.0),
      sy(static_cast<size_t>(n), 0.0);
  for (size_t i = 0; i < labels.size(); ++i) {
    const int l = labels[i];
    if (l < 0) continue;
    const double v = food.values[i];
    const auto k = static_cast<size_t>(l);
    weight[k] += v;
    sx[k] += v * static_cast<double>(i % static_cast<size_t>(w));
    sy[k] += v * static_cast<double>(i / static_cast<size_t>(w));
    ++towns[k].cells;
  }
  // Zones: every blob cell stamps a disc of radius `reach`; `stamp` remembers the town that last
  // took a cell, so each town lists a cell once.
  std::vector<int> stamp(labels.size(), -1);
  for (size_t i = 0; i < labels.size(); ++i) {
    const int l = labels[i];
    if (l < 0) continue;
    const int x = static_cast<int>(i % static_cast<size_t>(w)),
              y = static_cast<int>(i / static_cast<size_t>(w));
    for (int dy = -reach; dy <= reach; ++dy) {
      for (int dx = -reach; dx <= reach; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if (dx * dx + dy * dy > reach * reach || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const size_t j = index_of(w, nx, ny);
        if (stamp[j] == l) continue;
        stamp[j] = l;
        towns[static_cast<size_t>(l)].zone.push_back(static_cast<int64_t>(j));
      }
    }
  }
  for (size_t k = 0; k < towns.size(); ++k) {
    towns[k].x = sx[k] / weight[k];
    towns[k].y = sy[k] / weight[k];
    std::sort(towns[k].zone.begin(), towns[k].zone.end());
  }
  return towns;
}

int label_components(const Mask& m, std::vector<int>& labels) {
  return label8(
      m.width, m.height, [&](size_t i) { return m.cells[i] != 0; }, labels);
}

float threshold_for_fraction(const Grid& field, const Mask* walls, double fraction) {
  std::vector<float> open;
  open.reserve(field.values.size());
  for (size_t i = 0; i < field.values.size(); ++i) {
    if (walls && walls->cells[i]) continue;
    if (!std::isnan(field.values[i])) open.push_back(field.values[i]);
  }
  if (open.empty()) return std::numeric_limits<float>::infinity();
  const double f = std::clamp(fraction, 0.0, 1.0);
  auto k = static_cast<size_t>(std::ceil(f * static_cast<double>(open.size())));
  k = std::clamp<size_t>(k, 1, open.size());
  std::nth_element(open.begin(), open.begin() + static_cast<std::ptrdiff_t>(k - 1), open.end(),
                   std::greater<float>());
  return open[k - 1];
}

Mask network_mask(const Grid& field, const Mask* walls, float threshold) {
  Mask m{field.width, field.height, std::vector<uint8_t>(field.values.size(), 0)};
  for (size_t i = 0; i < field.values.size(); ++i) {
    m.cells[i] = field.values[i] >= threshold && !(walls && walls->cells[i]) ? 1 : 0;
  }
  return m;
}

Mask hysteresis_mask(const Grid& field, const Mask* walls, float low, float high) {
  Mask m = network_mask(field, walls, low);
  std::vector<int> labels;
  const int n = label_components(m, labels);
  std::vector<uint8_t> strong(static_cast<size_t>(n), 0);
  for (size_t i = 0; i < m.cells.size(); ++i)
    if (m.cells[i] && field.values[i] >= high) strong[static_cast<size_t>(labels[i])] = 1;
  for (size_t i = 0; i < m.cells.size(); ++i)
    if (m.cells[i] && !strong[static_cast<size_t>(labels[i])]) m.cells[i] = 0;
  return m;
}

namespace {
// The eight neighbours of (x, y) in kDx/kDy order into p (1 set, 0 not); returns how many are set.
int ring_of(const Mask& s, int x, int y, int (&p)[8]) {
  int b = 0;
  for (int k = 0; k < 8; ++k) {
    p[k] = set_at(s, x + kDx[k], y + kDy[k]) ? 1 : 0;
    b += p[k];
  }
  return b;
}

// Zhang-Suen: two sub-iterations, each deciding on the image as it was at its start. A cell's decision
// depends only on its 8 neighbours, so a sub-iteration need only look again at cells next to those
// the last two cleared: the same decisions as scanning the whole image each time, which took time
// cubic in the side of a solid region.
void thin(Mask& s) {
  const int w = s.width;
  std::vector<size_t> candidates, to_clear, near_last, near_before;
  const auto every_set_cell = [&] {
    candidates.clear();
    for (size_t i = 0; i < s.cells.size(); ++i)
      if (s.cells[i]) candidates.push_back(i);
  };
  every_set_cell();
  std::vector<int64_t> seen(s.cells.size(), -1);
  bool cleared_last = true;
  for (int64_t t = 0;; ++t) {
    const int pass = static_cast<int>(t % 2);
    to_clear.clear();
    for (const size_t i : candidates) {
      const int x = static_cast<int>(i % static_cast<size_t>(w)),
                y = static_cast<int>(i / static_cast<size_t>(w));
      int p[8];
      const int b = ring_of(s, x, y, p);
      if (b < 2 || b > 6) continue;
      int a = 0;
      for (int k = 0; k < 8; ++k) a += (p[k] == 0 && p[(k + 1) % 8] == 1) ? 1 : 0;
      if (a != 1) continue;
      // p[0] N (P2), p[2] E (P4), p[4] S (P6), p[6] W (P8).
      const bool ok = pass == 0 ? (p[0] * p[2] * p[4] == 0 && p[2] * p[4] * p[6] == 0)
                                : (p[0] * p[2] * p[6] == 0 && p[0] * p[4] * p[6] == 0);
      if (ok) to_clear.push_back(i);
    }
    for (const size_t i : to_clear) s.cells[i] = 0;
    if (to_clear.empty() && !cleared_last && t >= 1) return;
    cleared_last = !to_clear.empty();
    near_before.swap(near_last);
    near_last.clear();
    for (const size_t i : to_clear) {
      const int x = static_cast<int>(i % static_cast<size_t>(w)),
                y = static_cast<int>(i / static_cast<size_t>(w));
      for (int k = 0; k < 8; ++k)
        if (set_at(s, x + kDx[k], y + kDy[k])) near_last.push_back(index_of(w, x + kDx[k], y + kDy[k]));
    }
    candidates.clear();
    for (const auto* list : {&near_before, &near_last}) {
      for (const size_t i : *list) {
        if (!s.cells[i] || seen[i] == t) continue;
        seen[i] = t;
        candidates.push_back(i);
      }
    }
    if (t == 0) every_set_cell();  // the second sub-iteration has not looked at anything yet
  }
}

}  // namespace

Mask skeleton(const Mask& m) {
  Mask s = m;
  const int w = s.width, h = s.height;
  thin(s);
  // Staircase corners: a cell with exactly two neighbours, orthogonal and at a right angle (their
  // shared corner cell empty), is dropped; the two stay joined diagonally. In raster order, each
  // decision on the current image, so a chain never breaks.
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!s.cells[index_of(w, x, y)]) continue;
      int p[8];
      if (ring_of(s, x, y, p) != 2) continue;
      for (int k = 0; k < 8; k += 2) {  // orthogonal k and k + 2, with the diagonal k + 1 between
        if (p[k] && p[(k + 2) % 8]) {
          s.cells[index_of(w, x, y)] = 0;
          break;
        }
      }
    }
  }
  return s;
}

double skeleton_length(const Mask& skel) {
  double sum = 0;
  for (int y = 0; y < skel.height; ++y) {
    for (int x = 0; x < skel.width; ++x) {
      if (!skel.cells[index_of(skel.width, x, y)]) continue;
      int e[8];
      const int n = skeleton_edges(skel, x, y, e);
      for (int k = 0; k < n; ++k) sum += e[k] % 2 == 1 ? kSqrt2 : 1.0;
    }
  }
  return sum / 2;  // every edge was seen from both ends
}

int skeleton_steps(const Mask& skel, int x, int y, SkeletonStep out[8]) {
  int e[8];
  const int n = skeleton_edges(skel, x, y, e);
  for (int k = 0; k < n; ++k) out[k] = {kDx[e[k]], kDy[e[k]], e[k] % 2 == 1 ? kSqrt2 : 1.0};
  return n;
}

std::vector<Polyline> skeleton_polylines(const Mask& skel) {
  const int w = skel.width, h = skel.height;
  // An edge is named by its lower-index end and the direction to the other end.
  std::unordered_set<int64_t> used;
  const auto edge_key = [&](int x, int y, int k) {
    const int nx = x + kDx[k], ny = y + kDy[k];
    const int64_t a = static_cast<int64_t>(index_of(w, x, y)), b = static_cast<int64_t>(index_of(w, nx, ny));
    return a < b ? a * 8 + k : b * 8 + (k + 4) % 8;
  };
  const auto unused_edges = [&](int x, int y, int out[8]) {
    int all[8];
    const int n = skeleton_edges(skel, x, y, all);
    int m = 0;
    for (int i = 0; i < n; ++i) {
      if (!used.count(edge_key(x, y, all[i]))) out[m++] = all[i];
    }
    return m;
  };
  std::vector<Polyline> lines;
  const auto trace = [&](int x, int y) {
    Polyline line;
    line.points.push_back({static_cast<double>(x), static_cast<double>(y)});
    const int x0 = x, y0 = y;
    int last = -1;
    while (true) {
      int e[8];
      const int n = unused_edges(x, y, e);
      if (n == 0) break;
      int pick = e[0];
      if (last >= 0) {  // the straightest way on: the largest cosine with the last step
        double best = -2;
        for (int i = 0; i < n; ++i) {
          const double c = (kDx[last] * kDx[e[i]] + kDy[last] * kDy[e[i]]) /
                           (std::hypot(kDx[last], kDy[last]) * std::hypot(kDx[e[i]], kDy[e[i]]));
          if (c > best + 1e-12) {
            best = c;
            pick = e[i];
          }
        }
      }
      used.insert(edge_key(x, y, pick));
      x += kDx[pick];
      y += kDy[pick];
      last = pick;
      line.points.push_back({static_cast<double>(x), static_cast<double>(y)});
    }
    if (line.points.size() > 3 && x == x0 && y == y0) {
      line.points.pop_back();
      line.closed = true;
    }
    if (line.points.size() >= 2) lines.push_back(std::move(line));
  };
  // Odd-degree cells first (loose ends, three-way junctions): an Euler-path greedy that leaves few
  // strokes; then whatever remains (loops and even junctions).
  for (int pass = 0; pass < 2; ++pass) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (!skel.cells[index_of(w, x, y)]) continue;
        int e[8];
        if (pass == 0 && skeleton_edges(skel, x, y, e) % 2 == 0) continue;
        while (unused_edges(x, y, e) > 0) trace(x, y);
      }
    }
  }
  // A lone cell is a dot: a zero-length stroke would be dropped by a plotter anyway.
  return lines;
}

namespace {

// A k-d tree over the points for Boruvka's rounds: each node knows its box and whether all its
// points belong to one component, so a search for the nearest point of another component skips it.
struct KdTree {
  struct Node {
    size_t lo, hi;    // points order[lo, hi)
    int left, right;  // children, -1 for a leaf
    double x0, y0, x1, y1;
    int64_t comp = -1;  // the component of all its points, -1 when mixed
  };
  const std::vector<Point>& p;
  std::vector<size_t> order;
  std::vector<Node> nodes;

  explicit KdTree(const std::vector<Point>& points) : p(points), order(points.size()) {
    std::iota(order.begin(), order.end(), size_t{0});
    build(0, order.size(), 0);
  }
  int build(size_t lo, size_t hi, int depth) {
    Node n{lo, hi, -1, -1, p[order[lo]].x, p[order[lo]].y, p[order[lo]].x, p[order[lo]].y};
    for (size_t k = lo; k < hi; ++k) {
      n.x0 = std::min(n.x0, p[order[k]].x), n.y0 = std::min(n.y0, p[order[k]].y);
      n.x1 = std::max(n.x1, p[order[k]].x), n.y1 = std::max(n.y1, p[order[k]].y);
    }
    const int id = static_cast<int>(nodes.size());
    nodes.push_back(n);
    if (hi - lo <= 8) return id;
    const size_t mid = lo + (hi - lo) / 2;
    const bool by_x = depth % 2 == 0;
    std::nth_element(order.begin() + static_cast<std::ptrdiff_t>(lo),
                     order.begin() + static_cast<std::ptrdiff_t>(mid),
                     order.begin() + static_cast<std::ptrdiff_t>(hi),
                     [&](size_t a, size_t b) { return by_x ? p[a].x < p[b].x : p[a].y < p[b].y; });
    const int l = build(lo, mid, depth + 1);
    const int r = build(mid, hi, depth + 1);
    nodes[static_cast<size_t>(id)].left = l;
    nodes[static_cast<size_t>(id)].right = r;
    return id;
  }
  int64_t mark(int id, const std::vector<int64_t>& comp) {
    Node& n = nodes[static_cast<size_t>(id)];
    if (n.left < 0) {
      n.comp = comp[order[n.lo]];
      for (size_t k = n.lo; k < n.hi; ++k) n.comp = comp[order[k]] == n.comp ? n.comp : -1;
    } else {
      const int64_t a = mark(n.left, comp);
      const int64_t b = mark(n.right, comp);
      n.comp = a == b ? a : -1;
    }
    return n.comp;
  }
  // Lowers `best` (squared length, lower index, higher index: ties go to the lower indices, an order
  // every component agrees on, as Boruvka needs) to the shortest edge from q to another component.
  // Starting from the best edge of q's component so far prunes all but a little of the tree.
  void nearest(int id, size_t q, int64_t c, const std::vector<int64_t>& comp,
               std::tuple<double, size_t, size_t>& best) const {
    const Node& n = nodes[static_cast<size_t>(id)];
    if (n.comp == c) return;
    const double dx = std::max({n.x0 - p[q].x, 0.0, p[q].x - n.x1});
    const double dy = std::max({n.y0 - p[q].y, 0.0, p[q].y - n.y1});
    if (dx * dx + dy * dy > std::get<0>(best)) return;
    if (n.left < 0) {
      for (size_t k = n.lo; k < n.hi; ++k) {
        const size_t j = order[k];
        if (comp[j] == c) continue;
        const double ex = p[j].x - p[q].x, ey = p[j].y - p[q].y;
        best = std::min(best, std::tuple{ex * ex + ey * ey, std::min(q, j), std::max(q, j)});
      }
      return;
    }
    nearest(n.left, q, c, comp, best);
    nearest(n.right, q, c, comp, best);
  }
};

}  // namespace

// Boruvka: every round joins each component to its nearest other component, so there are at most
// log2(n) rounds of n nearest-neighbour searches. Prim over all pairs took minutes for the tens of
// thousands of towns a dotted food map makes.
std::vector<std::pair<size_t, size_t>> mst_edges(const std::vector<Point>& points) {
  const size_t n = points.size();
  std::vector<std::pair<size_t, size_t>> tree;
  if (n < 2) return tree;
  KdTree kd(points);
  UnionFind up(n);
  std::vector<int64_t> comp(n);
  using Edge = std::tuple<double, size_t, size_t>;  // squared length, lower index, higher index
  while (tree.size() + 1 < n) {
    for (size_t i = 0; i < n; ++i) comp[i] = static_cast<int64_t>(up.find(i));
    kd.mark(0, comp);
    std::vector<Edge> cheapest(n, Edge{std::numeric_limits<double>::infinity(), n, n});
    for (const size_t i : kd.order) kd.nearest(0, i, comp[i], comp, cheapest[static_cast<size_t>(comp[i])]);
    for (const auto& [d2, a, b] : cheapest) {
      if (a == n) continue;
      if (up.unite(a, b)) tree.emplace_back(a, b);
    }
  }
  return tree;
}

double mst_length(const std::vector<Point>& points) {
  double total = 0;
  for (const auto& [a, b] : mst_edges(points))
    total += std::hypot(points[a].x - points[b].x, points[a].y - points[b].y);
  return total;
}

namespace {

// A disc cut out of the network, centred on a skeleton cell, as wide as the trail there.
struct Cut {
  int x, y;
  double radius;
};

// Calls visit(i) for each cell of the disc inside the map.
template <typename Visit>
void for_disc(int w, int h, const Cut& c, Visit visit) {
  const int reach = static_cast<int>(std::floor(c.radius));
  for (int dy = -reach; dy <= reach; ++dy) {
    for (int dx = -reach; dx <= reach; ++dx) {
      const int nx = c.x + dx, ny = c.y + dy;
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || dx * dx + dy * dy > c.radius * c.radius) continue;
      if (!visit(index_of(w, nx, ny))) return;
    }
  }
}

// The skeleton of the transport network: the components a town reaches (all of them when there
// are no towns).
Mask served_skeleton(const Mask& skel, const std::vector<int>& labels, int components,
                     const std::vector<Town>& towns) {
  std::vector<uint8_t> serves(static_cast<size_t>(components), towns.empty() ? 1 : 0);
  for (const Town& t : towns) {
    for (int64_t z : t.zone) {
      if (labels[static_cast<size_t>(z)] >= 0)
        serves[static_cast<size_t>(labels[static_cast<size_t>(z)])] = 1;
    }
  }
  Mask served = skel;
  for (size_t i = 0; i < served.cells.size(); ++i) {
    if (served.cells[i] && !serves[static_cast<size_t>(labels[i])]) served.cells[i] = 0;
  }
  return served;
}

// Candidate cuts: served skeleton cells whose disc stays clear of every town's zone.
std::vector<Cut> cut_candidates(const Mask& net, const Mask& served, const std::vector<Town>& towns) {
  const int w = net.width, h = net.height;
  std::vector<uint8_t> in_zone(net.cells.size(), 0);
  for (const Town& t : towns) {
    for (int64_t z : t.zone) in_zone[static_cast<size_t>(z)] = 1;
  }
  std::vector<Cut> candidates;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!served.cells[index_of(w, x, y)]) continue;
      const Cut c{x, y, distance_to_background(net, x, y) + 1};
      bool clear = true;
      for_disc(w, h, c, [&](size_t i) { return clear = !in_zone[i]; });
      if (clear) candidates.push_back(c);
    }
  }
  return candidates;
}

// At most max_cuts of them, a seeded random choice (a partial Fisher-Yates shuffle).
void sample_cuts(std::vector<Cut>& candidates, int max_cuts, uint64_t seed) {
  const size_t m = static_cast<size_t>(std::max(max_cuts, 0));
  if (candidates.size() <= m) return;
  uint64_t state = seed;
  for (size_t i = 0; i < m; ++i) {
    const size_t j = i + static_cast<size_t>(splitmix64(state) % (candidates.size() - i));
    std::swap(candidates[i], candidates[j]);
  }
  candidates.resize(m);
}

// The share of cuts after which every town is still linked to every other.
void check_stop(const NetworkOptions& o) {
  stop_if_asked(o.stop);
}

double share_surviving(const Mask& net, const std::vector<Town>& towns, const std::vector<Cut>& cuts,
                       const NetworkOptions& o) {
  int kept = 0;
  Mask cut = net;
  std::vector<int> cut_labels;
  for (const Cut& c : cuts) {
    check_stop(o);
    std::vector<size_t> removed;
    for_disc(net.width, net.height, c, [&](size_t i) {
      if (cut.cells[i]) {
        cut.cells[i] = 0;
        removed.push_back(i);
      }
      return true;
    });
    const int n = label_components(cut, cut_labels);
    kept += towns_linked(towns, cut_labels, n) ? 1 : 0;
    for (size_t i : removed) cut.cells[i] = 1;
  }
  return static_cast<double>(kept) / static_cast<double>(cuts.size());
}

}  // namespace

namespace {

// The graph of the transport network and Tero et al.'s measures on it.
void measure_graph(const Mask& net, const Mask& skel, const Grid& field, const std::vector<Town>& towns,
                   NetworkReport& r) {
  auto graph = std::make_shared<NetworkGraph>(extract_graph(skel, field, towns, &net));
  std::vector<Point> centres;
  for (const Town& t : towns) centres.push_back({t.x, t.y});
  const TeroMeasures m = tero_measures(*graph, centres);
  r.cost = m.cost;
  r.efficiency = m.efficiency;
  r.fault_tolerance_tero = m.fault_tolerance;
  r.links = m.links;
  r.bridges = m.bridges;
  r.pair_sources = m.pair_sources;
  r.graph = std::move(graph);
}

// Fault tolerance by cuts through the trail (see analyse_network).
void measure_cuts(const Mask& net, const Mask& served, const std::vector<Town>& towns,
                  const NetworkOptions& o, NetworkReport& r) {
  if (!r.towns_connected) {
    r.fault_tolerance = 0.0;
    return;
  }
  std::vector<Cut> cuts = cut_candidates(net, served, towns);
  r.cut_candidates = static_cast<int>(cuts.size());
  sample_cuts(cuts, o.max_cuts, o.seed);
  r.cuts = static_cast<int>(cuts.size());
  r.fault_tolerance = cuts.empty() ? 1.0 : share_surviving(net, towns, cuts, o);
}

}  // namespace

NetworkReport analyse_network(const Grid& field, const Grid* food, const Mask* walls,
                              const NetworkOptions& o) {
  NetworkReport r;
  r.threshold = o.threshold ? *o.threshold : threshold_for_fraction(field, walls, o.fraction);
  r.threshold_low = static_cast<float>(static_cast<double>(r.threshold) * std::clamp(o.low_ratio, 0.0, 1.0));
  const Mask net = hysteresis_mask(field, walls, r.threshold_low, r.threshold);
  r.network_cells = std::count(net.cells.begin(), net.cells.end(), uint8_t{1});
  std::vector<int> labels;
  r.components = label_components(net, labels);
  check_stop(o);

  const std::vector<Town> towns = food ? find_towns(*food, o.town_reach, o.towns) : std::vector<Town>{};
  r.towns = static_cast<int>(towns.size());
  r.towns_connected = towns_linked(towns, labels, r.components, &r.towns_on_network);

  check_stop(o);
  const Mask skel = skeleton(net);
  check_stop(o);
  const Mask served = served_skeleton(skel, labels, r.components, towns);
  r.network_length_all = skeleton_length(skel);
  r.network_length = skeleton_length(served);
  measure_graph(net, skel, field, towns, r);

  std::vector<Point> centres;
  for (const Town& t : towns) centres.push_back({t.x, t.y});
  r.mst_length = mst_length(centres);
  check_stop(o);
  if (towns.size() < 2) return r;
  if (r.mst_length > 0) r.ratio = r.network_length / r.mst_length;
  measure_cuts(net, served, towns, o, r);
  return r;
}

namespace {

std::string number(double v) {
  return json_number(v, 10);
}

template <class T>
std::string maybe(const std::optional<T>& v) {
  return v ? number(static_cast<double>(*v)) : std::string("null");
}

}  // namespace

std::string network_json(const NetworkReport& r, const std::string& extra) {
  std::string s = "{\n";
  if (!extra.empty()) s += extra;
  const bool has_towns = r.towns > 0;
  s += "  \"towns\": " + std::to_string(r.towns) + ",\n";
  s += "  \"towns_on_network\": " + std::to_string(r.towns_on_network) + ",\n";
  s += std::string("  \"towns_connected\": ") +
       (has_towns ? (r.towns_connected ? "true" : "false") : "null") + ",\n";
  s += "  \"network_length\": " + number(r.network_length) + ",\n";
  s += "  \"network_length_all\": " + number(r.network_length_all) + ",\n";
  s += "  \"mst_length\": " + (has_towns ? number(r.mst_length) : std::string("null")) + ",\n";
  s += "  \"ratio\": " + maybe(r.ratio) + ",\n";
  s += "  \"fault_tolerance\": " + maybe(r.fault_tolerance) + ",\n";
  s += "  \"cuts\": " + std::to_string(r.cuts) + ",\n";
  s += "  \"cut_candidates\": " + std::to_string(r.cut_candidates) + ",\n";
  s += "  \"cost\": " + maybe(r.cost) + ",\n";
  s += "  \"efficiency\": " + maybe(r.efficiency) + ",\n";
  s += "  \"fault_tolerance_tero\": " + maybe(r.fault_tolerance_tero) + ",\n";
  s += "  \"graph\": {\"nodes\": " + std::to_string(r.graph ? r.graph->nodes.size() : 0) +
       ", \"edges\": " + std::to_string(r.graph ? r.graph->edges.size() : 0) + "},\n";
  s += "  \"links\": " + std::to_string(r.links) + ",\n";
  s += "  \"bridges\": " + std::to_string(r.bridges) + ",\n";
  s += "  \"pair_sources\": " + std::to_string(r.pair_sources) + ",\n";
  s += "  \"threshold\": " + number(static_cast<double>(r.threshold)) + ",\n";
  s += "  \"threshold_low\": " + number(static_cast<double>(r.threshold_low)) + ",\n";
  s += "  \"network_cells\": " + std::to_string(r.network_cells) + ",\n";
  s += "  \"components\": " + std::to_string(r.components) + "\n";
  s += "}\n";
  return s;
}

}  // namespace physarum::app::analysis
