#version 450 core
// field_colour.comp into a float image: the stills for print and compositing (16-bit PNG,
// OpenEXR) keep the colours the shader computes, before any rounding to 8 bits.
#include "field_colour.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba32f, binding = 0) uniform writeonly image2D u_target;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(u_fb_size.x) || p.y >= int(u_fb_size.y)) return;
  imageStore(u_target, p, pixel_colour(vec2(p) + 0.5));
}
