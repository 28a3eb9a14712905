#include "headless.hpp"

#include <glad/gl.h>

#include <memory>
#include <mutex>
#include <thread>

#include "render/egl_context.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "render/palette.hpp"
#include "render/palette_blend.hpp"

namespace physarum::python {

namespace {

struct Renderer {
  std::thread::id owner = std::this_thread::get_id();
  render::EglContext egl;
  render::FieldRenderer field;
  explicit Renderer(bool prefer_cuda_device) : egl(prefer_cuda_device) {}
};

std::unique_ptr<Renderer>& renderer_slot() {
  static std::unique_ptr<Renderer> r;
  return r;
}

render::PaletteSet& palettes() {
  static render::PaletteSet set = render::load_palettes(render::palette_dir());
  return set;
}

const render::Palette& palette_named(const std::string& name) {
  const render::PaletteSet& set = palettes();
  const size_t i = set.index_of(name);
  if (set.palettes[i].name == name) return set.palettes[i];
  std::string names;
  for (const auto& p : set.palettes) names += " " + p.name;
  throw Error("no palette named '" + name + "' in " + render::palette_dir().string() +
              "; there are:" + names);
}

std::mutex& renderer_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void check_palette(const DisplayParams& d) {
  const std::lock_guard lock(renderer_mutex());
  (void)palette_named(d.palette);
}

std::vector<uint8_t> render_rgba(Backend& backend, const DisplayParams& d, Size out, const Preset* story) {
  const std::lock_guard lock(renderer_mutex());  // one renderer for every Sim of the process
  auto& slot = renderer_slot();
  if (slot && slot->owner != std::this_thread::get_id()) {
    throw Error(
        "render(): the GL context belongs to the thread that rendered first; render from that thread");
  }
  if (!slot) slot = std::make_unique<Renderer>(backend.can_publish());
  Renderer& r = *slot;
  if (story != nullptr) {
    r.field.set_palette(render::palette_at(palettes(), *story, backend.steps_done()));
  } else {
    r.field.set_palette(palette_named(d.palette));
  }

  const render::Texture colour = render::make_texture_2d(out.width, out.height, GL_RGBA8);
  const render::Framebuffer fbo = render::make_framebuffer();
  glNamedFramebufferTexture(fbo.get(), GL_COLOR_ATTACHMENT0, colour.get(), 0);
  if (glCheckNamedFramebufferStatus(fbo.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw Error("render(): the offscreen framebuffer is incomplete");
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  // The range from a host copy, as `physarum render` computes it for its last frame.
  r.field.update_field(backend, true);
  r.field.draw(d, render::View{}, out.width, out.height);
  std::vector<uint8_t> rgba = render::read_framebuffer_rgba(out.width, out.height);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  render::check_gl("render()");
  return rgba;
}

void release_renderer() {
  const std::lock_guard lock(renderer_mutex());
  auto& slot = renderer_slot();
  if (slot && slot->owner == std::this_thread::get_id()) slot.reset();
  // A context made on another thread cannot be released here; the process's exit frees it.
  if (slot) (void)slot.release();
}

}  // namespace physarum::python
