#version 450 core
// Min and max of the field for auto-range, on the GPU (no read-back): each invocation scans a
// grid-strided set of cells, the workgroup reduces in shared memory, one atomic per workgroup.
// With several channels also each channel's. Each channel's sum over the workgroup's cells goes to
// partial_sum (one slot per workgroup: no float atomics), for the black level's mean.
#include "range.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) uniform sampler2D u_field;
uniform int u_channels;      // 1: one species (R32F); 2..4: RGBA32F
uniform int u_cave_channel;  // cave value: -1 the sum, else a channel

const int kKeys = 5;  // the cave value, then up to 4 channels
shared uint s_min[kKeys * 256];
shared uint s_max[kKeys * 256];
shared float s_sum[4 * 256];

void main() {
  ivec2 size = textureSize(u_field, 0);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy * gl_WorkGroupSize.xy);
  int keys = u_channels > 1 ? 1 + min(u_channels, 4) : 1;
  uint lmin[kKeys] = uint[kKeys](0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
  uint lmax[kKeys] = uint[kKeys](0u, 0u, 0u, 0u, 0u);
  vec4 lsum = vec4(0.0);
  for (int y = int(gl_GlobalInvocationID.y); y < size.y; y += stride.y) {
    for (int x = int(gl_GlobalInvocationID.x); x < size.x; x += stride.x) {
      vec4 f = texelFetch(u_field, ivec2(x, y), 0);
      uint k = order_key(cave_value(f, u_channels, u_cave_channel));
      lmin[0] = min(lmin[0], k);
      lmax[0] = max(lmax[0], k);
      for (int c = 1; c < keys; ++c) {
        uint kc = order_key(f[c - 1]);
        lmin[c] = min(lmin[c], kc);
        lmax[c] = max(lmax[c], kc);
      }
      lsum += f;
    }
  }
  uint i = gl_LocalInvocationIndex;
  for (int c = 0; c < kKeys; ++c) {
    s_min[c * 256 + int(i)] = lmin[c];
    s_max[c * 256 + int(i)] = lmax[c];
  }
  for (int c = 0; c < 4; ++c) s_sum[c * 256 + int(i)] = lsum[c];
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (i < s) {
      for (int c = 0; c < keys; ++c) {
        s_min[c * 256 + int(i)] = min(s_min[c * 256 + int(i)], s_min[c * 256 + int(i + s)]);
        s_max[c * 256 + int(i)] = max(s_max[c * 256 + int(i)], s_max[c * 256 + int(i + s)]);
      }
      for (int c = 0; c < 4; ++c) s_sum[c * 256 + int(i)] += s_sum[c * 256 + int(i + s)];
    }
    barrier();
  }
  if (i == 0u) {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    for (int c = 0; c < 4; ++c) partial_sum[group * 4u + uint(c)] = s_sum[c * 256];
    atomicMin(min_key, s_min[0]);
    atomicMax(max_key, s_max[0]);
    for (int c = 1; c < keys; ++c) {
      atomicMin(channel_min_key[c - 1], s_min[c * 256]);
      atomicMax(channel_max_key[c - 1], s_max[c * 256]);
    }
  }
}
