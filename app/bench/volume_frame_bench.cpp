// `physarum bench --frame --size WxHxD`: the window's frame path for a volume, headless through EGL,
// timed like a plane's (frame_bench.cpp): each frame N steps, the field into the 3D texture (CUDA-GL
// interop, or a copy through the host), and the ray marcher's draw at 1920 x 1080 offscreen.
#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <new>

#include "bench/bench_device.hpp"
#include "bench/frame_bench.hpp"
#include "render/egl_context.hpp"
#include "render/offscreen.hpp"
#include "render/palette.hpp"
#include "render/volume_renderer.hpp"
#include "run/recipe.hpp"
#include "sim/elapsed.hpp"
#include "sim/json_text.hpp"
#include "sim/volume.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using run::kExitOk;
using run::kExitRuntime;

using Clock = std::chrono::steady_clock;
constexpr Size kPicture{1920, 1080};
// The window's target, 100M agents in 512^3, at any size without --agents.
constexpr double kTargetDensity = 100e6 / (512.0 * 512.0 * 512.0);

struct VolumeFrameRow {
  double frame_ms = 0, sim_ms = 0, publish_ms = 0, draw_ms = 0;
  render::VolumeRenderer::StageMs stages;
  bool interop = false;
};

VolumeFrameRow time_volume_frames(Volume& v, render::VolumeRenderer& r, const DisplayParams& d, int spf,
                                  int frames) {
  double sim = 0, publish = 0, draw = 0;
  render::VolumeRenderer::StageMs st;
  const auto one_frame = [&] {
    const auto t0 = Clock::now();
    v.step(spf);
    const auto t1 = Clock::now();
    r.update_volume(v, d);  // waits for the steps (Volume::field_storage, read_field)
    const auto t2 = Clock::now();
    r.draw(d, kPicture.width, kPicture.height);
    sim += ms_between(t0, t1);
    publish += ms_between(t1, t2);
    draw += r.draw_ms();
    const auto s = r.stage_ms();
    st.range += s.range;
    st.bricks += s.bricks;
    st.march += s.march;
  };
  // Registration, shader warm-up, the first timer results.
  for (int i = 0; i < std::min(frames, 4); ++i) one_frame();
  glFinish();
  sim = publish = draw = 0;
  st = {};
  const auto start = Clock::now();
  for (int i = 0; i < frames; ++i) one_frame();
  glFinish();
  VolumeFrameRow row;
  row.frame_ms = ms_since(start) / frames;
  row.sim_ms = sim / frames;
  row.publish_ms = publish / frames;
  row.draw_ms = draw / frames;
  row.stages = {st.range / frames, st.bricks / frames, st.march / frames};
  row.interop = r.interop_active();
  render::check_gl("timing a volume's frames");
  return row;
}

void print_volume_row(const Volume& v, int spf, int frames, const VolumeFrameRow& r, bool json) {
  const double fps = 1000.0 / r.frame_ms;
  const char* path = r.interop ? "interop" : "host copy";
  if (json) {
    const auto num = [](double x) { return json_number(x, 6); };
    const Size s = v.size();
    const std::string line =
        "{\"mode\":\"frame\",\"backend\":" + json_string(v.name()) + ",\"width\":" + std::to_string(s.width) +
        ",\"height\":" + std::to_string(s.height) + ",\"depth\":" + std::to_string(s.depth) +
        ",\"agents\":" + std::to_string(v.agent_count()) + ",\"steps_per_frame\":" + std::to_string(spf) +
        ",\"frames\":" + std::to_string(frames) + ",\"picture\":\"1920x1080\",\"fps\":" + num(fps) +
        ",\"frame_ms\":" + num(r.frame_ms) + ",\"sim_ms\":" + num(r.sim_ms) +
        ",\"publish_ms\":" + num(r.publish_ms) + ",\"draw_ms\":" + num(r.draw_ms) +
        ",\"range_ms\":" + num(r.stages.range) + ",\"bricks_ms\":" + num(r.stages.bricks) +
        ",\"march_ms\":" + num(r.stages.march) + ",\"publish_path\":" + json_string(path) + "}\n";
    std::fputs(line.c_str(), stdout);
  } else {
    std::printf("%-28s %13s %6s %4d %6d %9.1f %9.4f %8.4f %8.4f %8.4f %7.3f %7.3f %7.3f %s\n",
                v.name().c_str(), format_size(v.size()).c_str(), format_count(v.agent_count()).c_str(), spf,
                frames, fps, r.frame_ms, r.sim_ms, r.publish_ms, r.draw_ms, r.stages.range, r.stages.bricks,
                r.stages.march, path);
  }
  std::fflush(stdout);
}

}  // namespace

int run_volume_frame_bench(const FrameBenchOptions& o, Size size) {
  VolumeConfig c;
  c.size = size;
  c.seed = o.seed;
  c.threads = o.threads;
  c.agents = o.agents.empty() ? agents_for_density(kTargetDensity, size) : parse_count(o.agents);
  const BackendKind kind = parse_backend_kind(o.backend);
  std::unique_ptr<Volume> v;
  try {
    v = create_volume(kind, c);
  } catch (const OutOfMemoryError& e) {
    std::fprintf(stderr, "physarum bench: %s with %s agents does not fit: %s\n", format_size(size).c_str(),
                 format_count(c.agents).c_str(), e.what());
    return kExitRuntime;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "physarum bench: %s with %s agents: out of host memory\n", format_size(size).c_str(),
                 format_count(c.agents).c_str());
    return kExitRuntime;
  }
  const bool cuda = v->kind() == BackendKind::Cuda;
  const int frames = o.frames > 0 ? o.frames : (cuda ? 300 : 10);
  render::EglContext egl(cuda);
  std::fprintf(stderr, "physarum bench: %s; %s; drawn at 1920x1080\n", v->name().c_str(),
               egl.description().c_str());
  if (!o.json) {
    // draw = range + bricks + march, each the GPU's time (VolumeRenderer::stage_ms).
    std::printf("%-28s %13s %6s %4s %6s %9s %9s %8s %8s %8s %7s %7s %7s %s\n", "backend", "size", "agents",
                "spf", "frames", "frames/s", "ms/frame", "sim", "publish", "draw", "range", "bricks", "march",
                "publish path");
  }
  step_in_slices(static_cast<uint64_t>(o.warmup), [&](uint64_t k) { v->step(static_cast<int>(k)); });
  const DisplayParams display;  // the default look: emission through the default camera
  for (int spf : o.steps_per_frame) {
    VolumeFrameRow r;
    {
      render::VolumeRenderer renderer;
      renderer.set_palette(
          render::palette_named(render::load_palettes(render::palette_dir()), display.palette));
      const render::OffscreenTarget target(kPicture.width, kPicture.height);
      r = time_volume_frames(*v, renderer, display, spf, frames);
      finish_device(cuda);
    }
    throw_if_stopped();
    print_volume_row(*v, spf, frames, r, o.json);
  }
  return kExitOk;
}

}  // namespace physarum::app
