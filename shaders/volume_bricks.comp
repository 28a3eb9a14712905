#version 450 core
// Empty-space skipping for volume.frag: each brick of 8^3 voxels gets the largest value of each
// channel over its voxels and the voxel around them that trilinear sampling inside it reads. A
// brick with food or walls shown gets an infinite maximum (their fog is sampled along the ray).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(binding = 0) uniform sampler3D u_vol[4];  // R32F, one a species
layout(binding = 5) uniform sampler3D u_food;
layout(binding = 6) uniform sampler3D u_walls;
layout(rgba32f, binding = 0) uniform writeonly image3D u_bricks;
uniform int u_channels;
uniform int u_show_food, u_show_walls;

const int kBrick = 8;

void main() {
  ivec3 b = ivec3(gl_GlobalInvocationID);
  if (any(greaterThanEqual(b, imageSize(u_bricks)))) return;
  ivec3 size = textureSize(u_vol[0], 0);
  ivec3 lo = max(b * kBrick - 1, ivec3(0));
  ivec3 hi = min(b * kBrick + kBrick, size - 1);
  vec4 m = vec4(-3.4e38);
  bool env = false;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        ivec3 c = ivec3(x, y, z);
        for (int ch = 0; ch < min(u_channels, 4); ++ch) m[ch] = max(m[ch], texelFetch(u_vol[ch], c, 0).r);
        if (u_show_food != 0) env = env || texelFetch(u_food, c, 0).r > 0.0;
        if (u_show_walls != 0) env = env || texelFetch(u_walls, c, 0).r > 0.0;
      }
  imageStore(u_bricks, b, env ? vec4(3.4e38) : m);
}
