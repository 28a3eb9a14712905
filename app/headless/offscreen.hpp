// What headless drawing needs besides the EGL context: a colour target to draw into and the
// preset's palette by name. Shared by the headless picture maker (render, atlas) and the frame
// benches, which draw the field exactly as the window does, only offscreen.
#pragma once

#include <string>

#include "render/gl_objects.hpp"
#include "render/palette.hpp"

namespace physarum::app {

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
  render::Texture color_;
  render::Framebuffer fbo_;
};

// The palette called `name` among those installed; Error naming the ones there are otherwise.
const render::Palette& palette_named(const render::PaletteSet& palettes, const std::string& name);

}  // namespace physarum::app
