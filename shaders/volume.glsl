// A volume by ray marching (render/volume_renderer.hpp), run by volume_march.comp (RGBA8) and
// volume_march_float.comp (RGBA32F): one ray per pixel from the orbit camera
// (render/orbit_camera.hpp computes the same rays on the host), through the clip box, in voxel
// coordinates. Emission: front-to-back emission-absorption, the palette as transfer function, until
// the ray is nearly opaque; mip: the largest value met; iso: the first crossing of the level,
// refined by bisection and shaded with the gradient as normal. Colours are straight alpha, as the
// plane's (field_colour.glsl).
#include "range.glsl"
#include "intensity.glsl"

layout(binding = 0) uniform sampler3D u_vol[4];  // R32F, one a species (unused ones unbound)
layout(binding = 4) uniform sampler2D u_lut;     // 256 x 1 RGBA8 palette
layout(binding = 5) uniform sampler3D u_food;    // R32F, E
layout(binding = 6) uniform sampler3D u_walls;   // R8, 1 = wall
layout(binding = 7) uniform sampler3D u_bricks;  // RGBA32F: each 8^3 brick's maxima (volume_bricks.comp)

#include "value_colour.glsl"

uniform vec2 u_fb_size;  // framebuffer pixels
uniform vec4 u_area;  // x, y, w, h in pixels, y down
uniform vec3 u_eye, u_forward, u_right, u_up;
uniform float u_tan_half_fov;
uniform vec3 u_size;            // W, H, D
uniform vec3 u_box_lo, u_box_hi;  // the clip box, voxels
uniform int u_mode;             // 0 emission, 1 mip, 2 iso
uniform int u_cave;             // 0 off, 1 levels: the range's thresholds (binary: its one, unsmoothed)
uniform int u_transparent;
uniform vec3 u_background;
uniform float u_density;        // emission: opacity per voxel of full intensity
uniform float u_opacity_exp;    // emission: opacity follows intensity to this power
uniform float u_iso;            // iso: level of the mapped intensity
uniform float u_step;           // voxels per sample
uniform int u_slice_axis;       // -1 none, 0 x, 1 y, 2 z
uniform float u_slice_at;       // voxels
uniform int u_show_food, u_show_walls;
uniform vec3 u_food_colour, u_walls_colour;
uniform int u_skip;             // 1: skip the bricks that cannot add to the picture

// Opacity a voxel of wall (of food at E >= 1) adds per voxel crossed: faint, so the network shows
// through a closed box's shell and between a catalogue's points.
const float kWallFog = 0.12;
const float kFoodFog = 0.2;

// Compute shaders have no derivatives: level 0, filtered between voxels.
vec4 channels_at(vec3 p) {
  vec3 uv = p / u_size;
  vec4 f = vec4(0.0);
  f.r = textureLod(u_vol[0], uv, 0.0).r;
  if (u_channels > 1) f.g = textureLod(u_vol[1], uv, 0.0).r;
  if (u_channels > 2) f.b = textureLod(u_vol[2], uv, 0.0).r;
  if (u_channels > 3) f.a = textureLod(u_vol[3], uv, 0.0).r;
  return f;
}

// The values of the voxel that contains p (mip: each pixel shows a voxel's own value, as the plane
// shows a cell's).
vec4 voxel_at(vec3 p) {
  ivec3 cell = clamp(ivec3(floor(p)), ivec3(0), ivec3(u_size) - 1);
  vec4 f = vec4(0.0);
  for (int ch = 0; ch < min(u_channels, 4); ++ch) f[ch] = texelFetch(u_vol[ch], cell, 0).r;
  return f;
}

// The colour of channel values f as the plane draws a cell (palette, cave levels, or the species'
// colours blended), with its mapped intensity as alpha.
vec4 colour_of(vec4 f) { return value_colour(f, u_cave == 0 ? 0 : 1); }

// The mapped intensity alone (the largest channel's with several; colour_of(f).a without the
// palette), for opacity, mip, iso and skipping.
float intensity_of(vec4 f) { return value_alpha(f, u_cave == 0 ? 0 : 1); }

