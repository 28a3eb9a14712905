#include "export/contours.hpp"

#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace physarum::app::exporter {
namespace {

// Grid edges get ids: horizontal edge (x, y)-(x+1, y) is 2 * (y * W + x), vertical edge
// (x, y)-(x, y+1) is 2 * (y * W + x) + 1. A crossing point is named by its edge, so the two
// segments that meet there find each other exactly, without comparing coordinates.
struct Segment {
  int64_t a;
  int64_t b;
};

// Marching squares: in each 2x2 cell, the segments between the edges the level crosses.
std::vector<Segment> crossing_segments(const Grid& g, float level) {
  const int W = g.width, H = g.height;
  const auto hedge = [W](int x, int y) { return 2 * (static_cast<int64_t>(y) * W + x); };
  const auto vedge = [W](int x, int y) { return 2 * (static_cast<int64_t>(y) * W + x) + 1; };
  const auto above = [&](int x, int y) { return g.at(x, y) >= level; };

  std::vector<Segment> segments;
  for (int y = 0; y + 1 < H; ++y) {
    for (int x = 0; x + 1 < W; ++x) {
      // Corners counter-clockwise from top-left: tl, tr, br, bl; edges top, right, bottom, left.
      const bool tl = above(x, y), tr = above(x + 1, y), br = above(x + 1, y + 1), bl = above(x, y + 1);
      const int code = (tl ? 8 : 0) | (tr ? 4 : 0) | (br ? 2 : 0) | (bl ? 1 : 0);
      const int64_t top = hedge(x, y), bottom = hedge(x, y + 1), left = vedge(x, y), right = vedge(x + 1, y);
      switch (code) {
        case 0:
        case 15: break;
        case 1:
        case 14: segments.push_back({left, bottom}); break;
        case 2:
        case 13: segments.push_back({bottom, right}); break;
        case 3:
        case 12: segments.push_back({left, right}); break;
        case 4:
        case 11: segments.push_back({top, right}); break;
        case 6:
        case 9: segments.push_back({top, bottom}); break;
        case 7:
        case 8: segments.push_back({left, top}); break;
        case 5:
        case 10: {
          const double centre =
              (static_cast<double>(g.at(x, y)) + g.at(x + 1, y) + g.at(x + 1, y + 1) + g.at(x, y + 1)) / 4;
          // Whether the centre joins the two "above" corners decides which pairs of edges connect.
          const bool centre_above = centre >= level;
          if ((code == 5) == centre_above) {  // tr and bl above, joined through the centre
            segments.push_back({top, left});
            segments.push_back({bottom, right});
          } else {
            segments.push_back({top, right});
            segments.push_back({left, bottom});
          }
          break;
        }
        default: break;
      }
    }
  }
  return segments;
}

// Where the level crosses an edge, interpolated linearly between its two cells.
Point crossing_point(const Grid& g, float level, int64_t edge) {
  const int64_t cell = edge / 2;
  const int x = static_cast<int>(cell % g.width), y = static_cast<int>(cell / g.width);
  const int x2 = (edge % 2) ? x : x + 1;
  const int y2 = (edge % 2) ? y + 1 : y;
  const double v1 = g.at(x, y), v2 = g.at(x2, y2);
  const double t = v1 == v2 ? 0.5 : (static_cast<double>(level) - v1) / (v2 - v1);
  return Point{x + (x2 - x) * t, y + (y2 - y) * t};
}

// Chains segments that meet at a crossing into polylines.
class SegmentChains {
 public:
  explicit SegmentChains(const std::vector<Segment>& segments)
      : segments_(segments), used_(segments.size(), 0) {
    // Each crossing point belongs to one or two segments (an edge is shared by at most two cells).
    at_edge_.reserve(segments.size() * 2);
    for (size_t i = 0; i < segments.size(); ++i) {
      at_edge_[segments[i].a].push_back(i);
      at_edge_[segments[i].b].push_back(i);
    }
  }

