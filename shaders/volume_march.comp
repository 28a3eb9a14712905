#version 450 core
// The volume's ray march (volume.glsl does the work) as a compute shader, one invocation per
// framebuffer pixel, into an RGBA8 image: the window's, renders' and recordings' pictures.
// render::ComputePass says why a compute pass and not a fragment shader.
#include "volume.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8, binding = 0) uniform writeonly image2D u_target;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(u_fb_size.x) || p.y >= int(u_fb_size.y)) return;
  imageStore(u_target, p, volume_pixel(vec2(p) + 0.5));
}
