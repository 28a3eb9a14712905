// The reduction of the display range's pass (range_minmax.comp for a plane, volume_range.comp for
// a volume): each invocation accumulates its cells (range_add), the workgroup reduces in shared
// memory, one atomic per workgroup (range_publish). Each channel's sum over the workgroup's cells
// goes to partial_sum (one slot per workgroup: no float atomics), for the black level's mean.
// Needs range.glsl before it and a 256-invocation workgroup.
uniform int u_channels;      // 1: one species; 2..4: several
uniform int u_cave_channel;  // cave value: -1 the sum, else a channel

const int kKeys = 5;  // the cave value, then up to 4 channels
shared uint s_min[kKeys * 256];
shared uint s_max[kKeys * 256];
shared float s_sum[4 * 256];

uint lmin[kKeys] = uint[kKeys](0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
uint lmax[kKeys] = uint[kKeys](0u, 0u, 0u, 0u, 0u);
vec4 lsum = vec4(0.0);

int range_keys() { return u_channels > 1 ? 1 + min(u_channels, 4) : 1; }

void range_add(vec4 f) {
  uint k = order_key(cave_value(f, u_channels, u_cave_channel));
  lmin[0] = min(lmin[0], k);
  lmax[0] = max(lmax[0], k);
  for (int c = 1; c < range_keys(); ++c) {
    uint kc = order_key(f[c - 1]);
    lmin[c] = min(lmin[c], kc);
    lmax[c] = max(lmax[c], kc);
  }
  lsum += f;
}

void range_publish(uint group) {
  int keys = range_keys();
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
    for (int c = 0; c < 4; ++c) partial_sum[group * 4u + uint(c)] = s_sum[c * 256];
    atomicMin(min_key, s_min[0]);
    atomicMax(max_key, s_max[0]);
    for (int c = 1; c < keys; ++c) {
      atomicMin(channel_min_key[c - 1], s_min[c * 256]);
      atomicMax(channel_max_key[c - 1], s_max[c * 256]);
    }
  }
}
