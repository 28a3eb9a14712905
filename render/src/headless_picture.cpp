#include "render/headless_picture.hpp"

#include "render/gl_objects.hpp"
#include "render/offscreen.hpp"
#include "render/view.hpp"

namespace physarum::render {

HeadlessPicture::HeadlessPicture(bool prefer_cuda_device) : egl_(prefer_cuda_device) {}

const PaletteSet& HeadlessPicture::palettes() {
  if (!palettes_) palettes_ = load_palettes(palette_dir());
  return *palettes_;
}

const Palette& HeadlessPicture::palette(const std::string& name) {
  return palette_named(palettes(), name);
}

std::vector<uint8_t> HeadlessPicture::draw_host_field(const HostField& f, const DisplayParams& d,
                                                      const char* what) {
  const OffscreenTarget target(f.size.width, f.size.height);
  plane_.set_palette(palette(d.palette));
  plane_.set_environment_maps(f.food, f.walls, f.size);
  plane_.upload_host_field(f.planes.data(), f.size, f.colours);
  return draw_and_read(d, f.size, what);
}

std::vector<uint8_t> HeadlessPicture::draw_plane(Backend& b, const DisplayParams& d, const Palette& palette,
                                                 Size out, const char* what) {
  const OffscreenTarget target(out.width, out.height);
  plane_.set_palette(palette);
  plane_.update_field(b, true);
  return draw_and_read(d, out, what);
}

std::vector<uint8_t> HeadlessPicture::draw_and_read(const DisplayParams& d, Size out, const char* what) {
  plane_.draw(d, View{}, out.width, out.height);
  std::vector<uint8_t> rgba = read_framebuffer_rgba(out.width, out.height);
  check_gl(what);
  return rgba;
}

}  // namespace physarum::render
