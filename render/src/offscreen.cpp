#include "render/offscreen.hpp"

#include <glad/gl.h>

#include "sim/params.hpp"

namespace physarum::render {

static_assert(GL_RGBA8 == 0x8058);

OffscreenTarget::OffscreenTarget(int w, int h, unsigned internal_format)
    : color_(make_texture_2d(w, h, internal_format)), fbo_(make_framebuffer()) {
  glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0);
  if (glCheckNamedFramebufferStatus(fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw Error("the offscreen framebuffer is incomplete");
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
}

OffscreenTarget::~OffscreenTarget() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace physarum::render
