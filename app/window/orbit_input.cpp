#include "window/orbit_input.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "render/orbit_camera.hpp"
#include "sim/registry.hpp"

namespace physarum::app {
namespace {

using registry::Section;

// The value clamped into the registry's allowed range of the display key `name`.
float within(std::string_view name, float v) {
  const registry::Param& p = *registry::find(Section::Display, name);
  return static_cast<float>(std::clamp(static_cast<double>(v), p.lo, p.hi));
}

float wrapped_degrees(float deg) {
  const float w = std::fmod(deg + 180.0f, 360.0f);
  return (w < 0 ? w + 360.0f : w) - 180.0f;
}

}  // namespace

void orbit_rotate(DisplayParams& d, float dx, float dy, const Area& area) {
  if (area.h <= 0) return;
  const float per_pixel = kOrbitDegreesPerHeight / area.h;
  d.camera_yaw_deg = wrapped_degrees(d.camera_yaw_deg - dx * per_pixel);
  d.camera_pitch_deg = within("camera_pitch_deg", d.camera_pitch_deg + dy * per_pixel);
}

void orbit_zoom(DisplayParams& d, float notches) {
  d.camera_distance = within("camera_distance", d.camera_distance * std::pow(kOrbitZoomPerNotch, -notches));
}

void orbit_pan(DisplayParams& d, float dx, float dy, const Area& area, Size volume) {
  if (area.h <= 0 || volume.width <= 0 || volume.height <= 0 || volume.depth <= 0) return;
  const render::OrbitCamera camera(d, volume);
  // The size of a pixel in voxels where the target is: the picture's height spans
  // 2 distance tan(fov / 2) there.
  const float voxels_per_pixel = 2.0f * camera.distance() * camera.tan_half_fov() / area.h;
  const render::Vec3 move = (-dx * voxels_per_pixel) * camera.right() + (dy * voxels_per_pixel) * camera.up();
  d.camera_target_x = within("camera_target_x", d.camera_target_x + move.x / static_cast<float>(volume.width));
  d.camera_target_y = within("camera_target_y", d.camera_target_y + move.y / static_cast<float>(volume.height));
  d.camera_target_z = within("camera_target_z", d.camera_target_z + move.z / static_cast<float>(volume.depth));
}

void orbit_reset(DisplayParams& d) {
  for (const registry::Param& p : registry::params()) {
    if (p.section == Section::Display && p.name.starts_with("camera_")) p.put(&d, registry::default_value(p));
  }
}

}  // namespace physarum::app
