// `physarum render` of a volume: each frame drawn by the volume renderer (render/volume_renderer.hpp)
// through the orbit camera of the display keys, turning about the volume with --orbit, or with
// --slice the 2D renderer's picture of one plane of it. cmd_render's outputs (stills, videos) take
// the frames as they take a plane's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "render/field_renderer.hpp"
#include "render/volume_renderer.hpp"
#include "run/run.hpp"

namespace physarum::app {

// --slice AXIS=F: the plane across x, y or z at fraction F of that side.
struct SliceOption {
  SliceAxis axis = SliceAxis::Off;
  float at = 0.5f;
};
// Reads "z=0.5" (x, y or z; 0 <= F <= 1). Throws UsageError naming the text.
SliceOption parse_slice_option(const std::string& text);

// The picture's size for a volume when --resolution gives none: 1280 x 720 for the 3D view, the
// plane's own size for a slice.
inline constexpr Size kVolumeImageSize{1280, 720};
// The size of the plane a slice of a W x H x D volume shows (render::extract_slice).
Size slice_plane_size(Size volume, SliceAxis axis);

// The yaw of frame `frame` of a turntable of `orbit_s` seconds at `fps`: the display's yaw plus
// 360 degrees a turn. Without an orbit, the display's.
float orbit_yaw(float yaw_deg, std::optional<double> orbit_s, int fps, uint64_t frame);

class VolumeFrames {
 public:
  // Needs a current GL context. The food of the run's preset is read again for the overlay.
  VolumeFrames(run::Run& sim, SliceOption slice, std::optional<double> orbit_s, int fps);
  // The volume as it is now, drawn as frame `frame` into the bound framebuffer of `out`; the
  // palette is the caller's (set_palette on both renderers).
  // `host_range`: through the host (quantile cave levels need the whole volume there).
  void draw(const DisplayParams& d, Size out, uint64_t frame, bool host_range);
  void set_palette(const render::Palette& p);
  const std::string& interop_status() const { return volume_.interop_status(); }

 private:
  run::Run& sim_;
  SliceOption slice_;
  std::optional<double> orbit_s_;
  int fps_;
  render::VolumeRenderer volume_;
  render::FieldRenderer plane_;
  render::ChannelColours colours_;
  std::vector<float> field_;
};

}  // namespace physarum::app
