// A volume's exports piece by piece: the iso-surface against analytic shapes (a sphere's area and
// volume, a torus's Euler characteristic, a box that fills the volume), the 3-D clean-up of the
// inside, the simplification, and each file read back by a reader that is not the writer (PLY and
// OBJ parsed here, the GLB by tinygltf, the VDB by OpenVDB).
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>

#include "export/cave.hpp"
#include "export/mesh_files.hpp"
#include "export/vdb_file.hpp"
#include "export/volume_mesh.hpp"
#include "export_pipeline/export_volume.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"
#include "volume_mesh_support.hpp"

namespace physarum::test {
namespace {

namespace ex = app::exporter;
namespace fs = std::filesystem;

// f(x, y, z) sampled at voxel centres (voxel units).
template <class F>
ex::VolumeGrid sampled(int w, int h, int d, F&& f) {
  ex::VolumeGrid g{w, h, d, {}};
  for (int z = 0; z < d; ++z) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) g.values.push_back(static_cast<float>(f(x, y, z)));
    }
  }
  return g;
}

// A ball of radius r around c: the field is r minus the distance, inside >= 0.
ex::VolumeGrid ball(int n, double cx, double cy, double cz, double r) {
  return sampled(n, n, n, [&](int x, int y, int z) { return r - std::hypot(x - cx, y - cy, z - cz); });
}

ex::Mesh mesh_of(const ex::VolumeGrid& g, float level, double voxel = 1.0) {
  ex::Mesh m = ex::iso_surface(g, level, ex::inside_mask(g, level), voxel, {});
  ex::set_normals(m);
  return m;
}

TestMesh as_test_mesh(const ex::Mesh& m) {
  TestMesh t;
  for (size_t v = 0; v < m.vertex_count(); ++v) {
    t.v.push_back({m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]});
    t.n.push_back({m.normals[3 * v], m.normals[3 * v + 1], m.normals[3 * v + 2]});
  }
  for (size_t f = 0; f < m.triangle_count(); ++f)
    t.f.push_back({m.indices[3 * f], m.indices[3 * f + 1], m.indices[3 * f + 2]});
  return t;
}

TEST(VolumeMesh, SphereHasTheBallsAreaAndVolumeAndIsOneClosedSurface) {
  const double r = 11.3, voxel = 0.5;
  const ex::VolumeGrid g = ball(32, 15.2, 15.7, 16.1, r);
  const TestMesh m = as_test_mesh(mesh_of(g, 0.0f, voxel));
  const SurfaceCheck c = check_surface(m);
  EXPECT_TRUE(c.closed_and_oriented);
  EXPECT_EQ(c.euler, 2);
  const double rw = r * voxel;  // in world units
  EXPECT_NEAR(c.area / (4 * std::numbers::pi * rw * rw), 1.0, 0.02);
  EXPECT_NEAR(c.volume / (4.0 / 3.0 * std::numbers::pi * rw * rw * rw), 1.0, 0.02);  // positive: outward
  // Welded: no two vertices in one place (the level never meets a voxel centre here).
  std::set<std::array<double, 3>> places(m.v.begin(), m.v.end());
  EXPECT_EQ(places.size(), m.v.size());
  // Each vertex on the trilinear interpolation's level; each normal along the ball's radius.
  for (size_t i = 0; i < m.v.size(); ++i) {
    const auto& p = m.v[i];
    // Within the 1/1024 of an edge a vertex keeps from the grid points (the field's slope is 1 a voxel).
    ASSERT_NEAR(trilinear(g.values, 32, 32, 32, p[0] / voxel, p[1] / voxel, p[2] / voxel), 0.0, 2e-3) << i;
    const double radial[3] = {p[0] / voxel - 15.2, p[1] / voxel - 15.7, p[2] / voxel - 16.1};
    const double len = std::hypot(radial[0], radial[1], radial[2]);
    const double cosine = (radial[0] * m.n[i][0] + radial[1] * m.n[i][1] + radial[2] * m.n[i][2]) / len;
    ASSERT_GT(cosine, 0.97) << i;
  }
}

