// The transport network as a graph: the skeleton (network.hpp) cut at its junctions, loose ends and
// towns into edges that carry their length along the skeleton and their mean trail level, and the
// measures Tero et al. (Science 327:439, 2010) compared Physarum with the Tokyo railway by. The
// conventions (cells, 8-connectivity, lengths in cells) are network.hpp's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/network.hpp"

namespace physarum::app::analysis {

enum class NodeKind { Town, Junction, End, Loop };

// "town", "junction", "end", "loop": the words the graph files use.
const char* node_kind_name(NodeKind k);

struct GraphNode {
  NodeKind kind = NodeKind::End;
  double x = 0, y = 0;  // a town's centroid; else the mean of the node's skeleton cells
  int town = -1;        // the town's number for a town node
};

struct GraphEdge {
  int a = 0, b = 0;   // node indices (a == b for a loop back to its node)
  double length = 0;  // along the skeleton; a town end runs on straight to the town's centroid
  double level = 0;   // the mean trail level over the skeleton cells it follows, both ends included
  int64_t cells = 0;  // those cells
};

// Nodes 0 .. towns - 1 are the towns in their numbering, every town whether the network reaches
// it or not; then the junctions, ends and loops in raster order of their first cell.
struct NetworkGraph {
  int towns = 0;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
};

// Cuts the skeleton into the graph, in time linear in the skeleton and the towns' zones:
//  - A town's node holds every skeleton cell in its zone (the lowest-numbered town where zones
//    overlap): the network touches the town there. With `net` (the mask the skeleton thins), a
//    town whose zone holds network but no skeleton cell takes the skeleton cell nearest to its
//    zone through the network (breadth first, at most 64 steps): thinning ends a line short of
//    a wide trail's end, and the town is on the network all the same.
//  - Other skeleton cells with three or more skeleton edges are junction cells; junction cells
//    joined by an edge are one junction (thinning leaves small clusters where lines cross).
//  - A cell with one edge or none is an end; a closed ring with none of the above gets one node,
//    a loop, at its first cell in raster order.
//  - Every run of two-edge cells between node cells is an edge; two node cells of different
//    nodes that are neighbours are joined by an edge of that one step.
// `field` gives the edges' levels; it has the skeleton's size.
NetworkGraph extract_graph(const Mask& skel, const Grid& field, const std::vector<Town>& towns,
                           const Mask* net = nullptr);

// Tero et al. 2010's measures, each normalised by the towns' Euclidean minimum spanning tree as
// the paper normalises them. They are taken on the transport graph: the components holding a
// town, loose ends that reach no town cut back (repeatedly) and the nodes left with two edges
// merged into one link, so a link is a line between towns and junctions.
struct TeroMeasures {
  std::optional<double> cost;             // TL / TL_MST (two towns or more)
  std::optional<double> efficiency;       // MD / MD_MST (every town linked)
  std::optional<double> fault_tolerance;  // bridges / links (two towns or more, a link or more)
  double total_length = 0;                // TL
  double mean_distance = 0;               // MD over the pairs used
  double mst_mean_distance = 0;           // MD_MST over the same pairs
  int links = 0;
  int bridges = 0;
  int pair_sources = 0;  // towns whose pairs were measured (all, or the first kMaxPairSources)
};

// MD takes a shortest-path search from each town; above this many towns the pairs are those with
// one of the first kMaxPairSources towns, and `pair_sources` says so.
inline constexpr int kMaxPairSources = 256;

TeroMeasures tero_measures(const NetworkGraph& g, const std::vector<Point>& town_centres);

// The graph as GraphML (NetworkX, Gephi, QGIS) and as JSON (NetworkX's node-link form: "nodes",
// "links"). `description` goes into GraphML's <desc> and JSON's "graph" as the command that made it.
std::string graph_graphml(const NetworkGraph& g, const std::string& description);
std::string graph_json(const NetworkGraph& g, const std::string& description);

// An upper bound of either file's bytes for a graph of that many nodes and edges and a description
// of that many bytes (0 nodes and 0 edges: the framing alone).
uint64_t graph_file_bound(uint64_t nodes, uint64_t edges, uint64_t description_bytes);

}  // namespace physarum::app::analysis
