// Drawing a simulation into an RGBA image with the window's shader, offscreen through EGL (no
// display needed), as `physarum render` does. One GL context serves every Sim of the process.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/preset.hpp"

namespace physarum::python {

// The palette named by `d.palette` (or Error listing the palettes there are), checked before any GL
// work. Throws Error when no palette of that name exists.
void check_palette(const DisplayParams& d);

// The field drawn with `d` at `out` pixels: RGBA8, rows top to bottom. The palette is d.palette, or
// with `story` the palette its keyframes show at the backend's step (blended between two keyframes,
// render/palette_blend.hpp), as `physarum render` and the window draw it. Throws Error when no
// OpenGL 4.5 context can be made (the message says which platforms were tried) or when called from
// another thread than the first render (a GL context belongs to one thread).
std::vector<uint8_t> render_rgba(Backend& backend, const DisplayParams& d, Size out,
                                 const Preset* story = nullptr);

// Releases the GL context (at interpreter exit, before the libraries it uses are unloaded).
void release_renderer();

}  // namespace physarum::python
