#include "bench/frame_bench.hpp"

#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>

#include "bench/bench_device.hpp"
#include "bench/bench_estimate.hpp"
#include "render/egl_context.hpp"
#include "render/field_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/palette.hpp"
#include "render/view.hpp"
#include "run/recipe.hpp"
#include "sim/backend.hpp"
#include "sim/cuda_info.hpp"
#include "sim/elapsed.hpp"
#include "sim/json_text.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using run::kExitOk;
using run::kExitRuntime;
using run::UsageError;

using Clock = std::chrono::steady_clock;

struct FrameCase {
  Size size;
  uint64_t agents = 0;
  int steps_per_frame = 1;
};

struct FrameRow {
  std::string backend;
  FrameCase c;
  int frames = 0;
  int warmup = 0;
  double frame_ms = 0;    // wall clock over all timed frames, divided by their number
  double sim_ms = 0;      // a frame's steps
  double publish_ms = 0;  // the field into the texture
  double draw_ms = 0;     // the palette shader into the framebuffer (GL timer query)
  double wait_ms = 0;     // host copy: the host waiting for the last draw before uploading
  bool gpu_sim = false;   // sim timed by CUDA events (else host wall time: the CPU steps synchronously)
  bool interop = false;   // publish through CUDA-GL interop, timed by CUDA events (else a host copy)
};

// Untimed frames before the timed ones: interop registration, shader warm-up, the first timer results.
constexpr int kUntimedFrames = 8;

// "1024x1024 with 1M agents at 5 steps a frame"
std::string case_words(const FrameCase& c) {
  return format_size(c.size) + " with " + format_count(c.agents) + " agents at " +
         std::to_string(c.steps_per_frame) + (c.steps_per_frame == 1 ? " step a frame" : " steps a frame");
}

// The frames still to come after the second (kUntimedFrames - 2 untimed, `frames` timed), priced at
// its `s` seconds; said when that is long.
void say_if_long(const FrameCase& c, int frames, double s) {
  CaseEstimate e{
      case_words(c) + ", its frames,", 0, static_cast<uint64_t>(kUntimedFrames - 2 + frames), "frames", s, 1};
  e.unit = "frame";
  if (e.seconds() >= kLongCaseS) std::fprintf(stderr, "%s\n", estimate_line(e).c_str());
}

bool is_cuda(const Backend& b) {
  return b.can_publish();
}

// Waits for the simulation's queued device work; the CPU backend is synchronous already.
void finish_sim(const Backend& b) {
  finish_device(is_cuda(b));
}

std::vector<FrameCase> frame_cases(const FrameBenchOptions& o, bool cpu) {
  std::vector<std::pair<Size, uint64_t>> sizes;
  if (!o.size.empty() || !o.agents.empty()) {
    sizes.emplace_back(o.size.empty() ? Size{3840, 2160} : parse_size(o.size),
                       o.agents.empty() ? 10'000'000 : parse_count(o.agents));
  } else if (cpu) {
    sizes.emplace_back(Size{1024, 1024}, 1'000'000);  // as bench's CPU case: a few seconds
  } else {
    sizes.emplace_back(Size{3840, 2160}, 10'000'000);
    sizes.emplace_back(Size{3840, 2160}, 100'000'000);  // skipped, saying so, when it does not fit
  }
  std::vector<FrameCase> v;
  for (const auto& [size, agents] : sizes) {
    for (int spf : o.steps_per_frame) v.push_back({size, agents, spf});
  }
  return v;
}

void print_header() {
  std::printf("%-28s %11s %6s %4s %6s %9s %9s %8s %8s %8s %s\n", "backend", "size", "agents", "spf", "frames",
              "frames/s", "ms/frame", "sim", "publish", "draw", "publish path");
}

void print_row(const FrameRow& r, bool json) {
  const double fps = 1000.0 / r.frame_ms;
  if (json) {
    const auto num = [](double v) { return json_number(v, 6); };
    const std::string line =
        "{\"mode\":\"frame\",\"backend\":" + json_string(r.backend) +
        ",\"width\":" + std::to_string(r.c.size.width) + ",\"height\":" + std::to_string(r.c.size.height) +
        ",\"agents\":" + std::to_string(r.c.agents) +
        ",\"steps_per_frame\":" + std::to_string(r.c.steps_per_frame) +
        ",\"frames\":" + std::to_string(r.frames) + ",\"warmup\":" + std::to_string(r.warmup) +
        ",\"fps\":" + num(fps) + ",\"frame_ms\":" + num(r.frame_ms) + ",\"sim_ms\":" + num(r.sim_ms) +
        ",\"publish_ms\":" + num(r.publish_ms) + ",\"draw_ms\":" + num(r.draw_ms) +
        ",\"wait_ms\":" + num(r.wait_ms) +
        ",\"sim_timing\":" + json_string(r.gpu_sim ? "cuda events" : "host") +
        ",\"publish_path\":" + json_string(r.interop ? "interop" : "host copy") + "}\n";
    std::fputs(line.c_str(), stdout);
  } else {
    std::printf("%-28s %11s %6s %4d %6d %9.1f %9.4f %8.4f %8.4f %8.4f %s\n", r.backend.c_str(),
                format_size(r.c.size).c_str(), format_count(r.c.agents).c_str(), r.c.steps_per_frame,
                r.frames, fps, r.frame_ms, r.sim_ms, r.publish_ms, r.draw_ms,
                r.interop ? "interop" : "host copy");
  }
  std::fflush(stdout);
}

