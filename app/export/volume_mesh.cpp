#include "export/volume_mesh.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "sim/params.hpp"

namespace physarum::app::exporter {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// The six tetrahedra of a cube around its diagonal from corner 0 to corner 7, corners as bits
// (x = 1, y = 2, z = 4): each walks 0 -> one axis -> two axes -> 7, in the order of a permutation
// of the axes. Listed with positive orientation (the odd permutations' last two corners swapped),
// so one rule orients every triangle outward. Any two corners of one are nested as bit sets.
constexpr std::array<std::array<int, 4>, 6> kTets = {{
    {0, 1, 3, 7},
    {0, 2, 6, 7},
    {0, 4, 5, 7},
    {0, 1, 7, 5},
    {0, 2, 7, 3},
    {0, 4, 7, 6},
}};

// Even permutations of a tetrahedron's corners that start with a given one: orientation kept.
constexpr std::array<std::array<int, 4>, 4> kEvenFrom = {
    {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}}};

float clamp_to_float(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  return static_cast<float>(std::clamp(v, -kMax, kMax));
}

// The field minus the level, inside >= 0, on the volume padded by one voxel on every side. A voxel
// the mask moved to the other side has its value mirrored; a pad voxel mirrors its nearest voxel
// when that is inside (the closing cap then lies halfway between them) and copies it otherwise.
struct SignedField {
  int pw = 0, ph = 0, pd = 0;
  std::vector<float> s;
  float at(int i, int j, int k) const {
    return s[(static_cast<size_t>(k) * static_cast<size_t>(ph) + static_cast<size_t>(j)) *
                 static_cast<size_t>(pw) +
             static_cast<size_t>(i)];
  }
};

// Smallest step below zero: "outside" for a value that sits exactly on the level.
constexpr float kBelow = -std::numeric_limits<float>::denorm_min();

float outside_of(float s) {
  return s > 0 ? -s : (s < 0 ? s : kBelow);
}

SignedField signed_field(const VolumeGrid& g, float level, const Mask& inside) {
  SignedField f{g.width + 2, g.height + 2, g.depth + 2, {}};
  f.s.resize(static_cast<size_t>(f.pw) * static_cast<size_t>(f.ph) * static_cast<size_t>(f.pd));
  const auto voxel = [&](int x, int y, int z) {
    const size_t v = (static_cast<size_t>(z) * static_cast<size_t>(g.height) + static_cast<size_t>(y)) *
                         static_cast<size_t>(g.width) +
                     static_cast<size_t>(x);
    const float s = clamp_to_float(static_cast<double>(g.values[v]) - static_cast<double>(level));
    if (inside.cells[v]) return s >= 0 ? s : -s;
    return s >= 0 ? outside_of(s) : s;
  };
  size_t o = 0;
  for (int k = 0; k < f.pd; ++k) {
    const int z = std::clamp(k - 1, 0, g.depth - 1);
    const bool kpad = k == 0 || k == f.pd - 1;
    for (int j = 0; j < f.ph; ++j) {
      const int y = std::clamp(j - 1, 0, g.height - 1);
      const bool jpad = kpad || j == 0 || j == f.ph - 1;
      for (int i = 0; i < f.pw; ++i, ++o) {
        const float s = voxel(std::clamp(i - 1, 0, g.width - 1), y, z);
        f.s[o] = (jpad || i == 0 || i == f.pw - 1) ? outside_of(s) : s;
      }
    }
  }
  return f;
}

