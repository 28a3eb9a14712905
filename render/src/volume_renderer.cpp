#include "render/volume_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include "render/cuda_interop.hpp"
#include "render/environment_overlay.hpp"
#include "render/field_renderer.hpp"
#include "render/shader_program.hpp"
#include "sim/volume.hpp"

namespace physarum::render {

namespace {

constexpr const float (&kBackground)[3] = FieldRenderer::kBackground;

size_t voxels_of(Size s) {
  return static_cast<size_t>(s.width) * static_cast<size_t>(s.height) * static_cast<size_t>(s.depth);
}

constexpr int kBrick = 8;  // volume_bricks.comp's
int bricks_of(int voxels) {
  return (voxels + kBrick - 1) / kBrick;
}

// The step along a ray, in voxels: one, or coarser for a volume with more voxels on a side than the
// picture has pixels across (detail the picture cannot show costs samples all the same). Finer than
// a voxel would cost twice the samples for what trilinear sampling barely adds.
float march_step(Size s, const Area& area) {
  const float side = static_cast<float>(std::max({s.width, s.height, s.depth}));
  const float pixels = std::max(area.w, area.h);
  return std::clamp(side / std::max(pixels, 1.0f), 1.0f, 4.0f);
}

// drawable_display() and the volume's own keys: each float finite and inside the range its registry
// entry allows (the panel may hand anything), else the default; unknown choices the default.
DisplayParams drawable_volume_display(const DisplayParams& given) {
  static const DisplayParams kDefaults;
  DisplayParams d = drawable_display(given);
  const auto fix = [](float& v, float lo, float hi, float fallback) {
    v = std::isfinite(v) ? std::clamp(v, lo, hi) : fallback;
  };
  fix(d.volume_density, 0.0f, 1000.0f, kDefaults.volume_density);
  fix(d.volume_opacity, 0.05f, 20.0f, kDefaults.volume_opacity);
  fix(d.iso_level, 0.0f, 1.0f, kDefaults.iso_level);
  fix(d.slice_at, 0.0f, 1.0f, kDefaults.slice_at);
  fix(d.camera_yaw_deg, -1e6f, 1e6f, kDefaults.camera_yaw_deg);
  fix(d.camera_pitch_deg, -89.0f, 89.0f, kDefaults.camera_pitch_deg);
  fix(d.camera_distance, 0.01f, 100.0f, kDefaults.camera_distance);
  fix(d.camera_fov_deg, 1.0f, 150.0f, kDefaults.camera_fov_deg);
  for (float* t : {&d.camera_target_x, &d.camera_target_y, &d.camera_target_z}) fix(*t, -10.0f, 10.0f, 0.5f);
  for (float* c : {&d.clip_x0, &d.clip_y0, &d.clip_z0}) fix(*c, 0.0f, 1.0f, 0.0f);
  for (float* c : {&d.clip_x1, &d.clip_y1, &d.clip_z1}) fix(*c, 0.0f, 1.0f, 1.0f);
  if (d.volume_mode != VolumeMode::Emission && d.volume_mode != VolumeMode::Mip &&
      d.volume_mode != VolumeMode::Iso)
    d.volume_mode = kDefaults.volume_mode;
  if (d.slice_axis != SliceAxis::Off && d.slice_axis != SliceAxis::X && d.slice_axis != SliceAxis::Y &&
      d.slice_axis != SliceAxis::Z)
    d.slice_axis = SliceAxis::Off;
  return d;
}

}  // namespace

int slice_index(float at, int side) {
  const float f =
      std::isfinite(at) ? std::floor(std::clamp(at, 0.0f, 1.0f) * static_cast<float>(side)) : 0.0f;
  return std::clamp(static_cast<int>(f), 0, std::max(side - 1, 0));
}

std::vector<float> extract_slice(const std::vector<float>& volume, Size size, int channels, SliceAxis axis,
                                 float at, Size& plane) {
  const size_t w = static_cast<size_t>(size.width), h = static_cast<size_t>(size.height);
  const size_t dep = static_cast<size_t>(size.depth);
  if (volume.size() != w * h * dep * static_cast<size_t>(channels) || axis == SliceAxis::Off) {
    throw Error("a slice needs an axis and a whole volume (" + format_size(size) + ", " +
                std::to_string(channels) + " channels)");
  }
  const size_t cols = axis == SliceAxis::X ? h : w;
  const size_t rows = axis == SliceAxis::Z ? h : dep;
  const int side = axis == SliceAxis::X ? size.width : axis == SliceAxis::Y ? size.height : size.depth;
  const size_t k = static_cast<size_t>(slice_index(at, side));
  plane = Size{static_cast<int>(cols), static_cast<int>(rows)};
  std::vector<float> out(cols * rows * static_cast<size_t>(channels));
  size_t o = 0;
  for (size_t c = 0; c < static_cast<size_t>(channels); ++c) {
    const float* v = volume.data() + c * w * h * dep;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t q = 0; q < cols; ++q) {
        const size_t x = axis == SliceAxis::X ? k : q;
        const size_t y = axis == SliceAxis::Y ? k : axis == SliceAxis::X ? q : r;
        const size_t z = axis == SliceAxis::Z ? k : r;
        out[o++] = v[(z * h + y) * w + x];
      }
    }
  }
  return out;
}

