// Measures a grown transport network the way the slime-mould railway experiment did (Tero et al.
// 2010): towns are blobs of food, the network is the thresholded trail, and the numbers are its
// length, whether it links every town, and how many single cuts it survives, against the minimum
// spanning tree of the towns. Plain C++ on host arrays: it never needs the simulation or a GPU.
//
// Conventions, everywhere in this file:
//  - Grids are row-major, y down, and stop at their edges (no wrap-around, even when the simulation
//    ran on a torus): a network is measured as it is drawn.
//  - Connectivity is 8-connectivity (cells that share an edge or a corner), for food blobs, the
//    network mask, its components and its skeleton alike.
//  - Lengths are in cells; points are cell centres, cell (x, y) at (x, y).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "export/cave.hpp"
#include "export/contours.hpp"
#include "export/grid.hpp"
#include "sim/stop.hpp"

namespace physarum::app::analysis {

using exporter::Grid;
using exporter::Mask;
using exporter::Point;
using exporter::Polyline;

struct Town {
  double x = 0;  // the food-weighted centroid of its blob
  double y = 0;
  int64_t cells = 0;          // the blob's size
  std::vector<int64_t> zone;  // the blob dilated by NetworkOptions::town_reach (cell indices)
};

// How towns are told from the food map's noise (a JPEG's ringing, a black that is not quite black):
// a town cell holds food at least `level` of the way from the map's least food to its most, and a
// town is an 8-connected blob of at least `min_cells` such cells.
struct TownRule {
  double level = 0.25;
  int64_t min_cells = 2;
};

// Towns by that rule, numbered in raster order of their first cell. Each gets its zone: the cells
// within Euclidean distance `reach` of a blob cell. A map with one food level everywhere (no range)
// has no towns.
std::vector<Town> find_towns(const Grid& food, int reach, const TownRule& rule = {});

// Labels the 8-connected components of the mask's 1-cells (0, 1, ... in raster order of their
// first cell; -1 elsewhere) and returns how many there are.
int label_components(const Mask& m, std::vector<int>& labels);

// The value v such that `fraction` of the open cells (not walls; all cells without a walls mask)
// have field >= v; ties at v are all kept, so a few more may be.
float threshold_for_fraction(const Grid& field, const Mask* walls, double fraction);

// Network cells: field >= threshold and not a wall.
Mask network_mask(const Grid& field, const Mask* walls, float threshold);

// Network cells by hysteresis: the 8-connected pieces of network_mask(low) that hold a cell of
// field >= high. A trail keeps its weaker stretches (where fewer agents ran, or a line thins
// between two junctions) as long as they hang on to a strong one; the background's specks,
// which never reach `high`, stay out.
Mask hysteresis_mask(const Grid& field, const Mask* walls, float low, float high);

// One cell wide centre lines: Zhang-Suen thinning, then staircase corners removed (a cell whose two
// orthogonal neighbours at a right angle are joined through their shared corner anyway), so a
// diagonal run is a chain of diagonal steps.
Mask skeleton(const Mask& m);

// The skeleton's length: each pair of 8-neighbouring skeleton cells is one edge, 1 for an
// orthogonal step and sqrt(2) for a diagonal one; a diagonal pair is not an edge when one of the
// two cells orthogonally next to both is also skeleton (the path goes round that corner already).
double skeleton_length(const Mask& skel);

// One of those edges seen from a skeleton cell: the neighbour's offset and the step's length.
struct SkeletonStep {
  int dx = 0, dy = 0;
  double length = 0;
};

// The edges of skeleton cell (x, y), as skeleton_length counts them; returns how many (at most 8).
int skeleton_steps(const Mask& skel, int x, int y, SkeletonStep out[8]);

// The skeleton as polylines for drawing: strokes follow the edges above, start at the loose ends,
// carry on straight through junctions where they can (fewest pen lifts), and what is left are
// closed loops. Every point is a skeleton cell's centre.
std::vector<Polyline> skeleton_polylines(const Mask& skel);

// The length of the Euclidean minimum spanning tree of the points (Boruvka over a k-d tree, about
// n log^2 n; double precision).
double mst_length(const std::vector<Point>& points);

// That tree's edges, as pairs of point indices (n - 1 of them for n points).
std::vector<std::pair<size_t, size_t>> mst_edges(const std::vector<Point>& points);

struct NetworkGraph;

struct NetworkOptions {
  std::optional<float> threshold;  // the high level, absolute; else `fraction`
  double fraction = 0.15;          // the share of open cells at or above the high level
  double low_ratio = 0.1;          // the low level is this share of the high one (1: no hysteresis)
  int town_reach = 2;              // a town's zone reaches this many cells past its blob
  TownRule towns;                  // which food blobs are towns
  int max_cuts = 256;              // fault tolerance: at most this many cuts (all when fewer)
  uint64_t seed = 1;               // which cuts, when sampled
  // Polled between phases and between cuts: when it returns true, analyse_network throws Stopped,
  // so Ctrl-C during a long report ends the program instead of being swallowed.
  StopCheck stop;
};

// What analyse_network throws when NetworkOptions::stop asked it to end.
using Stopped = physarum::Stopped;

struct NetworkReport {
  float threshold = 0;      // the high level
  float threshold_low = 0;  // the low level
  int64_t network_cells = 0;
  int components = 0;  // of the whole mask
  int towns = 0;
  int towns_on_network = 0;  // towns whose zone holds a network cell
  bool towns_connected = false;
  double network_length = 0;      // skeleton of the components that reach a town (all when no towns)
  double network_length_all = 0;  // skeleton of the whole mask
  double mst_length = 0;
  std::optional<double> ratio;            // network_length / mst_length (two towns or more)
  std::optional<double> fault_tolerance;  // two towns or more
  int cuts = 0;
  int cut_candidates = 0;
  // The network as a graph (network_graph.hpp) and Tero et al. 2010's measures on it.
  std::shared_ptr<const NetworkGraph> graph;
  std::optional<double> cost;                  // TL / TL_MST
  std::optional<double> efficiency;            // MD / MD_MST
  std::optional<double> fault_tolerance_tero;  // the share of links whose failure cuts the network
  int links = 0, bridges = 0, pair_sources = 0;
};

// Fault tolerance (the share of single cuts after which every town is still linked):
//  - A cut is centred on a skeleton cell c of a component that reaches a town; it removes every
//    network cell within distance d(c) + 1 of c, where d(c) is the distance from c to the nearest
//    cell that is not network (or lies outside the grid), so it severs the trail's whole width.
//  - Cuts whose disc reaches into a town's zone are not made: they cut the line between towns, not
//    the station (the experiment cut links).
//  - With more candidates than max_cuts, max_cuts distinct ones are drawn (a partial Fisher-Yates
//    shuffle of the candidates in raster order, driven by splitmix64 from `seed`); else all.
//  - Towns are linked when the towns and the mask's components form one connected graph, a town
//    joining every component with a cell in its zone (a town is a station where lines meet).
//  - Not linked before any cut: 0. Linked and nothing to cut: 1. Fewer than two towns: none.
NetworkReport analyse_network(const Grid& field, const Grid* food, const Mask* walls,
                              const NetworkOptions& o);

// The report as JSON (keys: towns, towns_connected, network_length, mst_length, fault_tolerance,
// ratio, ...); numbers that do not exist are null. `extra` is inserted verbatim after the opening
// brace (e.g. "\"steps\": 100, ").
std::string network_json(const NetworkReport& r, const std::string& extra = {});

}  // namespace physarum::app::analysis
