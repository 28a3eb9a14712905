#version 450 core
// Colours the field: a palette with range, exposure, linear/log mapping, gamma and invert, or a
// discrete cave map. Mirrors render/src/colormap_cpu.cpp step by step (the tests compare them).
#include "range.glsl"

layout(binding = 0) uniform sampler2D u_field;  // R32F (RGBA32F: several species), texelFetch only
layout(binding = 1) uniform sampler2D u_lut;    // 256 x 1 RGBA8 palette
layout(binding = 2) uniform usampler2D u_cave;  // R8UI binary cave (1 = floor), after smoothing

uniform vec2 u_fb_size;   // framebuffer pixels
uniform vec2 u_center;    // field cell at the framebuffer's centre
uniform float u_scale;    // framebuffer pixels per field cell
uniform int u_mode;       // 0 palette, 1 cave levels, 2 binary cave
uniform int u_log;        // 1 = log mapping
uniform float u_exposure;
uniform float u_inv_gamma;
uniform int u_invert;
uniform vec3 u_background;
uniform int u_channels;       // 1: one species and the palette; 2..4: species' colours blended
uniform int u_cave_channel;   // cave maps of several species: -1 the sum, else one channel
uniform int u_blend;          // 0 additive on black, 1 ink on white
uniform vec3 u_colours[4];    // each species' colour

out vec4 o_color;

vec4 lut_entry(int i) { return texelFetch(u_lut, ivec2(i, 0), 0); }

// One channel's position in [0, 1], exactly as one species' value with its own range.
float channel_position(float v, int ch) {
  float x = max((v - channel_lo[ch]) * channel_inv_span[ch], 0.0) * u_exposure;
  float t = clamp(apply_mapping(x, u_log), 0.0, 1.0);
  t = pow(t, u_inv_gamma);
  if (u_invert != 0) t = 1.0 - t;
  return t;
}

void main() {
  ivec2 size = textureSize(u_field, 0);
  // Screen y grows downwards like the field's rows.
  vec2 screen = vec2(gl_FragCoord.x, u_fb_size.y - gl_FragCoord.y);
  vec2 cell = u_center + (screen - 0.5 * u_fb_size) / u_scale;
  ivec2 c = ivec2(floor(cell));
  if (cell.x < 0.0 || cell.y < 0.0 || c.x >= size.x || c.y >= size.y) {
    o_color = vec4(u_background, 1.0);
    return;
  }
  vec4 f = texelFetch(u_field, c, 0);
  float v = cave_value(f, u_channels, u_cave_channel);
  if (u_mode == 0 && u_channels > 1) {
    // Mirrors blend_channels() in render/src/colormap_cpu.cpp.
    vec3 rgb = vec3(u_blend != 0 ? 1.0 : 0.0);
    for (int ch = 0; ch < min(u_channels, 4); ++ch) {
      float t = channel_position(f[ch], ch);
      rgb = u_blend != 0 ? rgb * (1.0 * (1.0 - t) + u_colours[ch] * t) : rgb + t * u_colours[ch];
    }
    o_color = vec4(clamp(rgb, 0.0, 1.0), 1.0);
  } else if (u_mode == 0) {
    float x = max((v - lo) * inv_span, 0.0) * u_exposure;
    float t = clamp(apply_mapping(x, u_log), 0.0, 1.0);
    t = pow(t, u_inv_gamma);
    if (u_invert != 0) t = 1.0 - t;
    float f = t * 255.0;
    int i = clamp(int(floor(f)), 0, 254);
    float w = clamp(f - float(i), 0.0, 1.0);
    o_color = lut_entry(i) * (1.0 - w) + lut_entry(i + 1) * w;
  } else if (u_mode == 1) {
    int count = clamp(threshold_count, 0, thresholds.length());  // never past the array
    int levels = count + 1;
    int level = 0;
    for (int k = 0; k < count; ++k) level += v >= thresholds[k] ? 1 : 0;
    if (u_invert != 0) level = levels - 1 - level;
    o_color = lut_entry(levels > 1 ? level * 255 / (levels - 1) : 0);
  } else {
    bool floor_cell = (texelFetch(u_cave, c, 0).r != 0u) != (u_invert != 0);
    o_color = lut_entry(floor_cell ? 255 : 0);
  }
}
