#version 450 core
// After range_minmax: lo, hi and the cave thresholds from the reduced keys (one invocation).
// Same formulas as compute_display_range() in render/src/colormap_cpu.cpp.
#include "range.glsl"

layout(local_size_x = 1) in;
uniform int u_cave_mode;  // 0 off, 1 even, 3 binary (quantiles come from the host)
uniform int u_levels;
uniform int u_log;
uniform float u_threshold;
uniform int u_channels;  // several species: each channel's lo and 1 / span too
uniform int u_auto_range;
uniform int u_groups;   // workgroups of range_minmax: slots of partial_sum
uniform float u_cells;  // cells of the field, for the channels' means

void main() {
  lo = from_order_key(min_key);
  hi = from_order_key(max_key);
  inv_span = hi > lo ? 1.0 / (hi - lo) : 0.0;
  float span = hi - lo;
  threshold_count = 0;
  // One species, continuous colouring: from the black level, as compute_channels_range() does.
  if (u_channels <= 1 && u_auto_range != 0 && u_cave_mode == 0 && hi > lo) {
    float sum = 0.0;
    for (int g = 0; g < u_groups; ++g) sum += partial_sum[g * 4];
    lo = channel_black_level(lo, hi, sum / u_cells);
    inv_span = hi > lo ? 1.0 / (hi - lo) : 0.0;
  }
  for (int c = 0; c < min(u_channels, 4) && u_channels > 1; ++c) {
    float clo = u_auto_range != 0 ? from_order_key(channel_min_key[c]) : 0.0;
    float chi = u_auto_range != 0 ? from_order_key(channel_max_key[c]) : 1.0;
    if (u_auto_range != 0 && chi > clo) {
      float sum = 0.0;
      for (int g = 0; g < u_groups; ++g) sum += partial_sum[g * 4 + c];
      clo = channel_black_level(clo, chi, sum / u_cells);
    }
    channel_lo[c] = clo;
    channel_inv_span[c] = chi > clo ? 1.0 / (chi - clo) : 0.0;
  }
  if (u_cave_mode == 1) {
    // The host clamps levels already; bounded here too, so no value can write past thresholds[].
    int levels = clamp(u_levels, 2, thresholds.length() + 1);
    threshold_count = levels - 1;
    for (int k = 1; k < levels; ++k) {
      thresholds[k - 1] = lo + span * invert_mapping(float(k) / float(levels), u_log);
    }
  } else if (u_cave_mode == 3) {
    threshold_count = 1;
    thresholds[0] = lo + span * invert_mapping(u_threshold, u_log);
  }
}