// Where the trilinear interpolation along the edge from grid point p (padded) in direction `kind`
// (bits of the axes it moves along: a cube edge, a face diagonal or the cube diagonal) meets zero.
// Along such an edge the interpolant is sum over corners c within `kind` of
// s(p + c) t^|c| (1 - t)^(|kind| - |c|): linear on a cube edge (solved directly), quadratic or cubic
// on a diagonal (bisected to far below a float's resolution of a voxel).
double edge_root(const SignedField& f, int i, int j, int k, int kind) {
  std::array<double, 8> value{};
  std::array<int, 8> order{};
  int n = 0;
  for (int c = 0; c < 8; ++c) {
    if ((c & ~kind) != 0) continue;
    value[static_cast<size_t>(n)] = f.at(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
    order[static_cast<size_t>(n)] = std::popcount(static_cast<unsigned>(c));
    ++n;
  }
  const double s0 = value[0], s1 = value[static_cast<size_t>(n - 1)];
  const int m = std::popcount(static_cast<unsigned>(kind));
  // Where an end lies on the level, or within rounding of it, the vertices of all the edges leaving
  // it would fall on one point: distinct vertices in one place, which the simplifier takes for one
  // (and then tears the surface). A vertex stays at least 1/1024 of its edge from either end.
  constexpr double kApart = 1.0 / 1024;
  const auto apart = [&](double t) { return std::clamp(t, kApart, 1 - kApart); };
  if (m == 1) return apart(s0 / (s0 - s1));
  const auto at = [&](double t) {
    std::array<double, 4> tp{1, t, t * t, t * t * t},
        up{1, 1 - t, (1 - t) * (1 - t), (1 - t) * (1 - t) * (1 - t)};
    double sum = 0;
    for (size_t q = 0; q < static_cast<size_t>(n); ++q) {
      sum += value[q] * tp[static_cast<size_t>(order[q])] * up[static_cast<size_t>(m - order[q])];
    }
    return sum;
  };
  const bool inside0 = s0 >= 0;
  double lo = 0, hi = 1;
  for (int it = 0; it < 40; ++it) {
    const double mid = 0.5 * (lo + hi);
    ((at(mid) >= 0) == inside0 ? lo : hi) = mid;
  }
  return apart(0.5 * (lo + hi));
}

// Marching tetrahedra over one layer of cubes at a time. A vertex is known by its edge: the grid
// point at the edge's lower end and the edge's kind (1..7, axes as bits). The edges starting in
// plane k (all kinds) and the in-plane edges of plane k + 1 are all a layer's cubes touch, so only
// those are remembered: memory grows with a plane, not with the volume.
class Marcher {
 public:
  Marcher(const SignedField& f, double voxel_size, Mesh& out) : f_(f), scale_(voxel_size), out_(out) {
    const size_t n = static_cast<size_t>(f.pw) * static_cast<size_t>(f.ph);
    for (auto& plane : in_plane_) plane.assign(3 * n, kNone);
    up_.assign(4 * n, kNone);
  }

  void layer(int k) {
    const size_t n = static_cast<size_t>(f_.pw) * static_cast<size_t>(f_.ph);
    std::fill(in_plane_[static_cast<size_t>((k + 1) & 1)].begin(),
              in_plane_[static_cast<size_t>((k + 1) & 1)].end(), kNone);
    if (k == 0) std::fill(in_plane_[0].begin(), in_plane_[0].end(), kNone);
    std::fill(up_.begin(), up_.end(), kNone);
    (void)n;
    k_ = k;
    for (int j = 0; j + 1 < f_.ph; ++j) {
      for (int i = 0; i + 1 < f_.pw; ++i) cube(i, j);
    }
  }

 private:
  void cube(int i, int j) {
    std::array<float, 8> s{};
    int inside = 0;
    for (int c = 0; c < 8; ++c) {
      s[static_cast<size_t>(c)] = f_.at(i + (c & 1), j + ((c >> 1) & 1), k_ + ((c >> 2) & 1));
      inside += s[static_cast<size_t>(c)] >= 0 ? 1 : 0;
    }
    if (inside == 0 || inside == 8) return;
    for (const auto& t : kTets) tet(i, j, t, s);
  }

  void tet(int i, int j, const std::array<int, 4>& t, const std::array<float, 8>& s) {
    std::array<bool, 4> in{};
    int count = 0;
    for (size_t q = 0; q < 4; ++q) {
      in[q] = s[static_cast<size_t>(t[q])] >= 0;
      count += in[q] ? 1 : 0;
    }
    if (count == 0 || count == 4) return;
    const auto e = [&](int a, int b) {
      return vertex(i, j, t[static_cast<size_t>(a)], t[static_cast<size_t>(b)]);
    };
    if (count == 1 || count == 3) {
      // The lone corner first, orientation kept; the triangle faces away from the inside.
      const int lone = static_cast<int>(std::find(in.begin(), in.end(), count == 1) - in.begin());
      const auto& p = kEvenFrom[static_cast<size_t>(lone)];
      if (count == 1) {
        triangle(e(p[0], p[1]), e(p[0], p[2]), e(p[0], p[3]));
      } else {
        triangle(e(p[0], p[1]), e(p[0], p[3]), e(p[0], p[2]));
      }
      return;
    }
    // Two inside (a, b), two outside (c, d), as an even permutation: a quad cut along a-c / b-d.
    const int a = static_cast<int>(std::find(in.begin(), in.end(), true) - in.begin());
    std::array<int, 4> p = kEvenFrom[static_cast<size_t>(a)];
    while (!in[static_cast<size_t>(p[1])]) std::rotate(p.begin() + 1, p.begin() + 2, p.end());
    const uint32_t ac = e(p[0], p[2]), ad = e(p[0], p[3]), bd = e(p[1], p[3]), bc = e(p[1], p[2]);
    triangle(ac, ad, bd);
    triangle(ac, bd, bc);
  }

  uint32_t vertex(int i, int j, int ca, int cb) {
    const int lower = ca & cb, kind = ca ^ cb;
    const int pi = i + (lower & 1), pj = j + ((lower >> 1) & 1), dz = (lower >> 2) & 1;
    const size_t n = static_cast<size_t>(f_.pw) * static_cast<size_t>(f_.ph);
    const size_t at = static_cast<size_t>(pj) * static_cast<size_t>(f_.pw) + static_cast<size_t>(pi);
    uint32_t& slot =
        (kind & 4) ? up_[static_cast<size_t>(kind - 4) * n + at]
                   : in_plane_[static_cast<size_t>((k_ + dz) & 1)][static_cast<size_t>(kind - 1) * n + at];
    if (slot != kNone) return slot;
    if (out_.positions.size() / 3 >= kNone) {
      throw Error("the iso-surface needs more than " + std::to_string(kNone) + " vertices");
    }
    const double t = edge_root(f_, pi, pj, k_ + dz, kind);
    const double p[3] = {pi + ((kind & 1) ? t : 0.0), pj + ((kind & 2) ? t : 0.0),
                         k_ + dz + ((kind & 4) ? t : 0.0)};
    for (double c : p) out_.positions.push_back(static_cast<float>((c - 1) * scale_));  // less the padding
    slot = static_cast<uint32_t>(out_.positions.size() / 3 - 1);
    return slot;
  }

  void triangle(uint32_t a, uint32_t b, uint32_t c) { out_.indices.insert(out_.indices.end(), {a, b, c}); }

  const SignedField& f_;
  double scale_;
  Mesh& out_;
  int k_ = 0;
  std::array<std::vector<uint32_t>, 2> in_plane_;  // kinds 1..3 of planes k and k + 1, by parity
  std::vector<uint32_t> up_;                       // kinds 4..7 starting in plane k
};

struct Topology {
  MeshTopology t;
  size_t used_vertices = 0;
};

uint64_t key(uint32_t a, uint32_t b) {
  return (static_cast<uint64_t>(a) << 32) | b;
}

// Each vertex's link (the edges opposite it in its triangles) must be one closed cycle.
bool single_fans(const std::vector<uint32_t>& idx) {
  std::vector<std::array<uint32_t, 3>> link;  // vertex, from, to
  link.reserve(idx.size());
  for (size_t t = 0; t + 2 < idx.size(); t += 3) {
    for (size_t c = 0; c < 3; ++c) link.push_back({idx[t + c], idx[t + (c + 1) % 3], idx[t + (c + 2) % 3]});
  }
  std::sort(link.begin(), link.end());
  for (size_t first = 0; first < link.size();) {
    size_t last = first;
    while (last < link.size() && link[last][0] == link[first][0]) ++last;
    const auto find_from = [&](uint32_t from) {
      const auto it = std::lower_bound(link.begin() + static_cast<std::ptrdiff_t>(first),
                                       link.begin() + static_cast<std::ptrdiff_t>(last),
                                       std::array<uint32_t, 3>{link[first][0], from, 0});
      return (it != link.begin() + static_cast<std::ptrdiff_t>(last) && (*it)[1] == from) ? it : link.end();
    };
    size_t steps = 0;
    uint32_t at = link[first][1];
    do {
      const auto it = find_from(at);
      if (it == link.end() || ++steps > last - first) return false;
      at = (*it)[2];
    } while (at != link[first][1]);
    if (steps != last - first) return false;
    first = last;
  }
  return true;
}

int64_t shell_count(const std::vector<uint32_t>& idx, size_t vertices) {
  std::vector<uint32_t> parent(vertices);
  std::iota(parent.begin(), parent.end(), 0u);
  const auto root = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<uint8_t> used(vertices, 0);
  for (size_t t = 0; t + 2 < idx.size(); t += 3) {
    for (size_t c = 0; c < 3; ++c) used[idx[t + c]] = 1;
    parent[root(idx[t])] = root(idx[t + 1]);
    parent[root(idx[t + 1])] = root(idx[t + 2]);
  }
  int64_t shells = 0;
  for (uint32_t v = 0; v < vertices; ++v) shells += (used[v] && root(v) == v) ? 1 : 0;
  return shells;
}

MeshTopology topology_of(const std::vector<uint32_t>& idx, size_t vertices) {
  MeshTopology r;
  std::vector<uint64_t> edges;
  edges.reserve(idx.size());
  for (size_t t = 0; t + 2 < idx.size(); t += 3) {
    for (size_t c = 0; c < 3; ++c) edges.push_back(key(idx[t + c], idx[t + (c + 1) % 3]));
  }
  std::sort(edges.begin(), edges.end());
  bool ok = std::adjacent_find(edges.begin(), edges.end()) == edges.end();
  for (size_t e = 0; ok && e < edges.size(); ++e) {
    ok = std::binary_search(edges.begin(), edges.end(),
                            key(static_cast<uint32_t>(edges[e]), static_cast<uint32_t>(edges[e] >> 32)));
  }
  const auto edge_count = static_cast<int64_t>(edges.size() / 2);
  edges = {};  // before the links take their room
  r.manifold = ok && single_fans(idx);
  std::vector<uint8_t> used(vertices, 0);
  for (uint32_t v : idx) used[v] = 1;
  const auto v = static_cast<int64_t>(std::count(used.begin(), used.end(), 1));
  r.euler = v - edge_count + static_cast<int64_t>(idx.size() / 3);
  r.shells = shell_count(idx, vertices);
  return r;
}

// meshoptimizer collapses an edge whose ends share more than two neighbours, where a thin tube or a
// small handle closes, into a fin: two triangles on the same three vertices facing opposite ways,
// whose edges then lie in four triangles. A fin encloses nothing: dropping both triangles gives the
// surface back its two triangles an edge without changing what it bounds.
void drop_fins(std::vector<uint32_t>& idx) {
  struct Face {
    std::array<uint32_t, 3> rotated;  // smallest vertex first, orientation kept
    std::array<uint32_t, 3> sorted;
    size_t at;
  };
  std::vector<Face> faces;
  faces.reserve(idx.size() / 3);
  for (size_t t = 0; t + 2 < idx.size(); t += 3) {
    std::array<uint32_t, 3> r{idx[t], idx[t + 1], idx[t + 2]};
    std::rotate(r.begin(), std::min_element(r.begin(), r.end()), r.end());
    std::array<uint32_t, 3> k = r;
    std::sort(k.begin(), k.end());
    faces.push_back({r, k, t});
  }
  std::sort(faces.begin(), faces.end(), [](const Face& a, const Face& b) {
    return a.sorted != b.sorted ? a.sorted < b.sorted : a.at < b.at;
  });
  std::vector<uint8_t> drop(idx.size() / 3, 0);
  for (size_t f = 0; f + 1 < faces.size(); ++f) {
    const bool pair = faces[f].sorted == faces[f + 1].sorted &&
                      (f + 2 == faces.size() || faces[f + 2].sorted != faces[f].sorted) &&
                      (f == 0 || faces[f - 1].sorted != faces[f].sorted);
    if (pair && faces[f].rotated[1] != faces[f + 1].rotated[1])
      drop[faces[f].at / 3] = drop[faces[f + 1].at / 3] = 1;
  }
  size_t kept = 0;
  for (size_t t = 0; t < drop.size(); ++t) {
    if (drop[t]) continue;
    for (size_t c = 0; c < 3; ++c) idx[3 * kept + c] = idx[3 * t + c];
    ++kept;
  }
  idx.resize(3 * kept);
}

// Keeps the vertices the indices use, in their order.
void drop_unused(Mesh& m) {
  std::vector<uint32_t> remap(m.vertex_count(), kNone);
  for (uint32_t v : m.indices) remap[v] = 0;
  uint32_t next = 0;
  std::vector<float> kept;
  for (size_t v = 0; v < remap.size(); ++v) {
    if (remap[v] == kNone) continue;
    remap[v] = next++;
    kept.insert(kept.end(), m.positions.begin() + static_cast<std::ptrdiff_t>(3 * v),
                m.positions.begin() + static_cast<std::ptrdiff_t>(3 * v + 3));
  }
  for (uint32_t& v : m.indices) v = remap[v];
  m.positions = std::move(kept);
}

}  // namespace

