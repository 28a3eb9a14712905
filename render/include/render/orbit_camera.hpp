// Where a volume appears in a framebuffer: an orbit camera made of the display keys camera_* and
// the volume's size. Plain math, no GL, like view.hpp: the window, the headless renderer and the
// shaders (through the vectors handed to them) share it, and tests check it without a context.
//
// World space is the volume's voxel space: voxel (x, y, z) covers [x, x + 1] x [y, y + 1] x
// [z, z + 1], the volume [0, W] x [0, H] x [0, D]. Up is -y, so that at yaw 0 and pitch 0 (the
// camera on the -z side, looking along +z) the picture shows a plane of constant z as the 2D
// renderer draws a plane: x to the right, y (rows) downwards. Positive yaw turns the camera about
// the vertical axis toward +x; positive pitch lifts it (toward -y).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "render/view.hpp"
#include "sim/params.hpp"

namespace physarum::render {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend Vec3 operator*(float s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
  friend bool operator==(const Vec3&, const Vec3&) = default;
};
inline float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 a) {
  return std::sqrt(dot(a, a));
}
inline Vec3 normalize(Vec3 a) {
  const float l = length(a);
  return l > 0 ? (1.0f / l) * a : a;
}

// 4 x 4, column-major as OpenGL takes it: m[column * 4 + row].
struct Mat4 {
  std::array<float, 16> m{};
  float at(int row, int col) const { return m[static_cast<size_t>(col * 4 + row)]; }
  // The point p (w = 1) transformed, with its w.
  std::array<float, 4> apply(Vec3 p) const {
    std::array<float, 4> r{};
    for (int row = 0; row < 4; ++row)
      r[static_cast<size_t>(row)] = at(row, 0) * p.x + at(row, 1) * p.y + at(row, 2) * p.z + at(row, 3);
    return r;
  }
};

struct Ray {
  Vec3 origin;
  Vec3 dir;  // unit length
};

inline constexpr float kPi = 3.14159265358979f;
inline float radians(float deg) {
  return deg * (kPi / 180.0f);
}

class OrbitCamera {
 public:
  // The camera of display `d` (camera_* keys) around a volume of `volume` voxels (W x H x D).
  OrbitCamera(const DisplayParams& d, Size volume) {
    const float w = static_cast<float>(volume.width), h = static_cast<float>(volume.height);
    const float dep = static_cast<float>(volume.depth);
    diagonal_ = std::sqrt(w * w + h * h + dep * dep);
    target_ = {d.camera_target_x * w, d.camera_target_y * h, d.camera_target_z * dep};
    const float yaw = radians(d.camera_yaw_deg);
    // Exactly +-90 degrees would leave the camera's right vector undefined.
    const float pitch = radians(std::clamp(d.camera_pitch_deg, -89.9f, 89.9f));
    const Vec3 from_target{-std::sin(yaw) * std::cos(pitch), -std::sin(pitch),
                           -std::cos(yaw) * std::cos(pitch)};
    distance_ = std::max(d.camera_distance, 1e-3f) * diagonal_;
    eye_ = target_ + distance_ * from_target;
    forward_ = -1.0f * from_target;
    right_ = normalize(cross(forward_, kUp));
    up_ = cross(right_, forward_);
    tan_half_fov_ = std::tan(0.5f * radians(std::clamp(d.camera_fov_deg, 1.0f, 170.0f)));
  }

  Vec3 eye() const { return eye_; }
  Vec3 target() const { return target_; }
  Vec3 forward() const { return forward_; }  // unit, from the eye toward the target
  Vec3 right() const { return right_; }      // unit, the picture's +x
  Vec3 up() const { return up_; }            // unit, the picture's up
  float distance() const { return distance_; }
  float diagonal() const { return diagonal_; }
  float tan_half_fov() const { return tan_half_fov_; }  // vertical

