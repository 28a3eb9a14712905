// The display range as the colouring shaders read it (the `RangeBuf` block of shaders/range.glsl),
// for the plane's and the volume's renderers alike: the range buffer, the per-workgroup channel sums
// a reduction leaves (black levels), and range_finish.comp, which turns those into the range. Needs
// a current OpenGL 4.5 core context for its whole life.
#pragma once

#include "render/colormap.hpp"
#include "render/gl_objects.hpp"
#include "sim/params.hpp"

namespace physarum::render {

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
