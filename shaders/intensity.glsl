// A value's place on the palette, shared by the plane's colouring (field_colour.glsl) and the
// volume's (volume.frag). Needs range.glsl (apply_mapping) before it. Mirrors mapped_intensity() and
// continuous_position() in render/src/colormap_cpu.cpp.
uniform int u_log;  // 1 = log mapping
uniform float u_exposure;
uniform float u_inv_gamma;
uniform int u_invert;

// A value's mapped intensity in [0, 1] (range, exposure, mapping, gamma; invert not applied).
float intensity(float v, float range_lo, float range_inv_span) {
  float x = max((v - range_lo) * range_inv_span, 0.0) * u_exposure;
  float t = clamp(apply_mapping(x, u_log), 0.0, 1.0);
  return pow(t, u_inv_gamma);
}

float inverted(float t) { return u_invert != 0 ? 1.0 - t : t; }
