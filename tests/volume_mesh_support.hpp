// Checks of a triangle mesh made here, independent of the exporter's own (export/volume_mesh.hpp):
// edges counted in a map, areas and volumes summed in doubles, a trilinear sample of a volume, and
// readers of the PLY and OBJ files the exporter writes.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace physarum::test {

struct TestMesh {
  std::vector<std::array<double, 3>> v;
  std::vector<std::array<double, 3>> n;
  std::vector<std::array<uint32_t, 3>> f;
};

struct SurfaceCheck {
  bool closed_and_oriented = true;  // every edge once in each direction
  int64_t euler = 0;
  double area = 0, volume = 0;
};

inline SurfaceCheck check_surface(const TestMesh& m) {
  SurfaceCheck c;
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  std::set<uint32_t> used;
  for (const auto& t : m.f) {
    for (int k = 0; k < 3; ++k) {
      ++directed[{t[k], t[(k + 1) % 3]}];
      used.insert(t[k]);
    }
    const auto& a = m.v[t[0]];
    const auto& b = m.v[t[1]];
    const auto& d = m.v[t[2]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    const double x[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    c.area += 0.5 * std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    c.volume += (a[0] * x[0] + a[1] * x[1] + a[2] * x[2]) / 6.0;  // the divergence theorem, per triangle
  }
  for (const auto& [e, count] : directed) {
    const auto back = directed.find({e.second, e.first});
    if (count != 1 || back == directed.end() || back->second != 1) c.closed_and_oriented = false;
  }
  c.euler = static_cast<int64_t>(used.size()) - static_cast<int64_t>(directed.size() / 2) +
            static_cast<int64_t>(m.f.size());
  return c;
}

// Trilinear value of a (D, H, W) volume at (x, y, z) in voxel units.
inline double trilinear(const std::vector<float>& g, int w, int h, int d, double x, double y, double z) {
  const auto at = [&](int i, int j, int k) {
    i = std::clamp(i, 0, w - 1);
    j = std::clamp(j, 0, h - 1);
    k = std::clamp(k, 0, d - 1);
    return static_cast<double>(g[(static_cast<size_t>(k) * h + j) * w + i]);
  };
  const int i = static_cast<int>(std::floor(x)), j = static_cast<int>(std::floor(y)),
            k = static_cast<int>(std::floor(z));
  const double fx = x - i, fy = y - j, fz = z - k;
  double sum = 0;
  for (int c = 0; c < 8; ++c) {
    const int a = c & 1, b = (c >> 1) & 1, e = (c >> 2) & 1;
    sum += at(i + a, j + b, k + e) * (a ? fx : 1 - fx) * (b ? fy : 1 - fy) * (e ? fz : 1 - fz);
  }
  return sum;
}

// Binary little-endian PLY as the exporter writes it: x y z nx ny nz floats, uchar-counted uint faces.
inline bool parse_ply(const std::string& bytes, TestMesh& m, std::string& comment) {
  const size_t end = bytes.find("end_header\n");
  if (bytes.rfind("ply\nformat binary_little_endian 1.0\n", 0) != 0 || end == std::string::npos) return false;
  std::istringstream head(bytes.substr(0, end));
  std::string line;
  size_t vertices = 0, faces = 0;
  while (std::getline(head, line)) {
    if (line.rfind("comment ", 0) == 0) comment = line.substr(8);
    if (line.rfind("element vertex ", 0) == 0) vertices = std::stoul(line.substr(15));
    if (line.rfind("element face ", 0) == 0) faces = std::stoul(line.substr(13));
  }
  size_t at = end + 11;
  if (bytes.size() != at + vertices * 24 + faces * 13) return false;
  for (size_t i = 0; i < vertices; ++i, at += 24) {
    float f[6];
    std::memcpy(f, bytes.data() + at, 24);
    m.v.push_back({f[0], f[1], f[2]});
    m.n.push_back({f[3], f[4], f[5]});
  }
  for (size_t i = 0; i < faces; ++i, at += 13) {
    if (bytes[at] != 3) return false;
    std::array<uint32_t, 3> t{};
    std::memcpy(t.data(), bytes.data() + at + 1, 12);
    m.f.push_back(t);
  }
  return true;
}

inline bool parse_obj(const std::string& text, TestMesh& m) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string kind;
    l >> kind;
    if (kind == "v" || kind == "vn") {
      std::array<double, 3> p{};
      l >> p[0] >> p[1] >> p[2];
      (kind == "v" ? m.v : m.n).push_back(p);
    } else if (kind == "f") {
      std::array<uint32_t, 3> t{};
      for (auto& i : t) {
        std::string word;
        l >> word;
        const size_t slash = word.find("//");
        if (slash == std::string::npos || word.substr(0, slash) != word.substr(slash + 2)) return false;
        i = static_cast<uint32_t>(std::stoul(word.substr(0, slash)) - 1);
      }
      m.f.push_back(t);
    } else if (!kind.empty() && kind[0] != '#') {
      return false;
    }
  }
  return m.v.size() == m.n.size();
}

}  // namespace physarum::test
