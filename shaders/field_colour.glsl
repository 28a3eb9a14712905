// The field's colours, one framebuffer pixel at a time: included by field_colour.comp.
// Colours the field: a palette with range, exposure, linear/log mapping, gamma and invert, or a
// discrete cave map. Mirrors render/src/colormap_cpu.cpp step by step (the tests compare them).
// With a transparent background the alpha is the field's mapped intensity before invert (the
// palette position, the cave level's fraction, floor or wall), and the colour stays the palette's
// own: straight (unassociated) alpha, as PNG and ffmpeg's rgba input expect, so compositing does
// the one multiplication. Upsampling interpolates the field, never colours, so there is no dark
// fringe from mixing colours of different alpha.
#include "range.glsl"
#include "intensity.glsl"
#include "bicubic.glsl"
#include "environment_overlay.glsl"

layout(binding = 0) uniform sampler2D u_field;  // R32F (RGBA32F: several species), texelFetch only (bicubic.glsl too)
layout(binding = 1) uniform sampler2D u_lut;    // 256 x 1 RGBA8 palette
layout(binding = 2) uniform usampler2D u_cave;  // R8UI binary cave (1 = floor), after smoothing

uniform vec2 u_fb_size;   // framebuffer pixels
uniform vec2 u_center;    // field cell at the framebuffer's centre
uniform float u_scale;    // framebuffer pixels per field cell
uniform int u_mode;       // 0 palette, 1 cave levels, 2 binary cave
uniform vec3 u_background;
uniform int u_bicubic;        // 1: where a cell covers more than one pixel, sample bicubically
uniform int u_transparent;    // 1: alpha from the mapped intensity (display.background = transparent)

#include "value_colour.glsl"

vec4 with_alpha(vec4 colour, float alpha) { return u_transparent != 0 ? vec4(colour.rgb, alpha) : colour; }

// The field's colour at framebuffer position `frag`; `shown`: the field cell it shows, or (-1, -1) outside
// the field; `at`: the point it shows (field cell units); `smooth_scale`: u_scale where sampled
// bicubically, else 0.
vec4 field_colour(vec2 frag, out ivec2 shown, out vec2 at, out float smooth_scale) {
  shown = ivec2(-1);
  smooth_scale = 0.0;
  ivec2 size = textureSize(u_field, 0);
  // Screen y grows downwards like the field's rows.
  vec2 screen = vec2(frag.x, u_fb_size.y - frag.y);
  vec2 cell = u_center + (screen - 0.5 * u_fb_size) / u_scale;
  at = cell;
  ivec2 c = ivec2(floor(cell));
  if (cell.x < 0.0 || cell.y < 0.0 || c.x >= size.x || c.y >= size.y) {
    return u_transparent != 0 ? vec4(0.0) : vec4(u_background, 1.0);
  }
  shown = c;
  bool smooth_sampling = u_bicubic != 0 && u_scale > 1.0;
  if (smooth_sampling) smooth_scale = u_scale;
  vec4 f = smooth_sampling ? bicubic_field(u_field, cell) : texelFetch(u_field, c, 0);
  if (u_mode == 2) {
    bool is_floor = smooth_sampling ? bicubic_floor(u_cave, cell) : texelFetch(u_cave, c, 0).r != 0u;
    bool floor_cell = is_floor != (u_invert != 0);
    return with_alpha(lut_entry(floor_cell ? 255 : 0), is_floor ? 1.0 : 0.0);
  }
  vec4 colour = value_colour(f, u_mode);
  return with_alpha(vec4(colour.rgb, 1.0), colour.a);
}

// The colour of the framebuffer pixel whose centre is `frag` (gl_FragCoord's convention: pixel
// (i, j) is at (i + 0.5, j + 0.5), rows from the bottom), with the environment drawn over it.
vec4 pixel_colour(vec2 frag) {
  ivec2 shown;
  vec2 at;
  float smooth_scale;
  vec4 colour = field_colour(frag, shown, at, smooth_scale);
  return shown.x >= 0 ? environment_overlay(colour, shown, at, smooth_scale) : colour;
}
