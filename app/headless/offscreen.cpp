#include "headless/offscreen.hpp"

#include <glad/gl.h>

#include "sim/params.hpp"

namespace physarum::app {

static_assert(GL_RGBA8 == 0x8058);

OffscreenTarget::OffscreenTarget(int w, int h, unsigned internal_format)
    : color_(render::make_texture_2d(w, h, internal_format)), fbo_(render::make_framebuffer()) {
  glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0);
  if (glCheckNamedFramebufferStatus(fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw Error("the offscreen framebuffer is incomplete");
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
}

OffscreenTarget::~OffscreenTarget() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

const render::Palette& palette_named(const render::PaletteSet& palettes, const std::string& name) {
  const size_t pi = palettes.index_of(name);
  if (palettes.palettes[pi].name == name) return palettes.palettes[pi];
  std::string names;
  for (const auto& p : palettes.palettes) names += " " + p.name;
  throw Error("no palette named '" + name + "' in " + render::palette_dir().string() +
              "; there are:" + names);
}

}  // namespace physarum::app
