// A colour target to draw into without a window: every headless drawing (the picture maker that
// render, atlas and the Python module share, the deep stills, the frame benches) draws the field
// exactly as the window does, only into one of these.
#pragma once

#include "render/gl_objects.hpp"

namespace physarum::render {

// A colour target of w x h (RGBA8 unless another GL internal format is given: GL_RGBA32F for the
// deep stills), bound for drawing (and reading) while it lives. Needs a current OpenGL 4.5
// context. Throws Error when the framebuffer is incomplete.
class OffscreenTarget {
 public:
  OffscreenTarget(int w, int h, unsigned internal_format = 0x8058 /* GL_RGBA8 */);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

 private:
  Texture color_;
  Framebuffer fbo_;
};

}  // namespace physarum::render
