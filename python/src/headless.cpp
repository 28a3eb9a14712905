#include "headless.hpp"

#include <memory>
#include <mutex>
#include <thread>

#include "render/headless_picture.hpp"
#include "render/palette.hpp"
#include "render/palette_blend.hpp"

namespace physarum::python {

namespace {

// The picture maker the command line draws with, kept on the thread that made its context.
struct Renderer {
  std::thread::id owner = std::this_thread::get_id();
  render::HeadlessPicture picture;
  explicit Renderer(bool prefer_cuda_device) : picture(prefer_cuda_device) {}
};

std::unique_ptr<Renderer>& renderer_slot() {
  static std::unique_ptr<Renderer> r;
  return r;
}

// Read once, without a GL context: a palette name is checked before any GL work.
const render::PaletteSet& palettes() {
  static const render::PaletteSet set = render::load_palettes(render::palette_dir());
  return set;
}

std::mutex& renderer_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

void check_palette(const DisplayParams& d) {
  const std::lock_guard lock(renderer_mutex());
  (void)render::palette_named(palettes(), d.palette);
}

std::vector<uint8_t> render_rgba(Backend& backend, const DisplayParams& d, Size out, const Preset* story) {
  const std::lock_guard lock(renderer_mutex());  // one renderer for every Sim of the process
  auto& slot = renderer_slot();
  if (slot && slot->owner != std::this_thread::get_id()) {
    throw Error(
        "render(): the GL context belongs to the thread that rendered first; render from that thread");
  }
  if (!slot) slot = std::make_unique<Renderer>(backend.can_publish());
  const render::Palette palette = story != nullptr
                                      ? render::palette_at(palettes(), *story, backend.steps_done())
                                      : render::palette_named(palettes(), d.palette);
  return slot->picture.draw_plane(backend, d, palette, out, "render()");
}

void release_renderer() {
  const std::lock_guard lock(renderer_mutex());
  auto& slot = renderer_slot();
  if (slot && slot->owner == std::this_thread::get_id()) slot.reset();
  // A context made on another thread cannot be released here; the process's exit frees it.
  if (slot) (void)slot.release();
}

}  // namespace physarum::python
