#include "render/gpu_range.hpp"

#include <glad/gl.h>

#include <algorithm>

#include "render/shader_program.hpp"

namespace physarum::render {

GpuRange::GpuRange()
    : finish_prog_(build_program({{GL_COMPUTE_SHADER, "range_finish.comp"}})),
      range_buf_(make_buffer(sizeof(DisplayRange), nullptr, GL_DYNAMIC_DRAW)),
      partial_sums_(make_buffer(sizeof(float) * 4 * kMaxGroups * kMaxGroups, nullptr, GL_DYNAMIC_COPY)) {}

void GpuRange::upload(const DisplayRange& r) {
  glNamedBufferSubData(range_buf_.get(), 0, sizeof(DisplayRange), &r);
}

void GpuRange::bind() const {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, range_buf_.get());
}

void GpuRange::reduce(const Program& pass, int width, int height, int channels, size_t cells,
                      const DisplayParams& d, CaveMode cave) {
  DisplayRange keys;  // the reduction's starting keys: min from the top, max from the bottom
  keys.min_key = 0xffffffffu;
  keys.max_key = 0u;
  keys.channel_min_key.fill(0xffffffffu);
  keys.channel_max_key.fill(0u);
  upload(keys);
  bind();
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, partial_sums_.get());
  set_uniform(pass, "u_channels", channels);
  set_uniform(pass, "u_cave_channel", drawable_cave_channel(d.cave_channel, channels));
  glUseProgram(pass.get());
  const auto groups = [](int n) { return std::clamp((n + 15) / 16, 1, kMaxGroups); };
  const int gx = groups(width), gy = groups(height);
  glDispatchCompute(static_cast<GLuint>(gx), static_cast<GLuint>(gy), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  set_uniform(finish_prog_, "u_cave_mode", static_cast<int>(cave));
  set_uniform(finish_prog_, "u_levels", d.levels);
  set_uniform(finish_prog_, "u_log", d.mapping == Mapping::Log ? 1 : 0);
  set_uniform(finish_prog_, "u_threshold", d.threshold);
  set_uniform(finish_prog_, "u_channels", channels);
  set_uniform(finish_prog_, "u_auto_range", d.auto_range ? 1 : 0);
  set_uniform(finish_prog_, "u_groups", gx * gy);
  set_uniform(finish_prog_, "u_cells", static_cast<float>(cells));
  glUseProgram(finish_prog_.get());
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT);
}

}  // namespace physarum::render