  // The ray from the eye through framebuffer point (px, py) (pixels, y down; a pixel's centre is
  // at +0.5) when the picture fills `area`: the vertical field of view spans the area's height.
  Ray ray(float px, float py, const Area& area) const {
    const float sx = (px - area.center_x()) / (0.5f * area.h);
    const float sy = (area.center_y() - py) / (0.5f * area.h);
    return {eye_, normalize(forward_ + (sx * tan_half_fov_) * right_ + (sy * tan_half_fov_) * up_)};
  }
  // Where world point p lands in the framebuffer (pixels, y down); false when it is behind the eye.
  bool project(Vec3 p, const Area& area, float& px, float& py) const {
    const Vec3 v = p - eye_;
    const float z = dot(v, forward_);
    if (!(z > 0)) return false;
    const float sx = dot(v, right_) / (z * tan_half_fov_);
    const float sy = dot(v, up_) / (z * tan_half_fov_);
    px = area.center_x() + sx * 0.5f * area.h;
    py = area.center_y() - sy * 0.5f * area.h;
    return true;
  }

  // World to eye space (right-handed, the eye looking along -z), as OpenGL's view matrix.
  Mat4 view() const {
    Mat4 v;
    const Vec3 rows[3] = {right_, up_, -1.0f * forward_};
    for (int r = 0; r < 3; ++r) {
      v.m[static_cast<size_t>(0 * 4 + r)] = rows[r].x;
      v.m[static_cast<size_t>(1 * 4 + r)] = rows[r].y;
      v.m[static_cast<size_t>(2 * 4 + r)] = rows[r].z;
      v.m[static_cast<size_t>(3 * 4 + r)] = -dot(rows[r], eye_);
    }
    v.m[15] = 1;
    return v;
  }
  // Eye space to clip space for a picture of aspect w / h (gluPerspective); the near and far planes
  // hold the whole volume when it lies within `distance() + diagonal()` of the eye.
  Mat4 projection(float aspect) const {
    const float n = near_plane(), f = far_plane();
    Mat4 p;
    p.m[0] = 1.0f / (aspect * tan_half_fov_);
    p.m[5] = 1.0f / tan_half_fov_;
    p.m[10] = (f + n) / (n - f);
    p.m[11] = -1;
    p.m[14] = 2 * f * n / (n - f);
    return p;
  }
  float near_plane() const { return std::max(1e-3f * diagonal_, distance_ - diagonal_); }
  float far_plane() const { return distance_ + diagonal_; }

 private:
  static constexpr Vec3 kUp{0, -1, 0};
  Vec3 target_, eye_, forward_, right_, up_;
  float diagonal_ = 1, distance_ = 1, tan_half_fov_ = 1;
};

// The clip box of display `d` in voxel coordinates: [lo, hi] on each axis, lo <= hi.
inline void clip_box(const DisplayParams& d, Size volume, Vec3& lo, Vec3& hi) {
  const auto side = [](float a, float b, int n, float& l, float& h) {
    const float x0 = std::clamp(std::min(a, b), 0.0f, 1.0f), x1 = std::clamp(std::max(a, b), 0.0f, 1.0f);
    l = x0 * static_cast<float>(n);
    h = x1 * static_cast<float>(n);
  };
  side(d.clip_x0, d.clip_x1, volume.width, lo.x, hi.x);
  side(d.clip_y0, d.clip_y1, volume.height, lo.y, hi.y);
  side(d.clip_z0, d.clip_z1, volume.depth, lo.z, hi.z);
}

// Where a ray meets the box [lo, hi]: the entry and exit distances along it (t0 clamped to 0, the
// eye inside the box). False when it misses.
inline bool intersect_box(const Ray& r, Vec3 lo, Vec3 hi, float& t0, float& t1) {
  t0 = 0.0f;
  t1 = 3.4e38f;
  const float o[3] = {r.origin.x, r.origin.y, r.origin.z};
  const float dir[3] = {r.dir.x, r.dir.y, r.dir.z};
  const float l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
  for (int a = 0; a < 3; ++a) {
    if (dir[a] == 0.0f) {
      if (o[a] < l[a] || o[a] > h[a]) return false;
      continue;
    }
    float ta = (l[a] - o[a]) / dir[a], tb = (h[a] - o[a]) / dir[a];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  return t0 < t1;
}

}  // namespace physarum::render
