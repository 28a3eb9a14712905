// The palette as the colouring shaders read it (`u_lut` in value_colour.glsl): a 256 x 1 RGBA8
// texture read with texelFetch (the shaders interpolate between entries themselves), greyscale until
// set. One for the plane's renderer and one for the volume's. Needs a current OpenGL 4.5 context.
#pragma once

#include "render/gl_objects.hpp"
#include "render/palette.hpp"

namespace physarum::render {

class PaletteTexture {
 public:
  PaletteTexture();
  void set(const Palette& p);
  unsigned int get() const { return tex_.get(); }

 private:
  Texture tex_;
};

}  // namespace physarum::render
