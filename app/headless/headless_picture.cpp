#include "headless/headless_picture.hpp"

#include "headless/offscreen.hpp"
#include "render/gl_objects.hpp"
#include "render/view.hpp"

namespace physarum::app {

HeadlessPicture::HeadlessPicture(bool prefer_cuda_device) : egl_(prefer_cuda_device) {}

const render::PaletteSet& HeadlessPicture::palettes() {
  if (!palettes_) palettes_ = render::load_palettes(render::palette_dir());
  return *palettes_;
}

const render::Palette& HeadlessPicture::palette(const std::string& name) {
  return palette_named(palettes(), name);
}

std::vector<uint8_t> HeadlessPicture::draw_host_field(const HostField& f, const DisplayParams& d,
                                                      const char* what) {
  OffscreenTarget target(f.size.width, f.size.height);
  plane_.set_palette(palette(d.palette));
  plane_.set_environment_maps(f.food, f.walls, f.size);
  plane_.upload_host_field(f.planes.data(), f.size, f.colours);
  plane_.draw(d, render::View{}, f.size.width, f.size.height);
  std::vector<uint8_t> rgba = render::read_framebuffer_rgba(f.size.width, f.size.height);
  render::check_gl(what);
  return rgba;
}

}  // namespace physarum::app
