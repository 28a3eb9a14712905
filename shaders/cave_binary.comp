#version 450 core
// Binary cave: classify cells as floor (value >= threshold) or wall, then rounds of 3x3 majority
// smoothing (floor when at least 5 of the 9 cells are), wrapping like the model. Mirrors
// binary_cave() in render/src/colormap_cpu.cpp.
#include "range.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) uniform sampler2D u_field;
layout(binding = 3) uniform usampler2D u_source;
layout(binding = 0, r8ui) uniform writeonly uimage2D u_dest;
uniform int u_channels;      // the cave value (range.glsl): one species' field, or
uniform int u_cave_channel;  // for several, the sum (-1) or one channel
uniform int u_classify;  // 1: from the field; 0: one smoothing round from u_source

void main() {
  ivec2 size = textureSize(u_field, 0);
  ivec2 c = ivec2(gl_GlobalInvocationID.xy);
  if (c.x >= size.x || c.y >= size.y) return;
  uint result;
  if (u_classify != 0) {
    result = cave_value(texelFetch(u_field, c, 0), u_channels, u_cave_channel) >= thresholds[0] ? 1u : 0u;
  } else {
    uint floor_cells = 0u;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        ivec2 n = (c + ivec2(dx, dy) + size) % size;
        floor_cells += texelFetch(u_source, n, 0).r;
      }
    }
    result = floor_cells >= 5u ? 1u : 0u;
  }
  imageStore(u_dest, c, uvec4(result));
}