bool box_hit(vec3 o, vec3 d, vec3 lo_, vec3 hi_, out float t0, out float t1) {
  vec3 inv = 1.0 / d;  // infinities for axis-parallel rays give the right slabs
  vec3 ta = (lo_ - o) * inv, tb = (hi_ - o) * inv;
  vec3 tmin = min(ta, tb), tmax = max(ta, tb);
  t0 = max(max(tmin.x, tmin.y), max(tmin.z, 0.0));
  t1 = min(min(tmax.x, tmax.y), tmax.z);
  return t0 < t1;
}

// Front-to-back: `acc` (premultiplied) gains a sample of straight colour c and opacity a.
void composite(inout vec4 acc, vec3 c, float a) {
  acc.rgb += (1.0 - acc.a) * a * c;
  acc.a += (1.0 - acc.a) * a;
}

// Food and walls along a step: their fog in front of what the mode draws.
void environment_fog(inout vec4 fog, vec3 p) {
  vec3 uv = p / u_size;
  if (u_show_walls != 0) {
    float w = textureLod(u_walls, uv, 0.0).r;
    if (w > 0.0) composite(fog, u_walls_colour, 1.0 - pow(1.0 - kWallFog * w, u_step));
  }
  if (u_show_food != 0) {
    float e = textureLod(u_food, uv, 0.0).r;
    if (e > 0.0) composite(fog, u_food_colour, 1.0 - pow(1.0 - kFoodFog * min(e, 1.0), u_step));
  }
}

vec3 gradient_at(vec3 p) {
  const vec2 h = vec2(0.5, 0.0);
  return vec3(intensity_of(channels_at(p + h.xyy)) - intensity_of(channels_at(p - h.xyy)),
              intensity_of(channels_at(p + h.yxy)) - intensity_of(channels_at(p - h.yxy)),
              intensity_of(channels_at(p + h.yyx)) - intensity_of(channels_at(p - h.yyx)));
}

// How many steps from the sample at t the ray stays in the brick around p when nothing in the brick
// can change the picture (its maxima add no emission, beat no mip maximum, reach no iso level);
// 0 when the brick must be sampled. The samples skipped are exactly those that would add nothing.
// `brick` and `most`: the brick the ray was last in and its largest intensity, read once a brick.
float steps_to_skip(vec3 o, vec3 d, float t, vec3 p, float best_i, inout ivec3 brick, inout float most) {
  const float kBrick = 8.0;
  vec3 b = min(floor(p / kBrick), vec3(textureSize(u_bricks, 0) - 1));
  if (ivec3(b) != brick) {
    brick = ivec3(b);
    most = intensity_of(texelFetch(u_bricks, brick, 0));
  }
  bool nothing = u_mode == 0 ? most <= 0.0 : u_mode == 1 ? most <= best_i : most < u_iso;
  if (!nothing) return 0.0;
  vec3 ta = (b * kBrick - o) / d, tb = ((b + 1.0) * kBrick - o) / d;
  vec3 far = max(ta, tb);
  float t_exit = min(min(far.x, far.y), far.z);
  return max(ceil((t_exit - t) / u_step), 1.0);
}

