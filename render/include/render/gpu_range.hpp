// The display range as the colouring shaders read it (the `RangeBuf` block of shaders/range.glsl),
// for the plane's and the volume's renderers alike: the range buffer, the per-workgroup channel sums
// a reduction leaves (black levels), and range_finish.comp, which turns those into the range. Needs
// a current OpenGL 4.5 core context for its whole life.
#pragma once

#include "render/colormap.hpp"
#include "render/gl_objects.hpp"
#include "sim/params.hpp"

namespace physarum::render {

// The last range computed on the host from a whole field or volume, and the display it was computed
// for. Quantile cave levels need one (the GPU reduction has no quantiles): while interop keeps the
// field on the GPU, the last one serves between host copies.
struct HostRange {
  DisplayRange range;
  DisplayParams display;  // drawable: what `range` was computed for
  bool valid = false;
  void keep(const DisplayRange& r, const DisplayParams& d) { range = r, display = d, valid = true; }
  // Computed with the same inputs as `d` (cave mode, levels, auto-range, cave channel).
  bool serves(const DisplayParams& d) const {
    return valid && display.cave == d.cave && display.levels == d.levels &&
           display.auto_range == d.auto_range && display.cave_channel == d.cave_channel;
  }
};

class GpuRange {
 public:
  static constexpr int kMaxGroups = 32;  // a reduction's workgroups on each axis, at most

  GpuRange();  // builds range_finish.comp; throws Error

  // A range computed elsewhere (on the host, or fixed), as it is.
  void upload(const DisplayRange& r);
  // The range reduced on the GPU: `pass` (range_minmax.comp or volume_range.comp, its textures
  // bound by the caller) runs on workgroups of 16 x 16 columns over width x height (at most
  // kMaxGroups on each axis), then range_finish.comp with the display's mapping and `cave` over
  // `cells` values.
  void reduce(const Program& pass, int width, int height, int channels, size_t cells, const DisplayParams& d,
              CaveMode cave);
  // Binds the range buffer where the colouring shaders read it (shader storage binding 0).
  void bind() const;

 private:
  Program finish_prog_;
  Buffer range_buf_;
  Buffer partial_sums_;
};

}  // namespace physarum::render
