// Iso-lines of a grid by marching squares, joined into long polylines and simplified, so that a
// pen plotter draws each line in one stroke instead of lifting the pen at every cell.
#pragma once

#include <vector>

#include "export/grid.hpp"

namespace physarum::app::exporter {

struct Point {
  double x = 0;  // grid coordinates: (0, 0) is the first cell's centre
  double y = 0;
};

struct Polyline {
  std::vector<Point> points;  // a closed line does not repeat its first point at the end
  bool closed = false;
};

// The lines where the bilinear surface through the grid points equals `level`. Every point lies
// on a grid edge at the linear interpolation of its two end values, so it is on that surface.
// Saddle cells are resolved by the cell's centre value (the mean of its corners).
std::vector<Polyline> iso_lines(const Grid& g, float level);

// Ramer-Douglas-Peucker: drops points closer than `tolerance` to the simplified line. A closed
// line is split at its first point and the point farthest from it, so both halves keep their ends.
Polyline simplify(const Polyline& line, double tolerance);

// The length of the line in grid units, the closing segment included when it is closed.
double length(const Polyline& line);

}  // namespace physarum::app::exporter