Mask inside_mask(const VolumeGrid& g, float level) {
  Mask m{g.width, g.height, std::vector<uint8_t>(g.values.size()), g.depth};
  for (size_t i = 0; i < g.values.size(); ++i) m.cells[i] = g.values[i] >= level ? 1 : 0;
  return m;
}

SurfaceSize surface_size(const Mask& inside) {
  // The sides on the padded grid (an outside border), as iso_surface() sees them.
  const size_t pw = static_cast<size_t>(inside.width) + 2, ph = static_cast<size_t>(inside.height) + 2,
               pd = static_cast<size_t>(inside.depth) + 2;
  std::vector<uint8_t> side(pw * ph * pd, 0);
  for (size_t z = 0; z + 2 < pd; ++z) {
    for (size_t y = 0; y + 2 < ph; ++y) {
      const size_t from = (z * (ph - 2) + y) * (pw - 2);
      for (size_t x = 0; x + 2 < pw; ++x)
        side[((z + 1) * ph + y + 1) * pw + x + 1] = inside.cells[from + x] != 0 ? 1 : 0;
    }
  }
  const auto corner = [&](size_t i, size_t j, size_t k, int c) {
    return side[((k + static_cast<size_t>((c >> 2) & 1)) * ph + j + static_cast<size_t>((c >> 1) & 1)) * pw +
                i + static_cast<size_t>(c & 1)];
  };
  SurfaceSize out;
  for (size_t k = 0; k + 1 < pd; ++k) {
    for (size_t j = 0; j + 1 < ph; ++j) {
      for (size_t i = 0; i + 1 < pw; ++i) {
        std::array<uint8_t, 8> s{};
        int count = 0;
        for (int c = 0; c < 8; ++c) count += s[static_cast<size_t>(c)] = corner(i, j, k, c);
        if (count == 0 || count == 8) continue;
        // Each edge leaves one point (its lower end) as kind 1..7 and lies in the cube whose corner 0
        // that point is; edges along the grid's last planes join two border points, never crossed.
        for (int kind = 1; kind < 8; ++kind) out.vertices += s[0] != s[static_cast<size_t>(kind)] ? 1 : 0;
        for (const auto& t : kTets) {
          int in = 0;
          for (int q : t) in += s[static_cast<size_t>(q)];
          out.triangles += in == 2 ? 2 : (in == 1 || in == 3) ? 1 : 0;
        }
      }
    }
  }
  return out;
}