VolumeRenderer::VolumeRenderer()
    : march_prog_(build_program({{GL_COMPUTE_SHADER, "volume_march.comp"}})),
      range_prog_(build_program({{GL_COMPUTE_SHADER, "volume_range.comp"}})),
      bricks_prog_(build_program({{GL_COMPUTE_SHADER, "volume_bricks.comp"}})) {
  check_gl("creating the volume renderer");
}

VolumeRenderer::~VolumeRenderer() {
  interop_.clear();  // unregister before the textures are deleted
}

void VolumeRenderer::set_palette(const Palette& p) {
  lut_.set(p);
}

void VolumeRenderer::allocate(Size size, const ChannelColours& colours) {
  const bool same = size == size_ && colours.count == colours_.count && field_tex_[0];
  colours_ = colours;
  if (same) return;
  interop_.clear();
  interop_ready_ = false;
  for (auto& t : field_tex_) t = Texture{};
  for (int c = 0; c < colours.count; ++c) {
    field_tex_[c] = make_texture_3d(size.width, size.height, size.depth, GL_R32F);
  }
  bricks_tex_ =
      make_texture_3d(bricks_of(size.width), bricks_of(size.height), bricks_of(size.depth), GL_RGBA32F);
  glTextureParameteri(bricks_tex_.get(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(bricks_tex_.get(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  size_ = size;
  host_current_ = false;
  host_range_.valid = false;
}

void VolumeRenderer::upload_host_volume(const float* data, Size size, const ChannelColours& colours) {
  if (size.depth < 1 || colours.count < 1 || colours.count > kMaxSpecies) {
    throw Error("a volume to draw needs a depth and 1 to 4 channels (got " + format_size(size) + ", " +
                std::to_string(colours.count) + " channels)");
  }
  allocate(size, colours);
  const size_t n = voxels_of(size);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (int c = 0; c < colours.count; ++c) {
    glTextureSubImage3D(field_tex_[c].get(), 0, 0, 0, 0, size.width, size.height, size.depth, GL_RED,
                        GL_FLOAT, data + static_cast<size_t>(c) * n);
  }
  if (data != host_.data()) host_.assign(data, data + n * static_cast<size_t>(colours.count));
  host_current_ = true;
  bricks_stale_ = true;
  check_gl("uploading a volume");
}

std::vector<float> VolumeRenderer::read_texture(int c) const {
  if (c < 0 || c >= colours_.count || !field_tex_[c])
    throw Error("no channel " + std::to_string(c) + " to read");
  std::vector<float> out(voxels_of(size_));
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTextureImage(field_tex_[c].get(), 0, GL_RED, GL_FLOAT,
                    static_cast<GLsizei>(out.size() * sizeof(float)), out.data());
  check_gl("reading a volume's texture");
  return out;
}

void VolumeRenderer::set_environment(const std::vector<VoxelFood>& food, const std::vector<uint8_t>& walls,
                                     Size size) {
  upload_food(food, size);
  upload_walls(walls, size);
}

void VolumeRenderer::upload_food(const std::vector<VoxelFood>& food, Size size) {
  const size_t n = voxels_of(size);
  bricks_stale_ = true;
  food_tex_ = Texture{};
  food_size_ = size;
  if (food.empty()) return;
  std::vector<float> e(n, 0.0f);
  for (const VoxelFood& f : food) {
    if (f.voxel < n) e[f.voxel] = f.weight;
  }
  food_tex_ = make_texture_3d(size.width, size.height, size.depth, GL_R32F);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTextureSubImage3D(food_tex_.get(), 0, 0, 0, 0, size.width, size.height, size.depth, GL_RED, GL_FLOAT,
                      e.data());
  check_gl("uploading a volume's food");
}

void VolumeRenderer::upload_walls(const std::vector<uint8_t>& walls, Size size) {
  const size_t n = voxels_of(size);
  bricks_stale_ = true;
  walls_tex_ = Texture{};
  walls_size_ = size;
  if (walls.size() != n || std::none_of(walls.begin(), walls.end(), [](uint8_t w) { return w != 0; })) return;
  std::vector<uint8_t> w(n);
  std::transform(walls.begin(), walls.end(), w.begin(), [](uint8_t v) { return v != 0 ? 255 : 0; });
  walls_tex_ = make_texture_3d(size.width, size.height, size.depth, GL_R8);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage3D(walls_tex_.get(), 0, 0, 0, 0, size.width, size.height, size.depth, GL_RED,
                      GL_UNSIGNED_BYTE, w.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  check_gl("uploading a volume's walls");
}

bool VolumeRenderer::publish_through_interop(Volume& v) {
  if (v.kind() != BackendKind::Cuda || interop_failed_) return false;
  const FieldStorage fs = v.field_storage();
  if (fs.data == nullptr || !fs.on_cuda_device || fs.cell_stride != 1) return false;
  try {
    if (interop_.empty()) {
      for (int c = 0; c < colours_.count; ++c)
        interop_.push_back(std::make_unique<CudaGlVolume>(field_tex_[c].get()));
    }
    const size_t n = voxels_of(size_);
    for (int c = 0; c < colours_.count; ++c) {
      interop_[static_cast<size_t>(c)]->copy_from_device(fs.data + static_cast<size_t>(c) * n, size_.width,
                                                         size_.height, size_.depth);
    }
    interop_ready_ = true;
    bricks_stale_ = true;
    interop_status_ = "CUDA-GL interop (the volume never leaves the GPU)";
    return true;
  } catch (const Error& e) {
    interop_.clear();
    interop_ready_ = false;
    interop_failed_ = true;
    interop_status_ = std::string("copy through the host: ") + e.what();
    return false;
  }
}

void VolumeRenderer::update_volume(Volume& v, const DisplayParams& d, const ChannelColours& given,
                                   bool host) {
  ChannelColours colours = given;
  if (colours.count != v.species_count()) {
    colours.count = v.species_count();
    for (auto& rgb : colours.rgb) rgb = {1.0f, 1.0f, 1.0f};
  }
  allocate(v.size(), colours);
  if (walls_of_ != &v || walls_data_ != v.walls().data()) {
    upload_walls(v.walls(), v.size());
    walls_of_ = &v;
    walls_data_ = v.walls().data();
  }
  const bool trace = d.volume_source == VolumeSource::Trace && v.has_trace();
  if (!trace && !host && publish_through_interop(v)) {
    host_current_ = false;
    return;
  }
  if (trace) {
    v.read_trace(host_);
  } else {
    v.read_field(host_);
  }
  if (v.kind() != BackendKind::Cuda) interop_status_ = "upload from the host (" + v.name() + ")";
  upload_host_volume(host_.data(), v.size(), colours_);
}

void VolumeRenderer::compute_range(const DisplayParams& d) {
  const int channels = colours_.count;
  if (host_current_) {
    host_range_.keep(compute_channels_range(host_.data(), channels, voxels_of(size_), d), d);
    gpu_range_.upload(host_range_.range);
    return;
  }
  if (d.cave == CaveMode::Quantile && host_range_.serves(d)) {  // the last host copy's levels
    gpu_range_.upload(host_range_.range);
    return;
  }
  if (!d.auto_range && d.cave != CaveMode::Quantile) {
    gpu_range_.upload(compute_channels_range(nullptr, channels, 0, d));
    return;
  }
  for (int c = 0; c < channels; ++c) glBindTextureUnit(static_cast<GLuint>(c), field_tex_[c].get());
  // Quantiles need the volume on the host (update_volume's `host`); until a copy, even levels.
  const CaveMode cave = d.cave == CaveMode::Quantile ? CaveMode::Even : d.cave;
  gpu_range_.reduce(range_prog_, size_.width, size_.height, channels, voxels_of(size_), d, cave);
}

bool VolumeRenderer::has_host_range_for(const DisplayParams& d) const {
  return host_range_.serves(drawable_volume_display(d));
}

VolumeRenderer::Shown VolumeRenderer::shown_environment(const DisplayParams& d) const {
  return {d.show_walls && walls_tex_ && walls_size_ == size_,
          d.show_food && food_tex_ && food_size_ == size_};
}

void VolumeRenderer::set_environment_uniforms(const Program& p, const DisplayParams& d) {
  const auto [walls, food] = shown_environment(d);
  set_uniform(p, "u_show_walls", walls ? 1 : 0);
  set_uniform(p, "u_show_food", food ? 1 : 0);
  if (walls) glBindTextureUnit(6, walls_tex_.get());
  if (food) glBindTextureUnit(5, food_tex_.get());
  float c[3];
  colour_components(d.walls_colour, c);
  set_uniform(p, "u_walls_colour", c[0], c[1], c[2]);
  colour_components(d.food_colour, c);
  set_uniform(p, "u_food_colour", c[0], c[1], c[2]);
}

void VolumeRenderer::set_uniforms(const Program& p, const DisplayParams& d, const Area& area, int fb_w,
                                  int fb_h) {
  const OrbitCamera cam(d, size_);
  const auto vec = [&](const char* name, Vec3 v) { set_uniform(p, name, v.x, v.y, v.z); };
  set_uniform(p, "u_fb_size", static_cast<float>(fb_w), static_cast<float>(fb_h));
  glProgramUniform4f(p.get(), glGetUniformLocation(p.get(), "u_area"), area.x, area.y, area.w, area.h);
  vec("u_eye", cam.eye());
  vec("u_forward", cam.forward());
  vec("u_right", cam.right());
  vec("u_up", cam.up());
  set_uniform(p, "u_tan_half_fov", cam.tan_half_fov());
  vec("u_size",
      {static_cast<float>(size_.width), static_cast<float>(size_.height), static_cast<float>(size_.depth)});
  Vec3 lo, hi;
  clip_box(d, size_, lo, hi);
  vec("u_box_lo", lo);
  vec("u_box_hi", hi);
  set_uniform(p, "u_mode", static_cast<int>(d.volume_mode));
  set_uniform(p, "u_channels", colours_.count);
  set_uniform(p, "u_cave_channel", drawable_cave_channel(d.cave_channel, colours_.count));
  set_uniform(p, "u_cave", d.cave == CaveMode::Off ? 0 : 1);
  set_uniform(p, "u_blend", d.blend == Blend::Ink ? 1 : 0);
  for (int c = 0; c < kMaxSpecies; ++c) {
    const std::string name = "u_colours[" + std::to_string(c) + "]";
    const auto& rgb = colours_.rgb[static_cast<size_t>(c)];
    set_uniform(p, name.c_str(), rgb[0], rgb[1], rgb[2]);
  }
  set_uniform(p, "u_log", d.mapping == Mapping::Log ? 1 : 0);
  set_uniform(p, "u_exposure", d.exposure);
  set_uniform(p, "u_inv_gamma", 1.0f / d.gamma);
  set_uniform(p, "u_invert", d.invert ? 1 : 0);
  set_uniform(p, "u_transparent", d.background == Background::Transparent ? 1 : 0);
  set_uniform(p, "u_background", kBackground[0], kBackground[1], kBackground[2]);
  set_uniform(p, "u_density", d.volume_density);
  set_uniform(p, "u_opacity_exp", d.volume_opacity);
  set_uniform(p, "u_iso", std::clamp(d.iso_level, 0.0f, 1.0f));
  set_uniform(p, "u_step", march_step(size_, area));
  const int axis = d.slice_axis == SliceAxis::Off ? -1 : static_cast<int>(d.slice_axis) - 1;
  const int side = axis == 0 ? size_.width : axis == 1 ? size_.height : size_.depth;
  // The plane through the middle of the voxels it shows, so that it samples them and not their edges.
  const float at =
      std::clamp(std::floor(d.slice_at * static_cast<float>(side)), 0.0f, static_cast<float>(side - 1)) +
      0.5f;
  set_uniform(p, "u_slice_axis", axis);
  set_uniform(p, "u_slice_at", at);
  set_uniform(p, "u_skip", skip_ ? 1 : 0);
  set_environment_uniforms(p, d);
}

void VolumeRenderer::build_bricks(const DisplayParams& d) {
  const auto [walls, food] = shown_environment(d);
  const int env = (walls ? 1 : 0) | (food ? 2 : 0);
  if (!bricks_stale_ && env == bricks_env_) return;
  for (int c = 0; c < colours_.count; ++c) glBindTextureUnit(static_cast<GLuint>(c), field_tex_[c].get());
  if (food) glBindTextureUnit(5, food_tex_.get());
  if (walls) glBindTextureUnit(6, walls_tex_.get());
  set_uniform(bricks_prog_, "u_channels", colours_.count);
  set_uniform(bricks_prog_, "u_show_food", food ? 1 : 0);
  set_uniform(bricks_prog_, "u_show_walls", walls ? 1 : 0);
  glBindImageTexture(0, bricks_tex_.get(), 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_RGBA32F);
  glUseProgram(bricks_prog_.get());
  const auto bricks = [](int voxels) { return static_cast<GLuint>(bricks_of(voxels)); };
  glDispatchCompute(bricks(size_.width), bricks(size_.height), bricks(size_.depth));  // a group a brick
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  bricks_stale_ = false;
  bricks_env_ = env;
}

void VolumeRenderer::draw(const DisplayParams& given, const Area& area, int fb_w, int fb_h) {
  const DisplayParams d = drawable_volume_display(given);
  const bool transparent = d.background == Background::Transparent;
  glViewport(0, 0, fb_w, fb_h);
  const float outside[4] = {kBackground[0], kBackground[1], kBackground[2], transparent ? 0.0f : 1.0f};
  if (!field_tex_[0]) {
    glDisable(GL_SCISSOR_TEST);
    glClearColor(outside[0], outside[1], outside[2], outside[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  range_timer_.begin();
  compute_range(d);
  range_timer_.end();
  bricks_timer_.begin();
  if (skip_) build_bricks(d);
  bricks_timer_.end();
  march_timer_.begin();
  const bool clipped = clip_to_area(area, fb_w, fb_h, outside);
  const DirectTarget direct = ComputePass::target(clipped, fb_w, fb_h);
  if (direct.format == GL_RGBA32F && !float_march_prog_) {
    float_march_prog_ = build_program({{GL_COMPUTE_SHADER, "volume_march_float.comp"}});
  }
  const Program& p = direct.format == GL_RGBA32F ? float_march_prog_ : march_prog_;
  gpu_range_.bind();
  for (int c = 0; c < colours_.count; ++c) glBindTextureUnit(static_cast<GLuint>(c), field_tex_[c].get());
  glBindTextureUnit(4, lut_.get());
  glBindTextureUnit(7, bricks_tex_.get());
  set_uniforms(p, d, area, fb_w, fb_h);
  glUseProgram(p.get());
  march_pass_.run(fb_w, fb_h, direct);
  glUseProgram(0);
  if (clipped) glDisable(GL_SCISSOR_TEST);
  march_timer_.end();
}

}  // namespace physarum::render
