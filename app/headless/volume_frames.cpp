#include "headless/volume_frames.hpp"

#include <cmath>

#include "render/colormap.hpp"
#include "run/volume_setup.hpp"
#include "sim/text.hpp"

namespace physarum::app {

using run::UsageError;

SliceOption parse_slice_option(const std::string& text) {
  const auto bad = [&] {
    return UsageError("--slice " + text +
                      ": expected AXIS=F, AXIS x, y or z and F a fraction 0 to 1 (z=0.5)");
  };
  if (text.size() < 3 || text[1] != '=') throw bad();
  SliceOption s;
  switch (text[0]) {
    case 'x': s.axis = SliceAxis::X; break;
    case 'y': s.axis = SliceAxis::Y; break;
    case 'z': s.axis = SliceAxis::Z; break;
    default: throw bad();
  }
  try {
    size_t used = 0;
    const std::string number = text.substr(2);
    s.at = std::stof(number, &used);
    if (used != number.size() || !(s.at >= 0.0f && s.at <= 1.0f)) throw bad();
  } catch (const std::logic_error&) {
    throw bad();
  }
  return s;
}

Size slice_plane_size(Size volume, SliceAxis axis) {
  switch (axis) {
    case SliceAxis::X: return {volume.height, volume.depth};
    case SliceAxis::Y: return {volume.width, volume.depth};
    default: return {volume.width, volume.height};
  }
}

float orbit_yaw(float yaw_deg, std::optional<double> orbit_s, int fps, uint64_t frame) {
  if (!orbit_s || !(*orbit_s > 0) || fps <= 0) return yaw_deg;
  const double turns = static_cast<double>(frame) / (*orbit_s * fps);
  return static_cast<float>(yaw_deg + 360.0 * (turns - std::floor(turns)));
}

VolumeFrames::VolumeFrames(run::Run& sim, SliceOption slice, std::optional<double> orbit_s, int fps)
    : sim_(sim), slice_(slice), orbit_s_(orbit_s), fps_(fps) {
  const Preset& p = sim.preset();
  colours_ = render::channel_colours(resolve_species(p.species, p.model, p.spawn.mode));
  Volume& v = sim.volume();
  volume_.set_environment(run::load_volume_food(p.environment, v.size()).food, v.walls(), v.size());
  plane_.set_bicubic(true);
}

void VolumeFrames::set_palette(const render::Palette& p) {
  volume_.set_palette(p);
  plane_.set_palette(p);
}

void VolumeFrames::draw(const DisplayParams& given, Size out, uint64_t frame, bool host_range) {
  Volume& v = sim_.volume();
  if (slice_.axis != SliceAxis::Off) {
    v.read_field(field_);
    Size plane;
    const std::vector<float> s =
        render::extract_slice(field_, v.size(), v.species_count(), slice_.axis, slice_.at, plane);
    plane_.upload_host_field(s.data(), plane, colours_);
    plane_.draw(given, render::View{}, out.width, out.height);
    return;
  }
  DisplayParams d = given;
  d.camera_yaw_deg = orbit_yaw(d.camera_yaw_deg, orbit_s_, fps_, frame);
  volume_.update_volume(v, d, colours_, host_range);
  volume_.draw(d, out.width, out.height);
}

}  // namespace physarum::app
