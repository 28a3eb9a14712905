// The colour of one cell's (a plane's) or voxel's (a volume's) channel values: the palette, cave
// levels, or several species' colours blended. Shared by field_colour.glsl and volume.frag; mirrors
// render/src/colormap_cpu.cpp step by step (the tests compare them). Needs range.glsl and
// intensity.glsl before it, and `u_lut`, the 256 x 1 RGBA8 palette.
uniform int u_channels;      // 1: one species and the palette; 2..4: species' colours blended
uniform int u_cave_channel;  // cave maps of several species: -1 the sum, else one channel
uniform int u_blend;         // 0 additive on black, 1 ink on white
uniform vec3 u_colours[4];   // each species' colour

vec4 lut_entry(int i) { return texelFetch(u_lut, ivec2(i, 0), 0); }

// The palette at position t in [0, 1], between its two nearest entries.
vec4 palette_at(float t) {
  float f = t * 255.0;
  int k = clamp(int(floor(f)), 0, 254);
  float w = clamp(f - float(k), 0.0, 1.0);
  return lut_entry(k) * (1.0 - w) + lut_entry(k + 1) * w;
}

// value_colour(f, mode).a alone, without the palette (the ray marcher's opacity, skipping, mip, iso).
float value_alpha(vec4 f, int mode) {
  if (mode == 0 && u_channels > 1) {
    float alpha = 0.0;
    for (int ch = 0; ch < min(u_channels, 4); ++ch)
      alpha = max(alpha, intensity(f[ch], channel_lo[ch], channel_inv_span[ch]));
    return alpha;
  }
  float v = cave_value(f, u_channels, u_cave_channel);
  if (mode == 0) return intensity(v, lo, inv_span);
  int count = clamp(threshold_count, 0, thresholds.length());
  int level = 0;
  for (int k = 0; k < count; ++k) level += v >= thresholds[k] ? 1 : 0;
  return count > 0 ? float(level) / float(count) : 0.0;
}

// mode 0: continuous (the palette, or several species' colours blended), 1: cave levels (the
// range's thresholds). rgb: the colour; a: the mapped intensity, a transparent background's alpha
// (several species: the largest channel's; cave levels: level / (levels - 1)), before invert.
vec4 value_colour(vec4 f, int mode) {
  if (mode == 0 && u_channels > 1) {
    // Mirrors blend_channels() in render/src/colormap_cpu.cpp.
    vec3 rgb = vec3(u_blend != 0 ? 1.0 : 0.0);
    float alpha = 0.0;
    for (int ch = 0; ch < min(u_channels, 4); ++ch) {
      float i = intensity(f[ch], channel_lo[ch], channel_inv_span[ch]);
      float t = inverted(i);
      alpha = max(alpha, i);
      rgb = u_blend != 0 ? rgb * (1.0 * (1.0 - t) + u_colours[ch] * t) : rgb + t * u_colours[ch];
    }
    return vec4(clamp(rgb, 0.0, 1.0), alpha);
  }
  float v = cave_value(f, u_channels, u_cave_channel);
  if (mode == 0) {
    float i = intensity(v, lo, inv_span);
    return vec4(palette_at(inverted(i)).rgb, i);
  }
  int count = clamp(threshold_count, 0, thresholds.length());  // never past the array
  int levels = count + 1;
  int level = 0;
  for (int k = 0; k < count; ++k) level += v >= thresholds[k] ? 1 : 0;
  float alpha = levels > 1 ? float(level) / float(levels - 1) : 0.0;
  if (u_invert != 0) level = levels - 1 - level;
  return vec4(lut_entry(levels > 1 ? level * 255 / (levels - 1) : 0).rgb, alpha);
}
