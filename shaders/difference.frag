#version 450 core
// The twin view (render/difference.hpp): A - B as a diverging map, blue - white - red, or |A - B|
// from white to red. Mirrors difference_rgba() in render/src/difference.cpp (the tests compare
// them). Placed like the field (same view uniforms as field_colour.glsl), outside the field dark grey.
layout(binding = 0) uniform sampler2D u_difference;  // R32F, A - B summed over the channels

uniform vec2 u_fb_size;    // framebuffer pixels
uniform vec2 u_center;     // field cell at the framebuffer's centre
uniform float u_scale;     // framebuffer pixels per field cell
uniform float u_inv_range; // 1 / the difference shown at full colour
uniform int u_absolute;    // 1: |A - B|
uniform vec3 u_negative;
uniform vec3 u_zero;
uniform vec3 u_positive;

out vec4 o_color;

void main() {
  ivec2 size = textureSize(u_difference, 0);
  vec2 screen = vec2(gl_FragCoord.x, u_fb_size.y - gl_FragCoord.y);
  vec2 cell = u_center + (screen - 0.5 * u_fb_size) / u_scale;
  ivec2 c = ivec2(floor(cell));
  if (cell.x < 0.0 || cell.y < 0.0 || c.x >= size.x || c.y >= size.y) {
    o_color = vec4(0.07, 0.07, 0.08, 1.0);
    return;
  }
  float t = texelFetch(u_difference, c, 0).r * u_inv_range;
  if (u_absolute != 0) t = abs(t);
  if (isnan(t)) t = 0.0;
  t = clamp(t, -1.0, 1.0);
  vec3 end = t < 0.0 ? u_negative : u_positive;
  float w = abs(t);
  o_color = vec4(clamp(u_zero * (1.0 - w) + end * w, 0.0, 1.0), 1.0);
}
