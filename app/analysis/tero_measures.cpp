// Tero et al. 2010's cost, transport efficiency and fault tolerance on the transport graph
// (network_graph.hpp says which graph that is).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

#include "analysis/network_graph.hpp"

namespace physarum::app::analysis {
namespace {

struct Link {
  int a, b;
  double length;
};

// Adjacency lists: for node v, (neighbour, link index) pairs.
using Adjacency = std::vector<std::vector<std::pair<int, int>>>;

Adjacency adjacency(size_t nodes, const std::vector<Link>& links) {
  Adjacency adj(nodes);
  for (size_t e = 0; e < links.size(); ++e) {
    adj[static_cast<size_t>(links[e].a)].emplace_back(links[e].b, static_cast<int>(e));
    if (links[e].a != links[e].b)
      adj[static_cast<size_t>(links[e].b)].emplace_back(links[e].a, static_cast<int>(e));
  }
  return adj;
}

// The nodes connected to a town (a breadth-first search from every town at once).
std::vector<uint8_t> town_components(const NetworkGraph& g, const Adjacency& adj) {
  std::vector<uint8_t> keep(g.nodes.size(), 0);
  std::vector<int> queue;
  for (int t = 0; t < g.towns; ++t) keep[static_cast<size_t>(t)] = 1, queue.push_back(t);
  for (size_t q = 0; q < queue.size(); ++q) {
    for (const auto& [v, e] : adj[static_cast<size_t>(queue[q])]) {
      if (!keep[static_cast<size_t>(v)]) keep[static_cast<size_t>(v)] = 1, queue.push_back(v);
    }
  }
  return keep;
}

// The transport graph's links: the town components, loose ends that are not towns cut back until
// none is left, then chains through two-link nodes that are not towns merged into one link.
std::vector<Link> transport_links(const NetworkGraph& g) {
  std::vector<Link> all;
  for (const GraphEdge& e : g.edges) all.push_back({e.a, e.b, e.length});
  const Adjacency adj = adjacency(g.nodes.size(), all);
  std::vector<uint8_t> alive = town_components(g, adj);
  std::vector<uint8_t> link_alive(all.size(), 1);
  std::vector<int> degree(g.nodes.size(), 0);
  for (const Link& l : all) {
    if (!alive[static_cast<size_t>(l.a)]) continue;
    degree[static_cast<size_t>(l.a)] += 1;
    degree[static_cast<size_t>(l.b)] += 1;  // a loop counts twice: it never makes a loose end
  }
  std::vector<int> ends;
  for (size_t v = static_cast<size_t>(g.towns); v < g.nodes.size(); ++v)
    if (alive[v] && degree[v] <= 1) ends.push_back(static_cast<int>(v));
  while (!ends.empty()) {
    const int v = ends.back();
    ends.pop_back();
    alive[static_cast<size_t>(v)] = 0;
    for (const auto& [u, e] : adj[static_cast<size_t>(v)]) {
      if (!link_alive[static_cast<size_t>(e)]) continue;
      link_alive[static_cast<size_t>(e)] = 0;
      if (--degree[static_cast<size_t>(u)] == 1 && u >= g.towns && alive[static_cast<size_t>(u)])
        ends.push_back(u);
    }
  }
  std::vector<Link> kept;
  for (size_t e = 0; e < all.size(); ++e)
    if (link_alive[e] && alive[static_cast<size_t>(all[e].a)]) kept.push_back(all[e]);
  // Merging: walk from every node that stays (a town, or not two links) along two-link nodes.
  const Adjacency kept_adj = adjacency(g.nodes.size(), kept);
  std::vector<int> kept_degree(g.nodes.size(), 0);
  for (const Link& l : kept) ++kept_degree[static_cast<size_t>(l.a)], ++kept_degree[static_cast<size_t>(l.b)];
  // A node that does not stay has two links to other nodes (a loop would make its degree 2 alone, but
  // such a node has a link towards a town as well).
  const auto stays = [&](int v) { return v < g.towns || kept_degree[static_cast<size_t>(v)] != 2; };
  std::vector<uint8_t> used(kept.size(), 0);
  std::vector<Link> links;
  for (int v = 0; v < static_cast<int>(g.nodes.size()); ++v) {
    if (!stays(v)) continue;
    for (const auto& [first, first_e] : kept_adj[static_cast<size_t>(v)]) {
      if (used[static_cast<size_t>(first_e)]) continue;
      used[static_cast<size_t>(first_e)] = 1;
      double length = kept[static_cast<size_t>(first_e)].length;
      int at = first, via = first_e;
      while (!stays(at)) {
        const auto& two = kept_adj[static_cast<size_t>(at)];
        const auto& [next, next_e] = two[0].second == via ? two[1] : two[0];
        used[static_cast<size_t>(next_e)] = 1;
        length += kept[static_cast<size_t>(next_e)].length;
        at = next, via = next_e;
      }
      links.push_back({v, at, length});
    }
  }
  return links;
}

// Tarjan's bridges, iterative (a long chain would overflow a recursive search): a link is a bridge
// when no path round it climbs above its lower end. Parallel links and loops are never bridges.
int count_bridges(size_t nodes, const std::vector<Link>& links) {
  const Adjacency adj = adjacency(nodes, links);
  std::vector<int> order(nodes, -1), low(nodes, 0);
  int time = 0, bridges = 0;
  struct Frame {
    int v, via;
    size_t next;
  };
  std::vector<Frame> stack;
  for (size_t root = 0; root < nodes; ++root) {
    if (order[root] >= 0) continue;
    order[root] = low[root] = time++;
    stack.push_back({static_cast<int>(root), -1, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto v = static_cast<size_t>(f.v);
      if (f.next < adj[v].size()) {
        const auto [u, e] = adj[v][f.next++];
        if (e == f.via) continue;
        if (order[static_cast<size_t>(u)] < 0) {
          order[static_cast<size_t>(u)] = low[static_cast<size_t>(u)] = time++;
          stack.push_back({u, e, 0});
        } else {
          low[v] = std::min(low[v], order[static_cast<size_t>(u)]);
        }
        continue;
      }
      const int via = f.via;
      stack.pop_back();
      if (stack.empty()) continue;
      const auto parent = static_cast<size_t>(stack.back().v);
      low[parent] = std::min(low[parent], low[v]);
      if (low[v] > order[parent] && via >= 0) ++bridges;
    }
  }
  return bridges;
}

// Shortest path lengths from `source` to every node (Dijkstra with a binary heap).
std::vector<double> distances_from(int source, const Adjacency& adj, const std::vector<Link>& links) {
  std::vector<double> d(adj.size(), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  d[static_cast<size_t>(source)] = 0;
  heap.emplace(0.0, source);
  while (!heap.empty()) {
    const auto [dv, v] = heap.top();
    heap.pop();
    if (dv > d[static_cast<size_t>(v)]) continue;
    for (const auto& [u, e] : adj[static_cast<size_t>(v)]) {
      const double du = dv + links[static_cast<size_t>(e)].length;
      if (du < d[static_cast<size_t>(u)]) d[static_cast<size_t>(u)] = du, heap.emplace(du, u);
    }
  }
  return d;
}

// Mean shortest distance over the pairs (s, t), s among the first `sources` towns, s < t.
double mean_town_distance(int towns, int sources, const Adjacency& adj, const std::vector<Link>& links) {
  double sum = 0;
  int64_t pairs = 0;
  for (int s = 0; s < sources; ++s) {
    const std::vector<double> d = distances_from(s, adj, links);
    for (int t = s + 1; t < towns; ++t) sum += d[static_cast<size_t>(t)], ++pairs;
  }
  return pairs > 0 ? sum / static_cast<double>(pairs) : 0.0;
}

}  // namespace

TeroMeasures tero_measures(const NetworkGraph& g, const std::vector<Point>& town_centres) {
  TeroMeasures m;
  const int towns = g.towns;
  if (towns < 2 || static_cast<int>(town_centres.size()) != towns) return m;
  const std::vector<Link> links = transport_links(g);
  for (const Link& l : links) m.total_length += l.length;
  m.links = static_cast<int>(links.size());
  std::vector<Link> tree;
  double tree_length = 0;
  for (const auto& [a, b] : mst_edges(town_centres)) {
    const Point& p = town_centres[a];
    const Point& q = town_centres[b];
    tree.push_back({static_cast<int>(a), static_cast<int>(b), std::hypot(p.x - q.x, p.y - q.y)});
    tree_length += tree.back().length;
  }
  if (tree_length > 0) m.cost = m.total_length / tree_length;
  if (m.links > 0) {
    m.bridges = count_bridges(g.nodes.size(), links);
    m.fault_tolerance = static_cast<double>(m.bridges) / static_cast<double>(m.links);
  }
  m.pair_sources = std::min(towns, kMaxPairSources);
  const Adjacency adj = adjacency(g.nodes.size(), links);
  m.mean_distance = mean_town_distance(towns, m.pair_sources, adj, links);
  m.mst_mean_distance = mean_town_distance(towns, m.pair_sources, adjacency(town_centres.size(), tree), tree);
  if (std::isfinite(m.mean_distance) && m.mst_mean_distance > 0)
    m.efficiency = m.mean_distance / m.mst_mean_distance;
  return m;
}

}  // namespace physarum::app::analysis