  // Open lines first, started from their loose ends (edges with one segment), in segment order so
  // the output never depends on hash-map iteration; everything left afterwards is a closed loop.
  template <typename PointOf>
  std::vector<Polyline> lines(PointOf point_of) {
    std::vector<Polyline> lines;
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t s0 = 0; s0 < segments_.size(); ++s0) {
        if (used_[s0]) continue;
        int64_t start = segments_[s0].a;
        if (pass == 0) {
          if (at_edge_[segments_[s0].a].size() == 1) {
            start = segments_[s0].a;
          } else if (at_edge_[segments_[s0].b].size() == 1) {
            start = segments_[s0].b;
          } else {
            continue;
          }
        }
        lines.push_back(follow(s0, start, pass == 1, point_of));
      }
    }
    return lines;
  }

 private:
  // The line from `start` through segment s0 onward, until it ends or (closed) comes back.
  template <typename PointOf>
  Polyline follow(size_t s0, int64_t start, bool closed, PointOf point_of) {
    Polyline line;
    line.points.push_back(point_of(start));
    int64_t edge = far_end(s0, start);
    used_[s0] = 1;
    size_t current = s0;
    while (true) {
      if (closed && edge == start) {
        line.closed = true;
        break;
      }
      line.points.push_back(point_of(edge));
      const int64_t next = other_segment(edge, current);
      if (next < 0) break;
      current = static_cast<size_t>(next);
      used_[current] = 1;
      edge = far_end(current, edge);
    }
    return line;
  }

  int64_t other_segment(int64_t edge, size_t from) {
    for (size_t s : at_edge_[edge]) {
      if (s != from && !used_[s]) return static_cast<int64_t>(s);
    }
    return -1;
  }
  int64_t far_end(size_t s, int64_t edge) const {
    return segments_[s].a == edge ? segments_[s].b : segments_[s].a;
  }

  const std::vector<Segment>& segments_;
  std::vector<uint8_t> used_;
  std::unordered_map<int64_t, std::vector<size_t>> at_edge_;
};

}  // namespace

std::vector<Polyline> iso_lines(const Grid& g, float level) {
  const std::vector<Segment> segments = crossing_segments(g, level);
  return SegmentChains(segments).lines([&](int64_t edge) { return crossing_point(g, level, edge); });
}

namespace {

double distance_to_segment(const Point& p, const Point& a, const Point& b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

// Marks the points to keep between first and last (both kept), iteratively so long lines do not
// recurse deeply.
void rdp(const std::vector<Point>& pts, size_t first, size_t last, double tol, std::vector<uint8_t>& keep) {
  std::vector<std::pair<size_t, size_t>> stack{{first, last}};
  while (!stack.empty()) {
    const auto [a, b] = stack.back();
    stack.pop_back();
    double worst = -1;
    size_t at = a;
    for (size_t i = a + 1; i < b; ++i) {
      const double d = distance_to_segment(pts[i], pts[a], pts[b]);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    if (worst > tol) {
      keep[at] = 1;
      stack.push_back({a, at});
      stack.push_back({at, b});
    }
  }
}

}  // namespace

Polyline simplify(const Polyline& line, double tolerance) {
  const std::vector<Point>& p = line.points;
  if (p.size() < 3 || tolerance <= 0) return line;
  std::vector<uint8_t> keep(p.size(), 0);
  keep.front() = 1;
  if (line.closed) {
    size_t far = 0;
    double best = -1;
    for (size_t i = 1; i < p.size(); ++i) {
      const double d = std::hypot(p[i].x - p[0].x, p[i].y - p[0].y);
      if (d > best) {
        best = d;
        far = i;
      }
    }
    keep[far] = 1;
    rdp(p, 0, far, tolerance, keep);
    std::vector<Point> tail(p.begin() + static_cast<std::ptrdiff_t>(far), p.end());
    tail.push_back(p[0]);
    std::vector<uint8_t> keep_tail(tail.size(), 0);
    rdp(tail, 0, tail.size() - 1, tolerance, keep_tail);
    for (size_t i = 1; i + 1 < tail.size(); ++i) {
      if (keep_tail[i]) keep[far + i] = 1;
    }
  } else {
    keep.back() = 1;
    rdp(p, 0, p.size() - 1, tolerance, keep);
  }
  Polyline out;
  out.closed = line.closed;
  for (size_t i = 0; i < p.size(); ++i) {
    if (keep[i]) out.points.push_back(p[i]);
  }
  return out;
}

double length(const Polyline& line) {
  const std::vector<Point>& p = line.points;
  double sum = 0;
  for (size_t i = 1; i < p.size(); ++i) sum += std::hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
  if (line.closed && p.size() > 1) sum += std::hypot(p.front().x - p.back().x, p.front().y - p.back().y);
  return sum;
}

}  // namespace physarum::app::exporter
