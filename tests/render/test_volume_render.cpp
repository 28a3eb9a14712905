// The volume's picture: the orbit camera's math by hand, and the ray marcher (under EGL; Mesa's
// llvmpipe here) against what the camera predicts.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "gl_support.hpp"
#include "render/field_renderer.hpp"
#include "render/orbit_camera.hpp"
#include "render/volume_renderer.hpp"
#include "sim/volume.hpp"

namespace {

using namespace physarum;
using render::Area;
using render::OrbitCamera;
using render::Vec3;

void expect_near(Vec3 a, Vec3 b, float tol = 1e-4f) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

DisplayParams camera(float yaw, float pitch, float distance, float fov = 40.0f) {
  DisplayParams d;
  d.camera_yaw_deg = yaw;
  d.camera_pitch_deg = pitch;
  d.camera_distance = distance;
  d.camera_fov_deg = fov;
  return d;
}

TEST(OrbitCamera, FrontViewLooksAlongZWithRowsDownwards) {
  const Size s{10, 20, 30};
  const OrbitCamera c(camera(0, 0, 1), s);
  const float diag = std::sqrt(100.0f + 400.0f + 900.0f);
  EXPECT_NEAR(c.diagonal(), diag, 1e-4f);
  expect_near(c.target(), {5, 10, 15});
  expect_near(c.eye(), {5, 10, 15 - diag}, 1e-3f);
  expect_near(c.forward(), {0, 0, 1});
  expect_near(c.right(), {1, 0, 0});
  expect_near(c.up(), {0, -1, 0});
  // The target lands on the area's centre; a point further along +x to the right, along +y lower.
  const Area a{10, 20, 200, 100};
  float px = 0, py = 0;
  ASSERT_TRUE(c.project({5, 10, 15}, a, px, py));
  EXPECT_NEAR(px, 110.0f, 1e-3f);
  EXPECT_NEAR(py, 70.0f, 1e-3f);
  // A point at depth diag with 0.5 * tan(20 deg) * diag of height above the axis is at the top edge
  // less a quarter of the height.
  const float t = std::tan(20.0f * 3.14159265f / 180.0f);
  ASSERT_TRUE(c.project({5, 10 - 0.5f * t * diag, 15}, a, px, py));
  EXPECT_NEAR(py, 70.0f - 25.0f, 1e-2f);
  ASSERT_TRUE(c.project({5 + t * diag, 10, 15}, a, px, py));
  EXPECT_NEAR(px, 110.0f + 50.0f, 1e-2f);
}

TEST(OrbitCamera, YawAndPitchMoveTheEyeOnTheSphere) {
  const Size s{16, 16, 16};
  const float diag = std::sqrt(3.0f) * 16.0f;
  // Yaw 90: the eye on the -x side looking along +x; pitch 30 lifts it toward -y (up).
  const OrbitCamera c(camera(90, 30, 2), s);
  const float r = 2 * diag;
  const float pitch = 30.0f * 3.14159265f / 180.0f;
  expect_near(c.eye(), {8 - r * std::cos(pitch), 8 - r * std::sin(pitch), 8}, 1e-3f);
  EXPECT_NEAR(render::length(c.eye() - c.target()), r, 1e-3f);
  EXPECT_NEAR(render::dot(c.right(), c.up()), 0.0f, 1e-6f);
  EXPECT_NEAR(render::dot(c.forward(), c.up()), 0.0f, 1e-6f);
  // The up vector leans toward -y: the picture's up is the world's up.
  EXPECT_LT(c.up().y, 0.0f);
}

TEST(OrbitCamera, RaysProjectionAndMatricesAgree) {
  const Size s{32, 24, 16};
  const OrbitCamera c(camera(35, 25, 1.6f), s);
  const Area a{0, 0, 320, 200};
  const Vec3 points[] = {{0, 0, 0}, {32, 24, 16}, {3, 20, 9}, {16, 12, 8}};
  const render::Mat4 v = c.view(), p = c.projection(a.w / a.h);
  for (const Vec3& q : points) {
    float px = 0, py = 0;
    ASSERT_TRUE(c.project(q, a, px, py));
    // The ray through the pixel passes through the point.
    const render::Ray ray = c.ray(px, py, a);
    const Vec3 to = q - ray.origin;
    EXPECT_NEAR(render::length(render::cross(ray.dir, to)) / render::length(to), 0.0f, 1e-4f);
    // The matrices put it on the same pixel (NDC y up, pixels y down).
    const auto e = v.apply(q);
    const auto clip = p.apply({e[0], e[1], e[2]});
    EXPECT_NEAR((clip[0] / clip[3] * 0.5f + 0.5f) * a.w, px, 1e-2f);
    EXPECT_NEAR((0.5f - clip[1] / clip[3] * 0.5f) * a.h, py, 1e-2f);
    EXPECT_GT(clip[2] / clip[3], -1.0f);  // within the near and far planes
    EXPECT_LT(clip[2] / clip[3], 1.0f);
  }
}

TEST(OrbitCamera, ClipBoxAndRayBoxIntersection) {
  DisplayParams d;
  d.clip_x0 = 0.75f;  // given the wrong way round: the box is still [0.25, 0.75]
  d.clip_x1 = 0.25f;
  d.clip_z1 = 0.5f;
  Vec3 lo, hi;
  render::clip_box(d, {40, 20, 10}, lo, hi);
  expect_near(lo, {10, 0, 0});
  expect_near(hi, {30, 20, 5});
  float t0 = 0, t1 = 0;
  ASSERT_TRUE(render::intersect_box({{0, 10, 2}, {1, 0, 0}}, lo, hi, t0, t1));
  EXPECT_FLOAT_EQ(t0, 10.0f);
  EXPECT_FLOAT_EQ(t1, 30.0f);
  EXPECT_FALSE(render::intersect_box({{0, 10, 7}, {1, 0, 0}}, lo, hi, t0, t1));
}

// ---- The ray marcher under EGL. ----

struct Pixels {
  int w, h;
  std::vector<uint8_t> rgba;
  const uint8_t* at(int x, int y) const { return &rgba[(static_cast<size_t>(y) * w + x) * 4]; }
};

Pixels draw(render::VolumeRenderer& r, const DisplayParams& d, int w, int h) {
  test::Fbo fbo(w, h);
  r.draw(d, w, h);
  render::check_gl("drawing a volume");
  return {w, h, render::read_framebuffer_rgba(w, h)};
}

TEST(VolumeRender, MipOfOneBrightVoxelLandsWhereTheCameraSaysWithThePalettesTop) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Size s{16, 16, 16};
  std::vector<float> v(16 * 16 * 16, 0.0f);
  const int bx = 4, by = 11, bz = 6;
  v[(static_cast<size_t>(bz) * 16 + by) * 16 + bx] = 5.0f;
  render::VolumeRenderer r;
  r.set_palette(render::greyscale_palette());
  r.upload_host_volume(v.data(), s);
  DisplayParams d = camera(30, 20, 1.6f);
  d.volume_mode = VolumeMode::Mip;
  d.mapping = Mapping::Linear;
  const Pixels img = draw(r, d, 96, 80);
  // The pixels that show the voxel (its full value) gather about its projected centre.
  int best = -1;
  for (size_t i = 0; i < img.rgba.size(); i += 4) best = std::max<int>(best, img.rgba[i]);
  double sx = 0, sy = 0;
  int count = 0;
  for (int y = 0; y < img.h; ++y)
    for (int x = 0; x < img.w; ++x)
      if (img.at(x, y)[0] == best) sx += x + 0.5, sy += y + 0.5, ++count;
  ASSERT_GT(count, 0);
  float px = 0, py = 0;
  ASSERT_TRUE(OrbitCamera(d, s).project({bx + 0.5f, by + 0.5f, bz + 0.5f}, Area::whole(96, 80), px, py));
  EXPECT_NEAR(sx / count, px, 1.0);
  EXPECT_NEAR(sy / count, py, 1.0);
  EXPECT_LE(count, 16) << "a voxel a few pixels across";
  // A ray through the voxel's centre meets its full value: the palette's top, white.
  const render::Palette grey = render::greyscale_palette();
  EXPECT_EQ(best, grey.lut[255 * 4]);
  EXPECT_EQ(img.at(2, 2)[0], 18);  // outside the volume: the background
}

