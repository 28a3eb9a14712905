#include "render/compute_pass.hpp"

#include <glad/gl.h>

namespace physarum::render {

namespace {

// The RGBA8 or RGBA32F texture behind a framebuffer's first colour attachment when it covers
// w x h, else none (the window's own framebuffer, a renderbuffer, another format or size).
DirectTarget direct_texture_of(GLuint framebuffer, int w, int h) {
  if (framebuffer == 0) return {};
  GLint type = GL_NONE;
  glGetNamedFramebufferAttachmentParameteriv(framebuffer, GL_COLOR_ATTACHMENT0,
                                             GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
  if (type != GL_TEXTURE) return {};
  GLint name = 0, level = 0, layered = GL_FALSE;
  glGetNamedFramebufferAttachmentParameteriv(framebuffer, GL_COLOR_ATTACHMENT0,
                                             GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
  glGetNamedFramebufferAttachmentParameteriv(framebuffer, GL_COLOR_ATTACHMENT0,
                                             GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
  glGetNamedFramebufferAttachmentParameteriv(framebuffer, GL_COLOR_ATTACHMENT0,
                                             GL_FRAMEBUFFER_ATTACHMENT_LAYERED, &layered);
  const auto tex = static_cast<GLuint>(name);
  if (level != 0 || layered != GL_FALSE || glIsTexture(tex) == GL_FALSE) return {};
  GLint target = 0, format = 0, tw = 0, th = 0;
  glGetTextureParameteriv(tex, GL_TEXTURE_TARGET, &target);
  if (target != GL_TEXTURE_2D) return {};
  glGetTextureLevelParameteriv(tex, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
  glGetTextureLevelParameteriv(tex, 0, GL_TEXTURE_WIDTH, &tw);
  glGetTextureLevelParameteriv(tex, 0, GL_TEXTURE_HEIGHT, &th);
  if ((format != GL_RGBA8 && format != GL_RGBA32F) || tw < w || th < h) return {};
  return {tex, static_cast<GLenum>(format)};
}

}  // namespace

DirectTarget ComputePass::target(bool clipped, int fb_w, int fb_h) {
  if (clipped) return {};
  GLint bound = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
  return direct_texture_of(static_cast<GLuint>(bound), fb_w, fb_h);
}

void ComputePass::run(int fb_w, int fb_h, DirectTarget target_tex) {
  GLint bound = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
  const auto target = static_cast<GLuint>(bound);
  const GLuint direct = target_tex.texture;
  if (direct == 0 && (!colour_tex_ || colour_size_ != Size{fb_w, fb_h})) {
    colour_tex_ = make_texture_2d(fb_w, fb_h, GL_RGBA8);
    colour_fbo_ = make_framebuffer();
    glNamedFramebufferTexture(colour_fbo_.get(), GL_COLOR_ATTACHMENT0, colour_tex_.get(), 0);
    colour_size_ = Size{fb_w, fb_h};
  }
  glBindImageTexture(0, direct != 0 ? direct : colour_tex_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     direct != 0 ? target_tex.format : GL_RGBA8);
  glDispatchCompute(static_cast<GLuint>((fb_w + 15) / 16), static_cast<GLuint>((fb_h + 15) / 16), 1);
  // Whoever reads the pixels next (a copy, a read-back, a texture fetch, the ImGui pass drawn over
  // them) sees the writes.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT);
  if (direct != 0) return;
  glBlitNamedFramebuffer(colour_fbo_.get(), target, 0, 0, fb_w, fb_h, 0, 0, fb_w, fb_h, GL_COLOR_BUFFER_BIT,
                         GL_NEAREST);
}

}  // namespace physarum::render