TEST(VolumeMesh, SurfaceSizeCountsTheMeshBeforeItIsMade) {
  // Hand-counted: nothing inside, no surface. One inside voxel: the 8 cubes around it; its 14 edges
  // to the 26 neighbours that the tetrahedra use (6 sides, and the diagonals along (1,1,0), (1,0,1),
  // (0,1,1) and (1,1,1), both ways: 6 + 6 + 2) are crossed; each of its cubes cuts it off with as many
  // triangles as tetrahedra hold it: the two cubes where it is corner 0 or 7, all 6; the other six, 2.
  ex::Mask m{3, 3, std::vector<uint8_t>(27, 0), 3};
  EXPECT_EQ(ex::surface_size(m).vertices, 0u);
  EXPECT_EQ(ex::surface_size(m).triangles, 0u);
  m.cells[13] = 1;
  EXPECT_EQ(ex::surface_size(m).vertices, 14u);
  EXPECT_EQ(ex::surface_size(m).triangles, 2u * 6u + 6u * 2u);
  // And against the mesher itself, on a sphere, a torus and a cleaned-up inside.
  for (const ex::VolumeGrid& g : {ball(32, 15.2, 15.7, 16.1, 11.3), ball(20, 9.5, 9.5, 9.5, 12.0)}) {
    const ex::Mesh mesh = mesh_of(g, 0.0f);
    const ex::SurfaceSize size = ex::surface_size(ex::inside_mask(g, 0.0f));
    EXPECT_EQ(size.vertices, mesh.vertex_count());
    EXPECT_EQ(size.triangles, mesh.triangle_count());
  }
}

TEST(VolumeMesh, TorusHasEulerCharacteristicZero) {
  const ex::VolumeGrid g = sampled(40, 40, 20, [](int x, int y, int z) {
    const double ring = std::hypot(x - 19.5, y - 19.5) - 12.0;
    return 4.5 - std::hypot(ring, z - 9.7);
  });
  const SurfaceCheck c = check_surface(as_test_mesh(mesh_of(g, 0.0f)));
  EXPECT_TRUE(c.closed_and_oriented);
  EXPECT_EQ(c.euler, 0);
  EXPECT_NEAR(c.volume / (2 * std::numbers::pi * 12.0 * std::numbers::pi * 4.5 * 4.5), 1.0, 0.03);
}

TEST(VolumeMesh, AnInsideThatFillsTheBoxIsClosedByCapsHalfAVoxelOut) {
  const ex::VolumeGrid g = sampled(5, 4, 3, [](int, int, int) { return 2.0; });
  const TestMesh m = as_test_mesh(mesh_of(g, 1.0f));
  const SurfaceCheck c = check_surface(m);
  EXPECT_TRUE(c.closed_and_oriented);
  EXPECT_EQ(c.euler, 2);
  std::array<double, 3> lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
  for (const auto& p : m.v) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[k]);
      hi[k] = std::max(hi[k], p[k]);
    }
  }
  const double side[3] = {5, 4, 3};
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(lo[k], -0.5, 1e-6);
    EXPECT_NEAR(hi[k], side[k] - 0.5, 1e-6);
  }
  EXPECT_GT(c.volume, 0.8 * 5 * 4 * 3);
  EXPECT_LE(c.volume, 5 * 4 * 3 + 1e-9);
}

TEST(VolumeMesh, AValueOnTheLevelCountsAsInsideAndTheSurfaceStaysClosed) {
  // Whole numbers on a lattice: many voxels sit exactly on the level.
  const ex::VolumeGrid g = sampled(9, 9, 9, [](int x, int y, int z) { return (x + y + z) % 3; });
  const TestMesh m = as_test_mesh(mesh_of(g, 1.0f));
  const SurfaceCheck c = check_surface(m);
  EXPECT_TRUE(c.closed_and_oriented);
  // The vertices of the edges leaving a voxel on the level stay apart (the simplifier would take
  // vertices in one place for one).
  std::set<std::array<double, 3>> places(m.v.begin(), m.v.end());
  EXPECT_EQ(places.size(), m.v.size());
}

