#version 450 core
// Min and max of a volume for auto-range, on the GPU: as range_minmax.comp, each invocation
// scanning a grid-strided set of columns (x, y) through every z.
#include "range.glsl"
#include "range_reduce.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) uniform sampler3D u_vol[4];  // R32F, one a species

void main() {
  ivec3 size = textureSize(u_vol[0], 0);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
  for (int y = int(gl_GlobalInvocationID.y); y < size.y; y += stride.y) {
    for (int x = int(gl_GlobalInvocationID.x); x < size.x; x += stride.x) {
      for (int z = 0; z < size.z; ++z) {
        vec4 f = vec4(0.0);
        for (int c = 0; c < min(u_channels, 4); ++c) f[c] = texelFetch(u_vol[c], ivec3(x, y, z), 0).r;
        range_add(f);
      }
    }
  }
  range_publish(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
}