Mesh iso_surface(const VolumeGrid& g, float level, const Mask& inside, double voxel_size,
                 const StopCheck& stop) {
  const SignedField f = signed_field(g, level, inside);
  Mesh m;
  Marcher march(f, voxel_size, m);
  for (int k = 0; k + 1 < f.pd; ++k) {
    stop_if_asked(stop);
    march.layer(k);
  }
  return m;
}

void set_normals(Mesh& m) {
  std::vector<double> n(m.positions.size(), 0.0);
  const auto p = [&](uint32_t v, int c) {
    return static_cast<double>(m.positions[3 * size_t{v} + static_cast<size_t>(c)]);
  };
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
    const double u[3] = {p(b, 0) - p(a, 0), p(b, 1) - p(a, 1), p(b, 2) - p(a, 2)};
    const double w[3] = {p(c, 0) - p(a, 0), p(c, 1) - p(a, 1), p(c, 2) - p(a, 2)};
    const double cross[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    for (uint32_t v : {a, b, c}) {
      for (size_t q = 0; q < 3; ++q) n[3 * size_t{v} + q] += cross[q];  // |cross| is twice the area
    }
  }
  m.normals.resize(m.positions.size());
  for (size_t v = 0; v < n.size(); v += 3) {
    const double len = std::sqrt(n[v] * n[v] + n[v + 1] * n[v + 1] + n[v + 2] * n[v + 2]);
    for (size_t q = 0; q < 3; ++q) {
      // A vertex whose triangles have no area (several vertices on one grid point) gets +z.
      m.normals[v + q] = len > 0 ? static_cast<float>(n[v + q] / len) : (q == 2 ? 1.0f : 0.0f);
    }
  }
}

