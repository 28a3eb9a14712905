#include "render/field_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstring>

#include "render/environment_overlay.hpp"
#include "render/shader_program.hpp"

namespace physarum::render {

namespace {

Texture make_nearest_texture(Size s, GLenum format) {
  Texture t = make_texture_2d(s.width, s.height, format);
  glTextureParameteri(t.get(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(t.get(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(t.get(), GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTextureParameteri(t.get(), GL_TEXTURE_WRAP_T, GL_REPEAT);
  return t;
}

// Bytes of the field texture's pixels: one float per cell, or four (RGBA) for several species.
long long texture_bytes(Size s, bool rgba) {
  return static_cast<long long>(s.width) * s.height * static_cast<long long>(sizeof(float)) * (rgba ? 4 : 1);
}

}  // namespace

FieldRenderer::FieldRenderer()
    : minmax_prog_(build_program({{GL_COMPUTE_SHADER, "range_minmax.comp"}})),
      cave_prog_(build_program({{GL_COMPUTE_SHADER, "cave_binary.comp"}})),
      colour_prog_(build_program({{GL_COMPUTE_SHADER, "field_colour.comp"}})) {
  check_gl("creating the field renderer");
}

FieldRenderer::~FieldRenderer() {
  interop_.reset();  // unregister before the texture is deleted
}

void FieldRenderer::set_palette(const Palette& p) {
  lut_.set(p);
}

void FieldRenderer::allocate(Size size, const ChannelColours& colours) {
  const bool same_layout = (colours.count > 1) == (colours_.count > 1);
  colours_ = colours;  // the colours may change at any time; the layout only with the count
  if (size == size_ && field_tex_ && same_layout) return;
  interop_.reset();  // unregister before the texture it names goes away
  const bool rgba = colours.count > 1;
  field_tex_ = make_nearest_texture(size, rgba ? GL_RGBA32F : GL_R32F);
  cave_tex_[0] = make_nearest_texture(size, GL_R8UI);
  cave_tex_[1] = make_nearest_texture(size, GL_R8UI);
  pbo_ = make_buffer(texture_bytes(size, rgba), nullptr, GL_STREAM_DRAW);
  size_ = size;
  host_current_ = false;
  host_range_.valid = false;
}

void FieldRenderer::upload_host_field(const float* data, Size size, const ChannelColours& colours) {
  allocate(size, colours);
  const bool rgba = colours_.count > 1;
  const long long bytes = texture_bytes(size, rgba);
  const size_t cells = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  const size_t channels = static_cast<size_t>(colours_.count);
  const float* texels = data;
  if (rgba) {
    // Planar (S, H, W) to the texture's RGBA texels, unused channels 0.
    interleaved_.assign(cells * 4, 0.0f);
    for (size_t c = 0; c < channels; ++c) {
      const float* plane = data + c * cells;
      for (size_t i = 0; i < cells; ++i) interleaved_[i * 4 + c] = plane[i];
    }
    texels = interleaved_.data();
  }
  // Orphan, fill, then let the texture copy from the buffer: the driver need not wait for last
  // frame's upload to finish before we write the next one.
  glNamedBufferData(pbo_.get(), bytes, nullptr, GL_STREAM_DRAW);
  glNamedBufferSubData(pbo_.get(), 0, bytes, texels);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_.get());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTextureSubImage2D(field_tex_.get(), 0, 0, 0, size.width, size.height, rgba ? GL_RGBA : GL_RED, GL_FLOAT,
                      nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  if (data != host_.data()) host_.assign(data, data + cells * channels);
  host_current_ = true;
}

void FieldRenderer::set_environment_maps(const std::vector<float>& food, const std::vector<uint8_t>& walls,
                                         Size size) {
  const size_t cells = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  const bool any_food =
      food.size() == cells && std::any_of(food.begin(), food.end(), [](float e) { return e > 0; });
  const bool any_wall =
      walls.size() == cells && std::any_of(walls.begin(), walls.end(), [](uint8_t w) { return w != 0; });
  const bool same_size = env_size_ == size;
  env_size_ = size;
  if (!any_food) {
    food_tex_ = Texture{};
  } else {
    if (!food_tex_ || !same_size) food_tex_ = make_nearest_texture(size, GL_R32F);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTextureSubImage2D(food_tex_.get(), 0, 0, 0, size.width, size.height, GL_RED, GL_FLOAT, food.data());
  }
  if (!any_wall) {
    walls_tex_ = Texture{};
  } else {
    if (!walls_tex_ || !same_size) walls_tex_ = make_nearest_texture(size, GL_R8UI);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(walls_tex_.get(), 0, 0, 0, size.width, size.height, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                        walls.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  }
  check_gl("uploading the environment maps");
}

void FieldRenderer::update_environment(const Backend& backend) {
  if (backend.environment_version() == env_version_ && backend.size() == env_size_) return;
  backend.read_food(env_food_);
  backend.read_walls(env_walls_);
  set_environment_maps(env_food_, env_walls_, backend.size());
  env_version_ = backend.environment_version();
}

void FieldRenderer::set_environment_uniforms(const Program& p, const DisplayParams& d) {
  const bool walls = d.show_walls && walls_tex_ && env_size_ == size_;
  const bool food = d.show_food && food_tex_ && env_size_ == size_;
  set_uniform(p, "u_env_show_walls", walls ? 1 : 0);
  set_uniform(p, "u_env_show_food", food ? 1 : 0);
  if (walls) glBindTextureUnit(7, walls_tex_.get());
  if (food) glBindTextureUnit(6, food_tex_.get());
  float c[3];
  colour_components(d.walls_colour, c);
  set_uniform(p, "u_env_walls_colour", c[0], c[1], c[2]);
  colour_components(d.food_colour, c);
  set_uniform(p, "u_env_food_colour", c[0], c[1], c[2]);
  set_uniform(p, "u_env_food_tint", kFoodTint);
}

void FieldRenderer::update_field(Backend& backend, bool need_host_copy) {
  allocate(backend.size(), channel_colours(backend.species()));
  update_environment(backend);
  host_current_ = false;
  if (backend.can_publish() && !interop_ && !interop_failed_) {
    try {
      interop_ = std::make_unique<CudaGlTexture>(field_tex_.get());
      interop_status_ = "CUDA-GL interop (the field never leaves the GPU)";
    } catch (const Error& e) {
      interop_failed_ = true;
      interop_status_ = std::string("copy through the host: ") + e.what();
    }
  } else if (!backend.can_publish()) {
    interop_status_ = "pixel-buffer upload (" + backend.name() + " backend)";
  }
  if (interop_) {
    try {
      interop_->publish(backend);
    } catch (const Error& e) {
      interop_.reset();
      interop_failed_ = true;
      interop_status_ = std::string("copy through the host: publishing failed: ") + e.what();
    }
  }
  if (!interop_ || need_host_copy) {
    backend.read_field(host_);
    if (!interop_) {
      upload_host_field(host_.data(), backend.size(), colours_);
    } else {
      host_current_ = true;
    }
  }
}

void FieldRenderer::compute_range(const DisplayParams& d) {
  const size_t cells = static_cast<size_t>(size_.width) * static_cast<size_t>(size_.height);
  const int channels = colours_.count;
  if (host_current_) {
    host_range_.keep(compute_channels_range(host_.data(), channels, cells, d), d);
    range_.upload(host_range_.range);
    return;
  }
  if (!d.auto_range && d.cave != CaveMode::Quantile) {
    range_.upload(compute_channels_range(nullptr, channels, 0, d));
    return;
  }
  if (d.cave == CaveMode::Quantile) {
    // Quantiles need the whole field on the host; between host copies the last ones serve.
    range_.upload(host_range_.valid ? host_range_.range : compute_channels_range(nullptr, channels, 0, d));
    return;
  }
  glBindTextureUnit(0, field_tex_.get());
  range_.reduce(minmax_prog_, size_.width, size_.height, channels, cells, d, d.cave);
}

bool FieldRenderer::has_host_range_for(const DisplayParams& d) const {
  return host_range_.serves(drawable_display(d));
}

void FieldRenderer::build_binary_cave(int passes, int cave_channel) {
  passes = std::clamp(passes, 0, kMaxSmoothing);  // one dispatch per pass
  glBindTextureUnit(0, field_tex_.get());
  glUseProgram(cave_prog_.get());
  const GLuint gx = static_cast<GLuint>((size_.width + 15) / 16);
  const GLuint gy = static_cast<GLuint>((size_.height + 15) / 16);
  set_uniform(cave_prog_, "u_channels", colours_.count);
  set_uniform(cave_prog_, "u_cave_channel", drawable_cave_channel(cave_channel, colours_.count));
  set_uniform(cave_prog_, "u_classify", 1);
  glBindImageTexture(0, cave_tex_[0].get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R8UI);
  glDispatchCompute(gx, gy, 1);
  int cur = 0;
  set_uniform(cave_prog_, "u_classify", 0);
  for (int pass = 0; pass < passes; ++pass) {
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    glBindTextureUnit(3, cave_tex_[cur].get());
    glBindImageTexture(0, cave_tex_[1 - cur].get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R8UI);
    glDispatchCompute(gx, gy, 1);
    cur = 1 - cur;
  }
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  cave_result_ = cur;
}

void FieldRenderer::draw(const DisplayParams& d, const View& view, const Area& area, int fb_w, int fb_h) {
  timer_.begin();
  draw_field(d, view, area, fb_w, fb_h, true);
  timer_.end();
}

void FieldRenderer::draw_again(const DisplayParams& d, const View& view, int fb_w, int fb_h) {
  draw_field(d, view, Area::whole(fb_w, fb_h), fb_w, fb_h, false);
}

void FieldRenderer::draw_field(const DisplayParams& given, const View& view, const Area& area, int fb_w,
                               int fb_h, bool new_range) {
  // Whatever the caller holds (a value typed into the panel), the shaders get what they can use.
  const DisplayParams d = drawable_display(given);
  glViewport(0, 0, fb_w, fb_h);
  if (!field_tex_) {
    glClearColor(kBackground[0], kBackground[1], kBackground[2],
                 d.background == Background::Transparent ? 0.0f : 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
  } else {
    if (new_range) {
      range_.bind();
      compute_range(d);
      if (d.cave == CaveMode::Binary) build_binary_cave(d.smoothing, d.cave_channel);
    }
    range_.bind();
    glBindTextureUnit(0, field_tex_.get());
    glBindTextureUnit(1, lut_.get());
    glBindTextureUnit(2, cave_tex_[cave_result_].get());
    const float outside[4] = {kBackground[0], kBackground[1], kBackground[2],
                              d.background == Background::Transparent ? 0.0f : 1.0f};
    // The copy to the window's framebuffer obeys the scissor box; a direct write would not.
    const bool clipped = clip_to_area(area, fb_w, fb_h, outside);
    const DirectTarget direct = ComputePass::target(clipped, fb_w, fb_h);
    if (direct.format == GL_RGBA32F && !float_colour_prog_) {
      float_colour_prog_ = build_program({{GL_COMPUTE_SHADER, "field_colour_float.comp"}});
    }
    const Program& p = direct.format == GL_RGBA32F ? float_colour_prog_ : colour_prog_;
    set_uniform(p, "u_fb_size", static_cast<float>(fb_w), static_cast<float>(fb_h));
    float cx = 0, cy = 0;
    view.framebuffer_center_cell(area, fb_w, fb_h, size_, cx, cy);
    set_uniform(p, "u_center", cx, cy);
    set_uniform(p, "u_scale", view.scale(area, size_));
    const int mode = d.cave == CaveMode::Off ? 0 : d.cave == CaveMode::Binary ? 2 : 1;
    set_uniform(p, "u_mode", mode);
    set_uniform(p, "u_log", d.mapping == Mapping::Log ? 1 : 0);
    set_uniform(p, "u_exposure", d.exposure);
    set_uniform(p, "u_inv_gamma", 1.0f / d.gamma);
    set_uniform(p, "u_invert", d.invert ? 1 : 0);
    set_uniform(p, "u_background", kBackground[0], kBackground[1], kBackground[2]);
    set_uniform(p, "u_channels", colours_.count);
    set_uniform(p, "u_bicubic", bicubic_ ? 1 : 0);
    set_uniform(p, "u_transparent", d.background == Background::Transparent ? 1 : 0);
    set_uniform(p, "u_cave_channel", drawable_cave_channel(d.cave_channel, colours_.count));
    set_uniform(p, "u_blend", d.blend == Blend::Ink ? 1 : 0);
    for (int c = 0; c < kMaxSpecies; ++c) {
      const std::string name = "u_colours[" + std::to_string(c) + "]";
      const auto& rgb = colours_.rgb[static_cast<size_t>(c)];
      set_uniform(p, name.c_str(), rgb[0], rgb[1], rgb[2]);
    }
    set_environment_uniforms(p, d);
    glUseProgram(p.get());
    colour_pass_.run(fb_w, fb_h, direct);
    glUseProgram(0);
    glDisable(GL_SCISSOR_TEST);
  }
}

namespace {
template <typename T>
std::vector<T> read_framebuffer(int w, int h, GLenum type) {
  std::vector<T> pixels(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, type, pixels.data());
  check_gl("reading the framebuffer");
  // GL's rows run bottom to top; images run top to bottom.
  const size_t row = static_cast<size_t>(w) * 4;
  std::vector<T> flipped(pixels.size());
  for (int y = 0; y < h; ++y) {
    std::memcpy(flipped.data() + static_cast<size_t>(y) * row,
                pixels.data() + static_cast<size_t>(h - 1 - y) * row, row * sizeof(T));
  }
  return flipped;
}
}  // namespace

std::vector<uint8_t> read_framebuffer_rgba(int w, int h) {
  return read_framebuffer<uint8_t>(w, h, GL_UNSIGNED_BYTE);
}

std::vector<float> read_framebuffer_rgba_float(int w, int h) {
  return read_framebuffer<float>(w, h, GL_FLOAT);
}

}  // namespace physarum::render