TEST(VolumeRender, EmissionOfAnEmptyVolumeIsTheBackground) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Size s{12, 12, 12};
  std::vector<float> v(12 * 12 * 12, 0.0f);
  render::VolumeRenderer r;
  r.upload_host_volume(v.data(), s);
  DisplayParams d;
  d.volume_mode = VolumeMode::Emission;
  d.background = Background::Transparent;
  Pixels img = draw(r, d, 40, 30);
  for (size_t i = 3; i < img.rgba.size(); i += 4) ASSERT_EQ(img.rgba[i], 0) << "pixel " << i / 4;
  d.background = Background::Opaque;
  img = draw(r, d, 40, 30);
  for (size_t i = 0; i < img.rgba.size(); i += 4) {
    ASSERT_EQ(img.rgba[i + 0], 18) << "pixel " << i / 4;  // kBackground 0.07 * 255
    ASSERT_EQ(img.rgba[i + 3], 255);
  }
}

// A sphere of radius R about the volume's centre as the level 0.5 of a field falling linearly
// outward: v = 0.5 + (R - r) / 16.
std::vector<float> sphere_field(int n, float radius) {
  std::vector<float> v(static_cast<size_t>(n) * n * n);
  const float c = 0.5f * static_cast<float>(n);
  size_t i = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const float r = std::sqrt((x + 0.5f - c) * (x + 0.5f - c) + (y + 0.5f - c) * (y + 0.5f - c) +
                                  (z + 0.5f - c) * (z + 0.5f - c));
        v[i++] = std::clamp(0.5f + (radius - r) / 16.0f, 0.0f, 1.0f);
      }
  return v;
}

