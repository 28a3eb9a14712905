// A volume's iso-surface as a closed triangle mesh: the inside (the voxels at or above a level,
// cleaned like a cave's floor) meshed by marching tetrahedra, welded, decimated with meshoptimizer
// and given smooth normals, in world units (voxel (x, y, z)'s centre at voxel_size * (x, y, z)).
//
// Marching tetrahedra rather than marching cubes: each cube is cut into the six tetrahedra around
// its main diagonal (the same diagonal in every cube, so neighbouring cubes cut their shared face
// alike), and a tetrahedron has only three kinds of crossing, none ambiguous. With a voxel at the
// level counted as inside, every surface edge lies in exactly two triangles and every vertex in one
// fan: the surface is a closed, consistently oriented 2-manifold by construction, with no case
// table to get wrong. A vertex lies where the trilinear interpolation of the field along its edge
// (a cube edge, a face diagonal or the cube's diagonal) meets the level.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/cave.hpp"
#include "sim/stop.hpp"

namespace physarum::app::exporter {

// (D, H, W) values, z slowest, x fastest.
struct VolumeGrid {
  int width = 0;
  int height = 0;
  int depth = 0;
  std::vector<float> values;
  size_t voxels() const {
    return static_cast<size_t>(width) * static_cast<size_t>(height) * static_cast<size_t>(depth);
  }
};

struct Mesh {
  std::vector<float> positions;   // x, y, z per vertex
  std::vector<float> normals;     // unit, outward, per vertex
  std::vector<uint32_t> indices;  // three per triangle, counter-clockwise seen from outside
  size_t vertex_count() const { return positions.size() / 3; }
  size_t triangle_count() const { return indices.size() / 3; }
};

// The voxels at or above `level` (1), as a Mask with the volume's depth.
Mask inside_mask(const VolumeGrid& g, float level);

// The size of iso_surface()'s mesh around `inside`, from the sides of its padded grid alone (voxel
// centres as corners, an outside border): a vertex for each edge of the tetrahedra whose ends lie on
// both sides, one triangle for each tetrahedron with one or three corners inside, two for two. Sizes
// the mesh before it is made (export_pipeline/export_volume.cpp's budget); 1 byte a padded voxel.
struct SurfaceSize {
  uint64_t vertices = 0, triangles = 0;
};
SurfaceSize surface_size(const Mask& inside);

// The iso-surface of `g` at `level` around the voxels `inside` marks (its size is the volume's):
// where the clean-up changed a voxel's side, its value is mirrored about the level so that the
// surface there follows the mask. The volume is padded with an outside border whose values mirror
// the faces' voxels, so an inside that touches the box is closed by flat caps half a voxel beyond
// it. Normals are left empty (set_normals). Throws Error when the mesh would need more than 2^32 - 1
// vertices; asks `stop` between planes.
Mesh iso_surface(const VolumeGrid& g, float level, const Mask& inside, double voxel_size,
                 const StopCheck& stop);

// Area-weighted face normals summed at each vertex, normalised.
void set_normals(Mesh& m);

// The shape of a mesh's surface, from its indices alone.
struct MeshTopology {
  bool manifold = false;  // each edge in two triangles of opposite directions; each vertex one fan
  int64_t euler = 0;      // V - E + F over the vertices the triangles use
  int64_t shells = 0;     // connected pieces of the surface
};
MeshTopology mesh_topology(const Mesh& m);

struct DecimateReport {
  size_t before = 0;  // triangles
  size_t after = 0;
  int tries = 0;         // simplifications tried
  bool gave_up = false;  // no try stayed manifold: the mesh is as it was
};
inline constexpr int kDecimateTries = 8;

// Simplifies to at most `target` triangles (meshopt_simplify, which keeps the vertices it keeps where
// they were). meshoptimizer does not promise a manifold result: where a thin tube or a small handle
// closes it leaves fins (two triangles on three vertices, facing opposite ways), which are dropped,
// and each try is checked. A try that is still not manifold moves the goal halfway back towards the
// smallest goal that was (the mesh's own count at first), kDecimateTries times at most; the smallest
// manifold result is kept, else the mesh as it was. Self-intersections are not looked for. Unused
// vertices are dropped, the rest keep their order; normals are recomputed. A target of 0 or at
// least the mesh's count leaves it as it is.
DecimateReport decimate(Mesh& m, size_t target);

}  // namespace physarum::app::exporter
