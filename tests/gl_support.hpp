// Helpers for tests that need a GL context but no window: an EGL context (or the reason there is
// none, for GTEST_SKIP) and an RGBA8 framebuffer bound for drawing.
#pragma once

#include <glad/gl.h>

#include <memory>
#include <string>

#include "render/egl_context.hpp"
#include "render/gl_objects.hpp"
#include "sim/params.hpp"

namespace physarum::test {

// prefer_device: the NVIDIA EGL device (CUDA interop) when there is one, else Mesa surfaceless.
inline std::unique_ptr<render::EglContext> try_egl(bool prefer_device, std::string& why) {
  try {
    return std::make_unique<render::EglContext>(prefer_device);
  } catch (const Error& e) {
    why = e.what();
    return nullptr;
  }
}

struct Fbo {
  render::Texture color;
  render::Framebuffer fbo;
  Fbo(int w, int h) : color(render::make_texture_2d(w, h, GL_RGBA8)), fbo(render::make_framebuffer()) {
    glNamedFramebufferTexture(fbo.get(), GL_COLOR_ATTACHMENT0, color.get(), 0);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  }
  ~Fbo() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }
};

}  // namespace physarum::test