// An independent 6-connected flood fill: the sizes of the inside's components.
std::vector<int64_t> components(const ex::Mask& m) {
  std::vector<uint8_t> seen(m.cells.size(), 0);
  std::vector<int64_t> sizes;
  const int w = m.width, h = m.height, d = m.depth;
  for (size_t s = 0; s < m.cells.size(); ++s) {
    if (!m.cells[s] || seen[s]) continue;
    int64_t n = 0;
    std::vector<size_t> stack{s};
    seen[s] = 1;
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      ++n;
      const int x = static_cast<int>(i % w), y = static_cast<int>(i / w % h),
                z = static_cast<int>(i / (w * h));
      const int nb[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z},
                            {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
      for (const auto& p : nb) {
        if (p[0] < 0 || p[1] < 0 || p[2] < 0 || p[0] >= w || p[1] >= h || p[2] >= d) continue;
        const size_t j = (static_cast<size_t>(p[2]) * h + p[1]) * w + p[0];
        if (m.cells[j] && !seen[j]) {
          seen[j] = 1;
          stack.push_back(j);
        }
      }
    }
    sizes.push_back(n);
  }
  return sizes;
}

// A big ball, a small one and a third one touching the box's faces, apart from each other.
ex::VolumeGrid three_blobs() {
  return sampled(40, 30, 30, [](int x, int y, int z) {
    const double big = 7.0 - std::hypot(x - 12.0, y - 15.0, z - 15.0);
    const double small = 1.6 - std::hypot(x - 30.0, y - 8.0, z - 8.0);
    const double corner = 8.0 - std::hypot(x - 39.0, y - 29.0, z - 29.0);  // an eighth of it inside
    return std::max({big, small, corner});
  });
}

TEST(VolumeCave, MinIslandDropsASmallBlobAndKeepsTheBigOnes) {
  ex::Mask m = ex::inside_mask(three_blobs(), 0.0f);
  std::vector<int64_t> before = components(m);
  ASSERT_EQ(before.size(), 3u);
  ex::remove_islands(m, 1, 100);
  const std::vector<int64_t> after = components(m);
  ASSERT_EQ(after.size(), 2u);
  std::sort(before.begin(), before.end());
  EXPECT_LT(before[0], 100);
  EXPECT_TRUE(std::ranges::find(after, before[1]) != after.end() &&
              std::ranges::find(after, before[2]) != after.end());
}

TEST(VolumeCave, LargestKeepsOneComponentAndCorridorsJoinThemIntoOneClosedSolid) {
  const ex::VolumeGrid g = three_blobs();
  ex::Mask largest = ex::inside_mask(g, 0.0f);
  ex::keep_largest_floor(largest);
  EXPECT_EQ(components(largest).size(), 1u);

  ex::Mask joined = ex::inside_mask(g, 0.0f);
  EXPECT_EQ(ex::join_with_corridors(joined, 2), 2);
  const std::vector<int64_t> one = components(joined);
  ASSERT_EQ(one.size(), 1u);
  // The mesh of the joined inside (the corner blob touching three faces) is one closed surface.
  ex::Mesh mesh = ex::iso_surface(g, 0.0f, joined, 1.0, {});
  ex::set_normals(mesh);
  const SurfaceCheck c = check_surface(as_test_mesh(mesh));
  EXPECT_TRUE(c.closed_and_oriented);
  EXPECT_EQ(c.euler, 2);
  EXPECT_EQ(ex::mesh_topology(mesh).shells, 1);
  EXPECT_GT(c.volume, 0);
}

TEST(VolumeMesh, DecimationReachesTheTargetAndStaysClosed) {
  ex::Mesh m = mesh_of(ball(28, 13.4, 13.6, 13.9, 10.2), 0.0f);
  const size_t before = m.triangle_count();
  const SurfaceCheck full = check_surface(as_test_mesh(m));
  const ex::DecimateReport r = ex::decimate(m, 800);
  EXPECT_EQ(r.before, before);
  EXPECT_FALSE(r.gave_up);
  EXPECT_LE(m.triangle_count(), 800u);
  EXPECT_GT(m.triangle_count(), 400u);
  const SurfaceCheck c = check_surface(as_test_mesh(m));
  EXPECT_TRUE(c.closed_and_oriented);
  EXPECT_EQ(c.euler, 2);
  EXPECT_NEAR(c.volume / full.volume, 1.0, 0.05);
  // Every vertex is used.
  std::set<uint32_t> used(m.indices.begin(), m.indices.end());
  EXPECT_EQ(used.size(), m.vertex_count());
}