TEST(VolumeRender, IsoSurfaceOfASphereHasTheAnalyticSilhouette) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const int n = 32;
  const float radius = 10.0f;
  const std::vector<float> v = sphere_field(n, radius);
  render::VolumeRenderer r;
  r.upload_host_volume(v.data(), {n, n, n});
  DisplayParams d = camera(0, 0, 1.2f);
  d.volume_mode = VolumeMode::Iso;
  d.iso_level = 0.5f;
  d.auto_range = false;  // the range [0, 1]: intensity = value
  d.mapping = Mapping::Linear;
  d.background = Background::Transparent;
  const int side = 128;
  const Pixels img = draw(r, d, side, side);
  int covered = 0;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) covered += img.at(x, y)[3] > 127 ? 1 : 0;
  // The silhouette of a sphere of radius R seen from L away is a disc of angular radius asin(R / L).
  const OrbitCamera c(d, {n, n, n});
  const float l = c.distance();
  const float analytic = std::tan(std::asin(radius / l)) / c.tan_half_fov() * (0.5f * side);
  const float measured = std::sqrt(static_cast<float>(covered) / 3.14159265f);
  EXPECT_NEAR(measured, analytic, 1.0f) << covered << " pixels";
  // Lit from the eye: brightest where the surface faces it, in the middle.
  EXPECT_GT(img.at(side / 2, side / 2)[0], img.at(side / 2 + static_cast<int>(0.9f * analytic), side / 2)[0]);
}

TEST(VolumeRender, ClipBoxRemovesWhatLiesOutsideIt) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const Size s{32, 16, 16};
  std::vector<float> v(32 * 16 * 16, 0.0f);
  const auto at = [&](int x, int y, int z) -> float& {
    return v[(static_cast<size_t>(z) * 16 + y) * 32 + x];
  };
  at(4, 8, 8) = 1.0f;
  at(27, 8, 8) = 1.0f;
  render::VolumeRenderer r;
  r.set_palette(render::greyscale_palette());
  r.upload_host_volume(v.data(), s);
  DisplayParams d = camera(0, 0, 1.2f);
  d.volume_mode = VolumeMode::Mip;
  d.mapping = Mapping::Linear;
  const Area a = Area::whole(120, 80);
  float lx = 0, ly = 0, rx = 0, ry = 0;
  ASSERT_TRUE(OrbitCamera(d, s).project({4.5f, 8.5f, 8.5f}, a, lx, ly));
  ASSERT_TRUE(OrbitCamera(d, s).project({27.5f, 8.5f, 8.5f}, a, rx, ry));
  const auto brightest_near = [](const Pixels& img, float px, float py) {
    int best = 0;
    for (int y = static_cast<int>(py) - 2; y <= static_cast<int>(py) + 2; ++y)
      for (int x = static_cast<int>(px) - 2; x <= static_cast<int>(px) + 2; ++x)
        best = std::max<int>(best, img.at(x, y)[0]);
    return best;
  };
  Pixels img = draw(r, d, 120, 80);
  EXPECT_EQ(brightest_near(img, lx, ly), 255);
  EXPECT_EQ(brightest_near(img, rx, ry), 255);
  d.clip_x1 = 0.5f;  // the box ends at x = 16: the right voxel is gone, the left one stays
  img = draw(r, d, 120, 80);
  EXPECT_EQ(brightest_near(img, lx, ly), 255);
  EXPECT_LT(brightest_near(img, rx, ry), 20);
}

