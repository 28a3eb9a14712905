// A picture coloured by a compute shader, one invocation per framebuffer pixel (16 x 16 groups,
// the image at unit 0): the plane's colouring (field_colour.comp) and the volume's ray march
// (volume_march.comp). A compute pass runs on every SM, where a fragment shader runs only on the
// SMs that do graphics: on an H100/H200, two TPCs of 66 (docs/PERFORMANCE.md, "Why the draw cost
// 1.5 ms" and "Drawing a volume").
#pragma once

#include "render/gl_objects.hpp"
#include "sim/params.hpp"

namespace physarum::render {

// The texture a pass writes straight into (0: none, the pass goes through its own RGBA8 image) and
// its GL internal format: RGBA8, or RGBA32F for the deep stills.
struct DirectTarget {
  unsigned texture = 0;
  unsigned format = 0;
};

class ComputePass {
 public:
  // Where a pass over the bound draw framebuffer (fb_w x fb_h) writes: straight into its texture when
  // it is an RGBA8 or RGBA32F texture covering it (offscreen renders, recordings, the frame benchmark),
  // else none. `clipped` (the scissor test is on): none, since only the copy obeys the scissor box.
  static DirectTarget target(bool clipped, int fb_w, int fb_h);
  // Runs the program in use (its image at unit 0 in `direct`'s format, or rgba8) over every pixel:
  // into `direct`, else into this pass's own image, then copied to the bound framebuffer. The copy
  // is a graphics operation (0.66 ms at 3840x2160 on an H200, against 0.15 ms for the plane's whole
  // pass), which is why the direct write exists.
  void run(int fb_w, int fb_h, DirectTarget direct);

 private:
  Texture colour_tex_;  // RGBA8, framebuffer-sized, while the pass goes through it
  Framebuffer colour_fbo_;
  Size colour_size_;
};

}  // namespace physarum::render