TEST(VolumeMesh, ASimplifiedMeshIsManifoldEvenWhereTheSimplifierTearsIt) {
  // Noise: a surface of many small handles, where meshoptimizer's collapses leave non-manifold edges.
  uint32_t state = 12345;
  const ex::VolumeGrid g = sampled(24, 24, 24, [&](int, int, int) {
    state = state * 1664525u + 1013904223u;
    return static_cast<double>(state >> 8) / (1 << 24) - 0.5;
  });
  ex::Mesh m = mesh_of(g, 0.0f);
  const ex::DecimateReport r = ex::decimate(m, m.triangle_count() / 10);
  EXPECT_GE(r.tries, 1);
  EXPECT_EQ(r.gave_up, r.after == r.before);
  EXPECT_TRUE(check_surface(as_test_mesh(m)).closed_and_oriented) << r.tries << " tries, " << r.after;
}

TEST(VolumeMesh, PlyObjAndGlbReadBackAsTheMesh) {
  ex::Mesh m = mesh_of(ball(16, 7.3, 7.6, 7.9, 5.1), 0.0f, 0.25);
  const TestMesh want = as_test_mesh(m);
  TestMesh ply, obj;
  std::string comment;
  ASSERT_TRUE(parse_ply(ex::ply_bytes(m, "physarum recipe"), ply, comment));
  EXPECT_EQ(comment, "physarum recipe");
  ASSERT_TRUE(parse_obj(ex::obj_bytes(m, "physarum recipe"), obj));
  // Floats written exactly (OBJ in the shortest decimals that read back as the same float).
  const auto as_floats = [](const std::vector<std::array<double, 3>>& v) {
    std::vector<float> f;
    for (const auto& p : v)
      f.insert(f.end(), {static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2])});
    return f;
  };
  for (const TestMesh* got : {&ply, &obj}) {
    ASSERT_EQ(got->v.size(), want.v.size());
    EXPECT_EQ(as_floats(got->v), m.positions);
    EXPECT_EQ(as_floats(got->n), m.normals);
    EXPECT_EQ(got->f, want.f);
  }
  const std::string glb = ex::glb_bytes(m, "physarum test", "physarum recipe");
  EXPECT_EQ(glb, ex::glb_bytes(m, "physarum test", "physarum recipe"));
  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  ASSERT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn,
                                          reinterpret_cast<const unsigned char*>(glb.data()),
                                          static_cast<unsigned>(glb.size())))
      << err;
  ASSERT_EQ(model.meshes.size(), 1u);
  const tinygltf::Primitive& p = model.meshes[0].primitives.at(0);
  const tinygltf::Accessor& pos = model.accessors[static_cast<size_t>(p.attributes.at("POSITION"))];
  const tinygltf::Accessor& idx = model.accessors[static_cast<size_t>(p.indices)];
  ASSERT_EQ(pos.count, want.v.size());
  ASSERT_EQ(idx.count, 3 * want.f.size());
  ASSERT_EQ(idx.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
  const auto data = [&](const tinygltf::Accessor& a) {
    const tinygltf::BufferView& view = model.bufferViews[static_cast<size_t>(a.bufferView)];
    return model.buffers[static_cast<size_t>(view.buffer)].data.data() + view.byteOffset + a.byteOffset;
  };
  std::vector<float> positions(3 * pos.count);
  std::memcpy(positions.data(), data(pos), positions.size() * 4);
  std::vector<uint32_t> indices(idx.count);
  std::memcpy(indices.data(), data(idx), indices.size() * 4);
  EXPECT_EQ(positions, m.positions);
  EXPECT_EQ(indices, m.indices);
  EXPECT_EQ(model.asset.generator, "physarum test");
  EXPECT_EQ(model.asset.extras.Get("recipe").Get<std::string>(), "physarum recipe");
  ASSERT_EQ(pos.minValues.size(), 3u);
}

