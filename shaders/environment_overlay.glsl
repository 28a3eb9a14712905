// The environment overlays (docs/MODEL.md, "Environment"): walls in a solid colour, food as a tint.
// Mirrors render/src/environment_overlay.cpp (the tests compare them). Kept apart from the field's
// colouring: field_colour.glsl calls environment_overlay() once, on the colour it has made.
layout(binding = 6) uniform sampler2D u_env_food;    // R32F: the food map E (bound when shown)
layout(binding = 7) uniform usampler2D u_env_walls;  // R8UI: 1 = wall (bound when shown)

uniform int u_env_show_walls;      // 1: the run has walls and display.show_walls
uniform int u_env_show_food;       // 1: the run has food and display.show_food
uniform vec3 u_env_walls_colour;
uniform vec3 u_env_food_colour;
uniform float u_env_food_tint;     // the tint's weight at E >= 1 (render::kFoodTint)

// `colour`: straight alpha, as field_colour.glsl makes it. A wall is opaque; food raises the alpha to at
// least its tint's weight, so a transparent still shows the food on nothing. `cell` is the field cell
// shown; with `smooth_scale` > 0 (framebuffer pixels per cell, where the field is sampled
// bicubically) the maps are sampled bicubically at `at` (field cell units) like the field (the walls with a
// smoothing B-spline), and a wall's edge is antialiased over about one pixel instead of following the cells' squares.
vec4 environment_overlay(vec4 colour, ivec2 cell, vec2 at, float smooth_scale) {
  bool smooth_maps = smooth_scale > 0.0;
  if (u_env_show_walls != 0 && !smooth_maps && texelFetch(u_env_walls, cell, 0).r != 0u) {
    return vec4(u_env_walls_colour, 1.0);
  }
  if (u_env_show_food != 0) {
    float e = smooth_maps ? bicubic_field(u_env_food, at).r : texelFetch(u_env_food, cell, 0).r;
    if (e > 0.0) {
      float w = u_env_food_tint * min(e, 1.0);
      colour = vec4(colour.rgb * (1.0 - w) + u_env_food_colour * w, max(colour.a, w));
    }
  }
  if (u_env_show_walls != 0 && smooth_maps) {
    // Across a straight edge the B-spline mask rises 2/3 per cell at 0.5, so one pixel is
    // 2 / (3 * smooth_scale) of it: the edge is antialiased over about a pixel.
    float cover = clamp((bicubic_mask(u_env_walls, at, 1) - 0.5) * 1.5 * smooth_scale + 0.5, 0.0, 1.0);
    colour = mix(colour, vec4(u_env_walls_colour, 1.0), cover);
  }
  return colour;
}
