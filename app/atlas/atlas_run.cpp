#include "atlas/atlas_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atlas/atlas_outputs.hpp"
#include "atlas/mosaic.hpp"
#include "atlas/sweep_grid.hpp"
#include "atlas/worlds.hpp"
#include "render/colormap.hpp"
#include "render/headless_picture.hpp"
#include "run/batch.hpp"
#include "sim/png_writer.hpp"
#include "system/process.hpp"
#include "video/recorder.hpp"

namespace physarum::app::atlas {
namespace {

// The preset's own aspect at `tile` cells wide, unless --size chose the worlds' size; the run
// library keeps the preset's density when --size comes without --agents.
run::Recipe sized_recipe(const AtlasRequest& o) {
  run::Recipe r = o.sim;
  if (r.size.empty()) {
    const Size s = run::resolve(r).run.size;
    const int h =
        std::max(1, static_cast<int>(std::lround(static_cast<double>(o.tile) * s.height / s.width)));
    r.size = format_size({o.tile, h});
  }
  return r;
}

// The estimate from a probe, each part timed, so it holds on any machine and backend: worlds that
// share CUDA batches are probed as that batch (made, warmed up, grown a few steps, one world
// measured); others by the first world alone, warmed up (the first steps start threads and sort the
// agents: on 16 threads they took 50 times a later step), grown and measured; worlds that run side
// by side on one thread each, sharing the threads.
// `frames` grids of these recipes' worlds (the third axis's values, or 1).
std::string estimate_line(const std::vector<run::Recipe>& recipes, int frames, const Preset& p,
                          uint64_t steps) {
  constexpr uint64_t kWarmSteps = 5;
  constexpr uint64_t kProbeSteps = 20;
  const auto worlds = static_cast<int>(recipes.size());
  const std::string refusal = run::batch_refusal(recipes);
  const bool batched = refusal.empty();
  const int lanes = batched ? 1 : std::max(1, run::side_by_side_lanes(recipes));
  // Batched: the batch itself; otherwise the first world alone, on the threads it will have.
  std::vector<run::Recipe> probed = recipes;
  if (!batched) {
    probed.resize(1);
    if (lanes > 1) probed[0].threads = 1;
  }
  const auto made = std::chrono::steady_clock::now();
  run::Batch probe(probed);
  const double make_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - made).count();
  const std::string how = batched     ? probe.note()
                          : lanes > 1 ? "cpu, " + std::to_string(worlds) + " worlds side by side on " +
                                            std::to_string(lanes) + " threads"
                                      : "one after another on " + probe.backend_name() + ": " + refusal;
  probe.step(kWarmSteps);
  const auto t0 = std::chrono::steady_clock::now();
  probe.step(kProbeSteps);
  std::vector<float> field;
  probe.read_field(0, field);
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<uint8_t> walls;
  probe.read_walls(0, walls);
  field.resize(walls.size());  // the first channel stands in for the sum: the same work
  (void)world_stats(probe.size(0), field, walls);
  const auto t2 = std::chrono::steady_clock::now();
  const double step_s = std::chrono::duration<double>(t1 - t0).count() / kProbeSteps;
  const double stats_s = std::chrono::duration<double>(t2 - t1).count();
  const double grow_s = make_s + static_cast<double>(steps) * step_s;
  const double total = frames * (batched ? grow_s + worlds * stats_s / default_threads()
                                         : std::ceil(worlds * (grow_s + stats_s) / lanes));
  char text[320];
  std::snprintf(text, sizeof text, "%d worlds of %s with %s agents, %llu steps: about %.0f s (%s)",
                frames * worlds, format_size(p.run.size).c_str(), format_count(p.run.agents).c_str(),
                static_cast<unsigned long long>(steps), std::ceil(total), how.c_str());
  return text;
}

// Each world drawn as `render` draws its still: the preset's palette and display, the field's
// own size, the environment's overlays; rows from the top.
std::vector<std::vector<uint8_t>> draw_tiles(const std::vector<WorldResult>& worlds) {
  render::HeadlessPicture picture(false);
  std::vector<std::vector<uint8_t>> tiles;
  for (const WorldResult& w : worlds) {
    const render::HostField field{w.planes, w.size, render::channel_colours(w.species), w.food, w.walls};
    tiles.push_back(picture.draw_host_field(field, w.preset.display, "drawing an atlas tile"));
  }
  return tiles;
}

struct Picture {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // rows from the top
};

// The mosaic of one grid of worlds: framed by gnuplot when it is here, with `caption` after the
// title, else bare. Every grid of one atlas gives a picture of the same size.
Picture picture(const AtlasRequest& o, const Axes& a, const std::vector<WorldResult>& worlds, bool framed,
                const std::string& caption) {
  const Size s = worlds.front().size;
  const MosaicLayout l = layout_for(a.x.n, a.y.n, s.width, s.height);
  std::vector<uint8_t> bare = bare_mosaic(l, draw_tiles(worlds));
  if (!framed) return {a.x.n * s.width, a.y.n * s.height, std::move(bare)};
  const std::string title = (o.sim.preset.empty() ? std::string("defaults") : o.sim.preset) + ", " +
                            std::to_string(o.steps) + " steps" + caption;
  return {l.canvas_width(), l.canvas_height(), framed_mosaic(l, bare, a.x, a.y, title)};
}

// The third key and its value in its unit, as the frame's title names it.
std::string frame_caption(const Axis& t, int it) {
  return ", " + t.key + " = " + tick_label(t.value(it)) + (t.unit.empty() ? "" : " " + t.unit);
}

// The video's recorder: the canvas's frames as they are, waited for, never dropped.
std::unique_ptr<Recorder> open_video(const AtlasRequest& o, const std::string& encoder, int w, int h) {
  RecorderOptions ro;
  ro.output = o.out;
  ro.width = w;
  ro.height = h;
  ro.fps = fps_of(o);
  ro.policy = RingPolicy::Wait;
  ro.encoder = encoder;
  ro.quality = video_quality(o, w);
  return std::make_unique<Recorder>(ro);
}

struct Grown {
  Frames frames;
  double seconds = 0;  // growing the worlds, not drawing them
};

// The recipes of frame `it`'s worlds, rows from the top.
std::vector<run::Recipe> frame_recipes(const AtlasRequest& o, const Axes& a, int it) {
  const run::Recipe frame = a.t ? frame_recipe(o.sim, *a.t, it) : o.sim;
  std::vector<run::Recipe> recipes;
  for (int iy = 0; iy < a.y.n; ++iy)
    for (int ix = 0; ix < a.x.n; ++ix) recipes.push_back(world_recipe(frame, a.x, ix, a.y, iy));
  return recipes;
}

// A grid's worlds keep only their fields and statistics once drawn.
void drop_drawn(std::vector<WorldResult>& grid) {
  for (WorldResult& w : grid) {
    w.planes = {};
    w.food = {};
    w.walls = {};
  }
}

// Each grid grown in turn, then drawn: a still's one picture, or a frame of the video.
Grown grow_and_draw(const AtlasRequest& o, const Axes& a, bool framed, const std::string& encoder) {
  Grown g;
  std::unique_ptr<Recorder> video;
  int done = 0;
  // A counter in place on a terminal; in a log, where each \r would be kept, only the summary.
  const bool counter = ::isatty(STDERR_FILENO) != 0;
  for (int it = 0; it < a.frames(); ++it) {
    const std::vector<run::Recipe> recipes = frame_recipes(o, a, it);
    const auto t0 = std::chrono::steady_clock::now();
    g.frames.push_back(grow_worlds(recipes, o.steps, [&](size_t) {
      ++done;
      if (!counter) return;
      std::fprintf(stderr, "\rphysarum atlas: world %d of %d", done, a.worlds());
      if (done == a.worlds()) std::fprintf(stderr, "\n");
    }));
    g.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Picture p = picture(o, a, g.frames.back(), framed, a.t ? frame_caption(*a.t, it) : "");
    if (!a.t) {
      write_png_rgba(o.out, p.rgba.data(), p.width, p.height);
    } else {
      if (!video) video = open_video(o, encoder, p.width, p.height);
      if (!video->write_rgba(p.rgba.data(), p.width, p.height))
        throw Error("recording " + o.out + " stopped: " + video->error());
    }
    drop_drawn(g.frames.back());
  }
  if (video && !video->stop()) throw Error("recording " + o.out + " failed: " + video->error());
  return g;
}

Axes parse_axes(const AtlasRequest& o, const Preset& base) {
  Axes a{parse_axis("--x", o.x, base), parse_axis("--y", o.y, base), std::nullopt};
  if (!o.t.empty()) {
    a.t = parse_axis("--t", o.t, base);
    // The grid's values are set after the third's, so a frame would not show the value it names.
    if (a.t->key == a.x.key || a.t->key == a.y.key) {
      throw run::UsageError("--t " + o.t + ": " + a.t->key + " is already swept by --" +
                            (a.t->key == a.x.key ? "x" : "y") + "; the third axis needs a key of its own");
    }
  }
  check_axes(o.sim, a.x, a.y, a.t ? &*a.t : nullptr);
  return a;
}

// The video's encoder for the picture every frame will be (framed or bare); none for a still.
std::string video_encoder(const AtlasRequest& o, const Preset& base, const Axes& a, bool framed) {
  if (!a.t) return "";
  const Size s = base.run.size;
  const MosaicLayout l = layout_for(a.x.n, a.y.n, s.width, s.height);
  return framed ? checked_encoder(o, l.canvas_width(), l.canvas_height())
                : checked_encoder(o, a.x.n * s.width, a.y.n * s.height);
}

}  // namespace

