#include "render/palette_texture.hpp"

#include <glad/gl.h>

namespace physarum::render {

PaletteTexture::PaletteTexture() : tex_(make_texture_2d(kLutSize, 1, GL_RGBA8)) {
  glTextureParameteri(tex_.get(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(tex_.get(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  set(greyscale_palette());
}

void PaletteTexture::set(const Palette& p) {
  glTextureSubImage2D(tex_.get(), 0, 0, 0, kLutSize, 1, GL_RGBA, GL_UNSIGNED_BYTE, p.lut.data());
}

}  // namespace physarum::render
