#version 450 core
// Min and max of the field for auto-range, on the GPU (no read-back): each invocation scans a
// grid-strided set of cells, the workgroup reduces in shared memory, one atomic per workgroup.
#include "range.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) uniform sampler2D u_field;

shared uint s_min[256];
shared uint s_max[256];

void main() {
  ivec2 size = textureSize(u_field, 0);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
  uint lmin = 0xffffffffu;
  uint lmax = 0u;
  for (int y = int(gl_GlobalInvocationID.y); y < size.y; y += stride.y) {
    for (int x = int(gl_GlobalInvocationID.x); x < size.x; x += stride.x) {
      uint k = order_key(texelFetch(u_field, ivec2(x, y), 0).r);
      lmin = min(lmin, k);
      lmax = max(lmax, k);
    }
  }
  uint i = gl_LocalInvocationIndex;
  s_min[i] = lmin;
  s_max[i] = lmax;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (i < s) {
      s_min[i] = min(s_min[i], s_min[i + s]);
      s_max[i] = max(s_max[i], s_max[i + s]);
    }
    barrier();
  }
  if (i == 0u) {
    atomicMin(min_key, s_min[0]);
    atomicMax(max_key, s_max[0]);
  }
}