TEST(VolumeRender, EmissionThroughAUniformSlabIsBeersLaw) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const int n = 16;
  std::vector<float> v(static_cast<size_t>(n) * n * n, 0.5f);
  render::VolumeRenderer r;
  r.set_palette(render::greyscale_palette());
  r.upload_host_volume(v.data(), {n, n, n});
  DisplayParams d = camera(0, 0, 1.5f);
  d.volume_mode = VolumeMode::Emission;
  d.auto_range = false;
  d.mapping = Mapping::Linear;
  d.volume_density = 0.1f;
  d.volume_opacity = 1.0f;
  d.background = Background::Transparent;
  const Pixels img = draw(r, d, 64, 64);
  // The central ray crosses the 16 voxels head-on, each of intensity 0.5.
  const double alpha = 1.0 - std::exp(-0.1 * 0.5 * 16.0);
  EXPECT_NEAR(img.at(32, 32)[3], alpha * 255.0, 1.5);
  // Its colour (straight alpha) is the palette's at 0.5.
  uint8_t grey[4];
  render::lut_lookup(render::greyscale_palette(), 0.5f, grey);
  EXPECT_NEAR(img.at(32, 32)[0], grey[0], 1.5);
}

TEST(VolumeRender, SliceOfAVolumeIsItsPlane) {
  const Size s{3, 2, 4};
  std::vector<float> v(2 * 24);  // two channels
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  Size plane;
  // z = 0.6 of 4 layers: layer 2. Channel 1 starts at 24.
  std::vector<float> z = render::extract_slice(v, s, 2, SliceAxis::Z, 0.6f, plane);
  EXPECT_EQ(plane, (Size{3, 2}));
  EXPECT_EQ(z, (std::vector<float>{12, 13, 14, 15, 16, 17, 36, 37, 38, 39, 40, 41}));
  // y = 1: rows are z, columns x.
  const std::vector<float> one(v.begin(), v.begin() + 24);
  std::vector<float> y = render::extract_slice(one, s, 1, SliceAxis::Y, 1.0f, plane);
  EXPECT_EQ(plane, (Size{3, 4}));
  EXPECT_EQ(y, (std::vector<float>{3, 4, 5, 9, 10, 11, 15, 16, 17, 21, 22, 23}));
  // x = 0: rows are z, columns y.
  std::vector<float> x =
      render::extract_slice(std::vector<float>(v.begin(), v.begin() + 24), s, 1, SliceAxis::X, 0.0f, plane);
  EXPECT_EQ(plane, (Size{2, 4}));
  EXPECT_EQ(x, (std::vector<float>{0, 3, 6, 9, 12, 15, 18, 21}));
  EXPECT_THROW((void)render::extract_slice(v, s, 2, SliceAxis::Off, 0.5f, plane), Error);
}

TEST(VolumeRender, EmptySpaceSkippingChangesNoPixel) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  // Sparse: a few bright blobs in an empty volume, most bricks empty, its sides no multiples of the
  // 8-voxel brick; and the sphere.
  const int n = 40;
  const Size sparse_size{41, 38, 35};
  std::vector<float> sparse(static_cast<size_t>(41) * 38 * 35, 0.0f);
  uint32_t state = 12345;
  for (int k = 0; k < 30; ++k) {
    state = state * 1664525u + 1013904223u;
    sparse[state % sparse.size()] = static_cast<float>(1 + k % 7);
  }
  const std::vector<float> sphere = sphere_field(n, 12.0f);
  render::VolumeRenderer r;
  r.set_palette(render::greyscale_palette());
  for (const std::vector<float>* v : std::array<const std::vector<float>*, 2>{&sparse, &sphere}) {
    r.upload_host_volume(v->data(), v == &sparse ? sparse_size : Size{n, n, n});
    for (const VolumeMode mode : {VolumeMode::Emission, VolumeMode::Mip, VolumeMode::Iso}) {
      DisplayParams d = camera(35, 25, 1.3f);
      d.volume_mode = mode;
      d.iso_level = 0.4f;
      d.volume_density = 4.0f;
      r.set_empty_space_skipping(false);
      const Pixels plain = draw(r, d, 80, 60);
      r.set_empty_space_skipping(true);
      const Pixels skipped = draw(r, d, 80, 60);
      int off = 0;
      for (size_t i = 0; i < plain.rgba.size(); ++i)
        off = std::max(off, std::abs(int(plain.rgba[i]) - int(skipped.rgba[i])));
      EXPECT_LE(off, 1) << "mode " << static_cast<int>(mode) << (v == &sparse ? ", sparse" : ", sphere");
      int lit = 0;
      for (size_t i = 0; i < plain.rgba.size(); i += 4) lit += plain.rgba[i] > 40 ? 1 : 0;
      EXPECT_GT(lit, 0) << "something to compare";
    }
  }
}

