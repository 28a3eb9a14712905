#include "window/orbit_input.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

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

void orbit_rotate(DisplayParams& d, float dx, float dy, const render::Area& area) {
  if (area.h <= 0) return;
  const float per_pixel = kOrbitDegreesPerHeight / area.h;
  d.camera_yaw_deg = wrapped_degrees(d.camera_yaw_deg + dx * per_pixel);
  d.camera_pitch_deg = within("camera_pitch_deg", d.camera_pitch_deg + dy * per_pixel);
}

void orbit_zoom(DisplayParams& d, float notches) {
  d.camera_distance = within("camera_distance", d.camera_distance * std::pow(kOrbitZoomPerNotch, -notches));
}

void orbit_pan(DisplayParams& d, float dx, float dy, const render::Area& area, Size volume) {
  if (area.h <= 0 || volume.width <= 0 || volume.height <= 0 || volume.depth <= 0) return;
  const render::OrbitCamera camera(d, volume);
  // The size of a pixel in voxels where the target is: the picture's height spans
  // 2 distance tan(fov / 2) there.
  const float voxels_per_pixel = 2.0f * camera.distance() * camera.tan_half_fov() / area.h;
  const render::Vec3 move = (-dx * voxels_per_pixel) * camera.right() + (dy * voxels_per_pixel) * camera.up();
  d.camera_target_x =
      within("camera_target_x", d.camera_target_x + move.x / static_cast<float>(volume.width));
  d.camera_target_y =
      within("camera_target_y", d.camera_target_y + move.y / static_cast<float>(volume.height));
  d.camera_target_z =
      within("camera_target_z", d.camera_target_z + move.z / static_cast<float>(volume.depth));
}

void add_turntable(Preset& p, uint64_t from, uint64_t steps) {
  if (steps == 0) throw Error("a turntable needs at least 1 step, not 0");
  const std::string key = "display.camera_yaw_deg";
  Preset next = p;
  const float yaw = next.display.camera_yaw_deg;
  for (const auto& [step, value] : {std::pair{from, yaw}, std::pair{from + steps, yaw + 360.0f}}) {
    auto& ks = next.keyframes;
    auto at = std::lower_bound(ks.begin(), ks.end(), step,
                               [](const Keyframe& k, uint64_t s) { return k.step < s; });
    if (at == ks.end() || at->step != step) at = ks.insert(at, Keyframe{step, Ease::Linear, {}});
    std::erase_if(at->values, [&](const KeyframeValue& v) { return v.key == key; });
    at->values.push_back(KeyframeValue{key, value});
  }
  validate_keyframes(next);
  p = std::move(next);
}

void orbit_reset(DisplayParams& d) {
  for (const registry::Param& p : registry::params()) {
    if (p.section == Section::Display && p.name.starts_with("camera_")) p.put(&d, registry::default_value(p));
  }
}

}  // namespace physarum::app