int run_atlas(AtlasRequest o) {
  o.sim = sized_recipe(o);
  std::string chosen;
  const Preset base = run::resolve(o.sim, &chosen);
  const Axes a = parse_axes(o, base);
  check_outputs(o, base, a);
  const bool framed = find_on_path("gnuplot").has_value();
  const std::string encoder = video_encoder(o, base, a, framed);
  o.say_chosen(chosen);
  if (!framed) {
    std::fprintf(stderr,
                 "physarum atlas: gnuplot is not installed, so %s is the bare mosaic without axes "
                 "(sudo apt-get install gnuplot-nox)\n",
                 o.out.c_str());
  }
  std::fprintf(stderr, "physarum atlas: %s\n",
               estimate_line(frame_recipes(o, a, 0), a.frames(), base, o.steps).c_str());
  const Grown g = grow_and_draw(o, a, framed, encoder);
  if (!o.csv.empty()) write_csv(o.csv, a, g.frames);
  if (!o.npy.empty()) write_stack(o.npy, a, g.frames);
  const int worlds = a.worlds();
  std::printf("physarum atlas: %d worlds in %.1f s (%.2f worlds/s); wrote %s%s%s\n", worlds, g.seconds,
              g.seconds > 0 ? worlds / g.seconds : 0.0, o.out.c_str(),
              o.csv.empty() ? "" : (", " + o.csv).c_str(), o.npy.empty() ? "" : (", " + o.npy).c_str());
  return run::kExitOk;
}

}  // namespace physarum::app::atlas
