// One headless picture maker: an OpenGL context through EGL (no display needed), the installed
// palettes and the plane's renderer, kept for as many pictures as a command draws. `physarum
// render` draws its run with it (app/headless/headless_render.hpp), `physarum atlas` its worlds'
// tiles, the Python module its Sim.render(); all draw as the window draws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "render/colormap.hpp"
#include "render/egl_context.hpp"
#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"

namespace physarum::render {

// A field held on the host, with the maps drawn over it: S planes of `size`, each species' colour.
struct HostField {
  const std::vector<float>& planes;
  Size size;
  ChannelColours colours;
  const std::vector<float>& food;
  const std::vector<uint8_t>& walls;
};

class HeadlessPicture {
 public:
  // Makes the context current on this thread: on the CUDA device when `prefer_cuda_device` (for
  // interop with a CUDA run), else wherever EGL finds one. Throws Error naming what was tried.
  explicit HeadlessPicture(bool prefer_cuda_device);

  // The EGL platform and GL renderer, for the command's first line.
  const std::string& description() const { return egl_.description(); }
  // The palettes installed (palette_dir()), read once, when first asked for.
  const PaletteSet& palettes();
  // The palette called `name`; Error naming the ones there are otherwise.
  const Palette& palette(const std::string& name);
  FieldRenderer& plane() { return plane_; }
  const FieldRenderer& plane() const { return plane_; }

  // `f` drawn at its own size with `d` and the palette it names, into a target of its own; the
  // pixels read back (read_framebuffer_rgba). `what` names the drawing in a GL error.
  std::vector<uint8_t> draw_host_field(const HostField& f, const DisplayParams& d, const char* what);
  // The plane of `b` as it stands, drawn with `d` and `palette` at `out` pixels into a target of its
  // own, the display range from a host copy (as `physarum render` draws its last frame); the pixels
  // read back.
  std::vector<uint8_t> draw_plane(Backend& b, const DisplayParams& d, const Palette& palette, Size out,
                                  const char* what);

 private:
  // What the plane holds, drawn into the bound target of `out` and read back.
  std::vector<uint8_t> draw_and_read(const DisplayParams& d, Size out, const char* what);

  EglContext egl_;  // first made, last gone: every GL object below needs it
  std::optional<PaletteSet> palettes_;
  FieldRenderer plane_;
};

}  // namespace physarum::render