// Times `frames` frames of the window's path. Per-frame means: the draw's GL timer query (the
// latest finished one, read after each draw), host wall time of the sim and publish where the host
// does that work; the CUDA ones come from the backend's events at the end (their windows hold the
// last frames only, all of them steady state). A host-copy upload must wait until the last draw
// has read the texture: that wait is made explicit (a fence) and kept out of the publish time, so
// the draw is not counted twice; it is reported on its own.
FrameRow time_frames(Backend& b, render::FieldRenderer& renderer, const DisplayParams& display,
                     const FrameCase& c, int frames) {
  const int w = c.size.width, h = c.size.height;
  GLsync last_draw = nullptr;
  double host_sim = 0, host_publish = 0, host_wait = 0, draw = 0;
  const auto one_frame = [&] {
    const auto t0 = Clock::now();
    b.step(c.steps_per_frame);
    const auto t1 = Clock::now();
    if (last_draw != nullptr) {
      (void)glClientWaitSync(last_draw, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
      glDeleteSync(last_draw);
      last_draw = nullptr;
    }
    const auto t2 = Clock::now();
    renderer.update_field(b, false);
    const auto t3 = Clock::now();
    renderer.draw(display, render::View{}, w, h);
    if (!renderer.interop_active()) last_draw = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    host_sim += ms_between(t0, t1);
    host_wait += ms_between(t1, t2);
    host_publish += ms_between(t2, t3);
    draw += renderer.draw_ms();
  };
  // A few frames first: interop registration, shader warm-up, the timer queries' first results.
  // The second prices the rest (the first registers and compiles), and a long wait is said.
  const auto wait_all = [&] {
    glFinish();
    finish_sim(b);
  };
  for (int i = 0; i < kUntimedFrames; ++i) {
    if (i == 1) wait_all();
    const auto t0 = Clock::now();
    one_frame();
    if (i != 1) continue;
    wait_all();
    say_if_long(c, frames, ms_since(t0) / 1000);
  }
  wait_all();

  host_sim = host_publish = host_wait = draw = 0;
  const auto start = Clock::now();
  for (int i = 0; i < frames; ++i) one_frame();
  glFinish();  // once, after all frames: the steady state never waits
  finish_sim(b);
  const double wall = ms_since(start);
  if (last_draw != nullptr) glDeleteSync(last_draw);
  FrameRow r;
  r.backend = b.name();
  r.c = c;
  r.frames = frames;
  r.frame_ms = wall / frames;
  r.draw_ms = draw / frames;
  r.wait_ms = host_wait / frames;
  r.gpu_sim = is_cuda(b);
  r.interop = renderer.interop_active();
  const StageTimings t = b.timings();
  r.sim_ms = r.gpu_sim ? t.step_ms * c.steps_per_frame : host_sim / frames;
  r.publish_ms = r.interop ? t.publish_ms : host_publish / frames;
  render::check_gl("timing frames");
  return r;
}

std::unique_ptr<Backend> make_backend(const FrameBenchOptions& o, const FrameCase& c, std::string* note) {
  SimConfig cfg;
  cfg.size = c.size;
  cfg.agents = c.agents;
  cfg.seed = o.seed;
  cfg.threads = o.threads;
  return create_backend(parse_backend_kind(o.backend), cfg, note);
}

}  // namespace

int run_frame_bench(const FrameBenchOptions& o) {
  std::vector<FrameCase> cases;
  bool cpu = false;
  try {
    if (!o.size.empty() && parse_size(o.size).volume()) return run_volume_frame_bench(o, parse_size(o.size));
    const BackendKind kind = parse_backend_kind(o.backend);
    cpu = kind == BackendKind::Cpu || (kind == BackendKind::Auto && cuda_device().empty());
    cases = frame_cases(o, cpu);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  const int frames = o.frames > 0 ? o.frames : (cpu ? 30 : 600);
  const DisplayParams display;            // the default look: the palette shader with auto range
  std::optional<render::EglContext> egl;  // made once, on the first backend's GPU
  int ran = 0;
  for (const FrameCase& c : cases) {
    std::unique_ptr<Backend> b;
    std::string note;
    try {
      b = make_backend(o, c, &note);
    } catch (const OutOfMemoryError& e) {
      std::fprintf(stderr, "physarum bench: skipping %s with %s agents: %s\n", format_size(c.size).c_str(),
                   format_count(c.agents).c_str(), e.what());
      continue;
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "physarum bench: skipping %s with %s agents: out of host memory\n",
                   format_size(c.size).c_str(), format_count(c.agents).c_str());
      continue;
    }
    if (!egl) {
      egl.emplace(b->can_publish());
      std::fprintf(stderr, "physarum bench: %s; %s\n", note.c_str(), egl->description().c_str());
      if (!o.json) print_header();
    }
    // The warm-up is priced here, the frames once the first ones are drawn (time_frames).
    (void)warm_up_announcing(case_words(c) + ", its warm-up,", static_cast<uint64_t>(o.warmup), 0, "",
                             [&](uint64_t k) {
                               b->step(static_cast<int>(k));
                               finish_sim(*b);
                             });
    FrameRow r;
    {
      // Dropped before the backend: the texture's registration and last publish outlive no stream.
      render::FieldRenderer renderer;
      renderer.set_palette(
          render::palette_named(render::load_palettes(render::palette_dir()), display.palette));
      const render::OffscreenTarget target(c.size.width, c.size.height);
      r = time_frames(*b, renderer, display, c, frames);
      finish_sim(*b);
    }
    throw_if_stopped();
    r.warmup = o.warmup;
    print_row(r, o.json);
    ++ran;
  }
  return ran > 0 ? kExitOk : kExitRuntime;
}

}  // namespace physarum::app