TEST(VolumeVdb, GridsReadBackByOpenVdbWithTheirNamesTransformAndValues) {
  if (!ex::vdb_available())
    GTEST_SKIP() << "this build has no OpenVDB (configured with -DPHYSARUM_OPENVDB=OFF)";
  const int w = 6, h = 5, d = 4;
  const ex::VolumeGrid a =
      sampled(w, h, d, [](int x, int y, int z) { return x * 0.5 + y * 0.01 + z * z * 0.1; });
  const ex::VolumeGrid b =
      sampled(w, h, d, [](int x, int y, int z) { return (x + y + z) % 4 == 0 ? 1.5 : 0.0; });
  const fs::path dir = temp_dir();
  ex::VdbOptions o;
  o.voxel_size = 0.25;
  o.cutoff = 0.05f;
  o.recipe = "physarum recipe";
  ex::write_vdb(dir / "v.vdb", w, h, d, {{"slime", a.values.data()}, {"mould", b.values.data()}}, o);
  ex::write_vdb(dir / "again.vdb", w, h, d, {{"slime", a.values.data()}, {"mould", b.values.data()}}, o);
  EXPECT_EQ(read_file(dir / "v.vdb"), read_file(dir / "again.vdb"));
  const ex::VdbFileRead r = ex::read_vdb(dir / "v.vdb");
  ASSERT_EQ(r.grids.size(), 2u);
  const ex::VolumeGrid* grids[2] = {&a, &b};
  const char* names[2] = {"slime", "mould"};
  for (size_t k = 0; k < 2; ++k) {
    const auto named =
        std::ranges::find_if(r.grids, [&](const ex::VdbGridRead& g) { return g.name == names[k]; });
    ASSERT_NE(named, r.grids.end()) << names[k];
    const ex::VdbGridRead& g = *named;
    EXPECT_EQ(g.grid_class, "fog volume");
    EXPECT_EQ(g.background, 0.0f);
    EXPECT_EQ(g.creator, "physarum");
    for (double s : g.voxel_size) EXPECT_DOUBLE_EQ(s, 0.25);
    // Active: exactly the voxels above the cutoff, with their values.
    size_t above = 0;
    for (float v : grids[k]->values) above += std::abs(v) > 0.05f ? 1 : 0;
    EXPECT_EQ(g.active.size(), above);
    for (const auto& [c, v] : g.active) {
      ASSERT_TRUE(c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[0] < w && c[1] < h && c[2] < d);
      EXPECT_EQ(v, grids[k]->values[(static_cast<size_t>(c[2]) * h + c[1]) * w + c[0]]);
    }
  }
  EXPECT_TRUE(std::ranges::find(r.metadata, std::pair<std::string, std::string>{
                                                "recipe", "physarum recipe"}) != r.metadata.end());
}

TEST(VolumeVdb, WithoutOpenVdbTheMessageSaysHowToGetIt) {
  if (ex::vdb_available()) {
    EXPECT_EQ(ex::vdb_missing_message(), "");
  } else {
    EXPECT_NE(ex::vdb_missing_message().find("OpenVDB"), std::string::npos) << ex::vdb_missing_message();
    EXPECT_NE(ex::vdb_missing_message().find("libopenvdb-dev"), std::string::npos)
        << ex::vdb_missing_message();
  }
}

TEST(VolumeSlices, NamesSortInSliceOrder) {
  EXPECT_EQ(app::slice_path("out/web.png", 7, 64), fs::path("out/web_0007.png"));
  EXPECT_EQ(app::slice_path("web.png", 12345, 20000), fs::path("web_12345.png"));
  EXPECT_EQ(app::slice_path("z##.png", 3, 10), fs::path("z03.png"));
  EXPECT_EQ(app::slice_path("z#-x.png", 120, 300), fs::path("z120-x.png"));
}

TEST(NpyVolume, ReadsThreeAndFourDimensionsAndRefusesOthers) {
  const fs::path dir = temp_dir();
  std::vector<float> v(2 * 3 * 4 * 5);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f;
  write_npy_shape(dir / "four.npy", v.data(), {2, 3, 4, 5});
  write_npy_shape(dir / "three.npy", v.data(), {6, 4, 5});
  write_npy_shape(dir / "two.npy", v.data(), {24, 5});
  const NpyVolume four = read_npy_volume_field(dir / "four.npy");
  EXPECT_EQ((std::array{four.species, four.depth, four.height, four.width, four.dimensions}),
            (std::array{2, 3, 4, 5, 4}));
  EXPECT_EQ(four.data, v);
  const NpyVolume three = read_npy_volume_field(dir / "three.npy", false);
  EXPECT_EQ((std::array{three.species, three.depth, three.dimensions}), (std::array{1, 6, 3}));
  EXPECT_TRUE(three.data.empty());
  try {
    read_npy_volume_field(dir / "two.npy");
    FAIL() << "a 2-D file was read as a volume";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(24, 5) has 2 dimensions, expected 3 or 4"), std::string::npos)
        << e.what();
  }
  write_npy_shape(dir / "species.npy", v.data(), {5, 1, 4, 6});
  try {
    read_npy_volume_field(dir / "species.npy");
    FAIL() << "five species were read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at most 4 species"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace physarum::test
