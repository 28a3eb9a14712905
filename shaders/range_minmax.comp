#version 450 core
// Min and max of the field for auto-range, on the GPU (no read-back): each invocation scans a
// grid-strided set of cells, then range_reduce.glsl reduces them. With several channels also each
// channel's, and each channel's sums for the black level's mean.
#include "range.glsl"
#include "range_reduce.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) uniform sampler2D u_field;  // R32F, or RGBA32F for several species

void main() {
  ivec2 size = textureSize(u_field, 0);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
  for (int y = int(gl_GlobalInvocationID.y); y < size.y; y += stride.y) {
    for (int x = int(gl_GlobalInvocationID.x); x < size.x; x += stride.x) {
      range_add(texelFetch(u_field, ivec2(x, y), 0));
    }
  }
  range_publish(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
}
