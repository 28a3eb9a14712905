#include "render/difference.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include "render/shader_program.hpp"

namespace physarum::render {

std::array<uint8_t, 4> difference_rgba(float d, float inv_range, bool absolute) {
  float t = d * inv_range;
  if (absolute) t = std::fabs(t);
  if (std::isnan(t)) t = 0.0f;
  t = std::clamp(t, -1.0f, 1.0f);
  const auto& end = t < 0.0f ? kDifferenceNegative : kDifferencePositive;
  const float w = std::fabs(t);
  std::array<uint8_t, 4> out{0, 0, 0, 255};
  for (size_t c = 0; c < 3; ++c) {
    const float v = kDifferenceZero[c] * (1.0f - w) + end[c] * w;
    out[c] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
  }
  return out;
}

std::vector<float> difference_plane(const std::vector<float>& a, const std::vector<float>& b, size_t cells,
                                    float& max_abs) {
  std::vector<float> d(cells, 0.0f);
  max_abs = 0.0f;
  if (cells == 0 || a.size() != b.size() || a.size() % cells != 0) return d;
  for (size_t c = 0; c < a.size(); c += cells) {
    for (size_t i = 0; i < cells; ++i) d[i] += a[c + i] - b[c + i];
  }
  for (const float v : d) max_abs = std::max(max_abs, std::fabs(v));
  return d;
}

DifferenceRenderer::DifferenceRenderer()
    : prog_(build_program({{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, "difference.frag"}})),
      vao_(make_vertex_array()) {
  check_gl("creating the difference renderer");
}

void DifferenceRenderer::upload(const float* difference, Size size) {
  if (!(size == size_) || !tex_) {
    tex_ = make_texture_2d(size.width, size.height, GL_R32F);
    glTextureParameteri(tex_.get(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(tex_.get(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    size_ = size;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTextureSubImage2D(tex_.get(), 0, 0, 0, size.width, size.height, GL_RED, GL_FLOAT, difference);
}

void DifferenceRenderer::draw(const View& view, float inv_range, bool absolute, const Area& area, int fb_w,
                              int fb_h) {
  glViewport(0, 0, fb_w, fb_h);
  if (!tex_) {
    glClearColor(kDifferenceZero[0], kDifferenceZero[1], kDifferenceZero[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  const Program& p = prog_;
  glBindTextureUnit(0, tex_.get());
  set_uniform(p, "u_fb_size", static_cast<float>(fb_w), static_cast<float>(fb_h));
  float cx = 0, cy = 0;
  view.framebuffer_center_cell(area, fb_w, fb_h, size_, cx, cy);
  set_uniform(p, "u_center", cx, cy);
  set_uniform(p, "u_scale", view.scale(area, size_));
  set_uniform(p, "u_inv_range", std::isfinite(inv_range) ? inv_range : 0.0f);
  set_uniform(p, "u_absolute", absolute ? 1 : 0);
  set_uniform(p, "u_negative", kDifferenceNegative[0], kDifferenceNegative[1], kDifferenceNegative[2]);
  set_uniform(p, "u_zero", kDifferenceZero[0], kDifferenceZero[1], kDifferenceZero[2]);
  set_uniform(p, "u_positive", kDifferencePositive[0], kDifferencePositive[1], kDifferencePositive[2]);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  const float outside[4] = {0.07f, 0.07f, 0.08f, 1.0f};  // as the shader draws beyond the field
  (void)clip_to_area(area, fb_w, fb_h, outside);
  glUseProgram(p.get());
  glBindVertexArray(vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace physarum::render