MeshTopology mesh_topology(const Mesh& m) {
  return topology_of(m.indices, m.vertex_count());
}

DecimateReport decimate(Mesh& m, size_t target) {
  DecimateReport r;
  r.before = r.after = m.triangle_count();
  if (target == 0 || target >= r.before) {
    set_normals(m);
    return r;
  }
  // The smallest goal tried that kept the surface manifold wins: a goal that breaks it moves the next
  // one halfway back towards the smallest one that kept it (the mesh itself, at first).
  std::vector<uint32_t> out(m.indices.size()), best;
  size_t good = r.before, goal = target;
  for (r.tries = 1; r.tries <= kDecimateTries; ++r.tries) {
    const size_t n = meshopt_simplify(out.data(), m.indices.data(), m.indices.size(), m.positions.data(),
                                      m.vertex_count(), 3 * sizeof(float), 3 * goal, 1.0f, 0, nullptr);
    out.resize(n);
    drop_fins(out);
    if (topology_of(out, m.vertex_count()).manifold) {
      good = goal;
      best.swap(out);
      if (good == target) break;
    }
    if (good - target < r.before / 100 + 1) break;  // within 1% of the mesh: as close as it gets
    goal = target + (good - target) / 2;
    out.resize(m.indices.size());
  }
  r.tries = std::min(r.tries, kDecimateTries);
  r.gave_up = best.empty();
  if (!best.empty()) m.indices = std::move(best);
  drop_unused(m);
  set_normals(m);
  r.after = m.triangle_count();
  return r;
}

}  // namespace physarum::app::exporter