// Quantile cave levels need the volume on the host: an interop frame (the volume on the GPU alone)
// draws with the levels of the last host copy made for the same display, and until there is one
// (here: other levels) with even levels, which differ on a skewed volume.
TEST(VolumeRender, AnInteropFrameKeepsTheLastHostCopysQuantileLevels) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const int n = 24;
  std::vector<float> v = sphere_field(n, 9.0f);
  for (float& x : v) x = x * x * x;  // skewed: quantile and even levels part
  render::VolumeRenderer r;
  r.set_palette(render::greyscale_palette());
  DisplayParams d = camera(20, 30, 1.4f);
  d.cave = CaveMode::Quantile;
  d.levels = 4;
  r.upload_host_volume(v.data(), {n, n, n});
  EXPECT_FALSE(r.has_host_range_for(d)) << "nothing drawn yet";
  const Pixels host = draw(r, d, 64, 48);
  EXPECT_TRUE(r.has_host_range_for(d));
  r.forget_host_volume();
  EXPECT_EQ(draw(r, d, 64, 48).rgba, host.rgba);
  DisplayParams even = d;
  even.cave = CaveMode::Even;
  const Pixels even_picture = draw(r, even, 64, 48);
  EXPECT_NE(even_picture.rgba, host.rgba) << "the volume does not tell quantile from even levels";
  DisplayParams other = d;
  other.levels = 5;
  EXPECT_FALSE(r.has_host_range_for(other)) << "other levels need a new host copy";
}

TEST(VolumeRender, TheGpuRangeOfAnInteropFrameDrawsAsTheHostRange) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const int n = 24;
  std::vector<float> v = sphere_field(n, 7.0f);
  for (size_t i = 0; i < v.size(); i += 7) v[i] += 0.25f * static_cast<float>(i % 5);  // some texture
  render::VolumeRenderer r;
  r.set_palette(render::greyscale_palette());
  for (const VolumeMode mode : {VolumeMode::Emission, VolumeMode::Mip}) {
    DisplayParams d = camera(20, 30, 1.4f);
    d.volume_mode = mode;
    r.upload_host_volume(v.data(), {n, n, n});
    const Pixels host = draw(r, d, 64, 48);
    r.forget_host_volume();
    const Pixels gpu = draw(r, d, 64, 48);
    int off = 0;
    for (size_t i = 0; i < host.rgba.size(); ++i)
      off = std::max(off, std::abs(int(host.rgba[i]) - int(gpu.rgba[i])));
    EXPECT_LE(off, 1) << "mode " << static_cast<int>(mode);
  }
}

// The field of a grown volume reaches the texture: uploaded from the CPU backend, or copied on the
// device through interop from CUDA's (the GPU machine).
void expect_texture_holds_the_field(BackendKind kind, bool want_interop) {
  VolumeConfig c;
  c.size = {24, 16, 8};
  c.agents = 4000;
  c.seed = 9;
  auto v = create_volume(kind, c);
  v->step(5);
  render::VolumeRenderer r;
  r.update_volume(*v, DisplayParams{});
  EXPECT_EQ(r.interop_active(), want_interop) << r.interop_status();
  std::vector<float> field;
  v->read_field(field);
  EXPECT_EQ(r.read_texture(0), field);
  EXPECT_NE(*std::max_element(field.begin(), field.end()), 0.0f);
}

TEST(VolumeRender, UploadedTextureHoldsTheField) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  expect_texture_holds_the_field(BackendKind::Cpu, false);
}

TEST(VolumeRender, TheSourceTraceShowsAnMcpmRunsTrace) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  VolumeConfig c;
  c.size = {16, 12, 8};
  c.agents = 3000;
  c.model.turn_rule = TurnRule::Mcpm;
  auto v = create_volume(BackendKind::Cpu, c);
  v->step(4);
  std::vector<float> field, trace;
  v->read_field(field);
  v->read_trace(trace);
  ASSERT_NE(field, trace);
  render::VolumeRenderer r;
  DisplayParams d;
  d.volume_source = VolumeSource::Trace;
  r.update_volume(*v, d);
  EXPECT_EQ(r.read_texture(0), trace);
  d.volume_source = VolumeSource::Field;
  r.update_volume(*v, d);
  EXPECT_EQ(r.read_texture(0), field);
}

TEST(VolumeRender, InteropTextureHoldsTheFieldOnCuda) {
  if (!cuda_built() || cuda_device().empty()) GTEST_SKIP() << "no CUDA device (or a build without CUDA)";
  std::string why;
  auto egl = test::try_egl(true, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  expect_texture_holds_the_field(BackendKind::Cuda, true);
}

}  // namespace