// The mode's picture along the ray from t0 to t1 (premultiplied), with the environment's fog.
vec4 march(vec3 o, vec3 d, float t0, float t1, inout vec4 fog, out bool hit_surface) {
  hit_surface = false;
  vec4 acc = vec4(0.0);
  vec4 best = vec4(0.0);  // mip: the values of the largest intensity met
  float best_i = -1.0;
  float prev_t = t0;
  ivec3 brick = ivec3(-1);
  float most = 0.0;
  for (float t = t0 + 0.5 * u_step; t < t1; t += u_step) {
    vec3 p = o + t * d;
    float skip = u_skip != 0 ? steps_to_skip(o, d, t, p, best_i, brick, most) : 0.0;
    if (skip > 0.0) {  // to the last sample in the brick; the loop steps out of it
      t += (skip - 1.0) * u_step;
      prev_t = t;
      continue;
    }
    environment_fog(fog, p);
    vec4 f = u_mode == 1 ? voxel_at(p) : channels_at(p);
    if (u_mode == 0) {
      float i = intensity_of(f);
      if (i > 0.0) {  // else it adds nothing: its opacity is 0
        float a = 1.0 - exp(-u_density * pow(i, u_opacity_exp) * u_step);
        composite(acc, colour_of(f).rgb, a);
      }
      if (acc.a + fog.a >= 0.995) break;
    } else if (u_mode == 1) {
      float i = intensity_of(f);
      if (i > best_i) { best_i = i; best = f; }
    } else if (intensity_of(f) >= u_iso) {
      float a = prev_t, b = t;  // the level lies between: bisect
      for (int k = 0; k < 6; ++k) {
        float m = 0.5 * (a + b);
        if (intensity_of(channels_at(o + m * d)) >= u_iso) b = m; else a = m;
      }
      vec3 s = o + b * d;
      vec3 g = gradient_at(s);
      vec3 n = length(g) > 0.0 ? -normalize(g) : -d;
      float light = 0.25 + 0.75 * abs(dot(n, d));
      vec4 c = colour_of(channels_at(s));
      acc = vec4(palette_at(inverted(u_iso)).rgb * light, 1.0);
      if (u_channels > 1 && u_cave == 0) acc = vec4(c.rgb * light, 1.0);
      hit_surface = true;
      break;
    }
    if (fog.a >= 0.995) break;
    prev_t = t;
  }
  if (u_mode == 1 && best_i >= 0.0) {
    vec4 c = colour_of(best);
    acc = vec4(c.rgb * c.a, c.a);
    if (u_transparent == 0) acc = vec4(c.rgb, 1.0);
  }
  return acc;
}

// The colour (straight alpha) of the framebuffer pixel whose centre is `frag` (GL's window
// coordinates, y up).
vec4 volume_pixel(vec2 frag) {
  vec2 px = vec2(frag.x, u_fb_size.y - frag.y);
  vec2 s = vec2((px.x - (u_area.x + 0.5 * u_area.z)) / (0.5 * u_area.w),
                ((u_area.y + 0.5 * u_area.w) - px.y) / (0.5 * u_area.w));
  vec3 d = normalize(u_forward + (s.x * u_tan_half_fov) * u_right + (s.y * u_tan_half_fov) * u_up);
  vec4 back = u_transparent != 0 ? vec4(0.0) : vec4(u_background, 1.0);
  float t0, t1;
  if (!box_hit(u_eye, d, u_box_lo, u_box_hi, t0, t1)) return back;
  // The slicing plane ends the ray where it crosses it, and is drawn there, opaque.
  vec4 slice = vec4(0.0);
  bool slice_drawn = false;
  if (u_slice_axis >= 0 && d[u_slice_axis] != 0.0) {
    float ts = (u_slice_at - u_eye[u_slice_axis]) / d[u_slice_axis];
    if (ts >= t0 && ts <= t1) {
      t1 = ts;
      vec3 p = u_eye + ts * d;
      p[u_slice_axis] = u_slice_at;
      vec4 c = colour_of(voxel_at(p));
      slice = vec4(c.rgb, u_transparent != 0 ? c.a : 1.0);
      slice_drawn = true;
    }
  }
  vec4 fog = vec4(0.0);
  bool surface;
  vec4 acc = march(u_eye, d, t0, t1, fog, surface);
  // What lies behind the mode's picture: the slice, else the background.
  vec4 under = slice_drawn ? slice : back;
  vec4 behind = vec4(under.rgb * under.a, under.a);
  vec4 picture = acc.a >= 1.0 ? acc : acc + (1.0 - acc.a) * behind;
  vec4 total = fog + (1.0 - fog.a) * picture;
  vec4 colour = total.a > 0.0 ? vec4(total.rgb / total.a, total.a) : vec4(0.0);
  if (u_transparent == 0) colour.a = 1.0;
  return colour;
}
