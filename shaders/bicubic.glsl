// Catmull-Rom bicubic sampling of a toroidal texture, for images larger than the field: the
// 4x4 cells around a point, weighted, indices wrapping like the model's. The result is clamped to
// the range of the 2x2 nearest cells so a bright trail gets no dark ring (log mapping would make
// the undershoot visible). Mirrored in double precision by the tests (tests/test_render_outputs.cpp).

// Weights of the cells at offsets -1, 0, 1, 2 for a point a fraction f past cell 0's centre.
vec4 catmull_rom_weights(float f) {
  float f2 = f * f, f3 = f2 * f;
  return vec4(-0.5 * f3 + f2 - 0.5 * f, 1.5 * f3 - 2.5 * f2 + 1.0, -1.5 * f3 + 2.0 * f2 + 0.5 * f,
              0.5 * f3 - 0.5 * f2);
}

// GLSL leaves % of a negative number undefined: the offsets reach at most 2 cells past an edge,
// so adding twice the size first keeps every operand positive.
ivec2 wrap_cell(ivec2 c, ivec2 size) { return (c + 2 * size) % size; }

// `cell` is in field cell units (cell k covers [k, k + 1), its centre at k + 0.5).
vec4 bicubic_field(sampler2D tex, vec2 cell) {
  ivec2 size = textureSize(tex, 0);
  vec2 u = cell - 0.5;
  ivec2 base = ivec2(floor(u));
  vec2 f = u - vec2(base);
  vec4 wx = catmull_rom_weights(f.x), wy = catmull_rom_weights(f.y);
  vec4 sum = vec4(0.0);
  vec4 lo = vec4(1e38), hi = vec4(-1e38);
  for (int j = 0; j < 4; ++j) {
    vec4 row = vec4(0.0);
    for (int i = 0; i < 4; ++i) {
      vec4 v = texelFetch(tex, wrap_cell(base + ivec2(i - 1, j - 1), size), 0);
      row += wx[i] * v;
      if ((i == 1 || i == 2) && (j == 1 || j == 2)) {
        lo = min(lo, v);
        hi = max(hi, v);
      }
    }
    sum += wy[j] * row;
  }
  return clamp(sum, lo, hi);
}

// Cubic B-spline weights for the same offsets: a smoothing filter (it does not pass through the
// cells' values), so a mask's 0.5 contour runs straight along a slanted staircase of cells.
vec4 bspline_weights(float f) {
  float g = 1.0 - f, f2 = f * f, f3 = f2 * f;
  return vec4(g * g * g, 3.0 * f3 - 6.0 * f2 + 4.0, -3.0 * f3 + 3.0 * f2 + 3.0 * f + 1.0, f3) / 6.0;
}

// A mask (non-zero texels count 1) at `cell`, filtered with `spline` weights (0 Catmull-Rom,
// 1 B-spline): 0.5 on the mask's edge.
float bicubic_mask(usampler2D tex, vec2 cell, int spline) {
  ivec2 size = textureSize(tex, 0);
  vec2 u = cell - 0.5;
  ivec2 base = ivec2(floor(u));
  vec2 f = u - vec2(base);
  vec4 wx = spline != 0 ? bspline_weights(f.x) : catmull_rom_weights(f.x);
  vec4 wy = spline != 0 ? bspline_weights(f.y) : catmull_rom_weights(f.y);
  float sum = 0.0;
  for (int j = 0; j < 4; ++j) {
    float row = 0.0;
    for (int i = 0; i < 4; ++i) {
      row += wx[i] * float(texelFetch(tex, wrap_cell(base + ivec2(i - 1, j - 1), size), 0).r != 0u ? 1 : 0);
    }
    sum += wy[j] * row;
  }
  return sum;
}

// The binary cave (1 floor, 0 wall) smoothed the same way: floor where the result is at least 0.5.
bool bicubic_floor(usampler2D tex, vec2 cell) { return bicubic_mask(tex, cell, 0) >= 0.5; }
