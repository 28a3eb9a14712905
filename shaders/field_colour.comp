#version 450 core
// The field's colours as a compute shader (field_colour.glsl does the work), one invocation per
// framebuffer pixel, into an RGBA8 image the renderer then copies to the framebuffer. A compute
// pass runs on every SM, where a fragment shader runs only on the SMs that do graphics: on an
// H100/H200 two TPCs of 66, which made the fragment pass cost 1.5 ms at 3840x2160.
#include "field_colour.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8, binding = 0) uniform writeonly image2D u_target;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(u_fb_size.x) || p.y >= int(u_fb_size.y)) return;
  imageStore(u_target, p, pixel_colour(vec2(p) + 0.5));
}
