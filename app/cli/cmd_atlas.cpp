// `physarum atlas`: one world per cell of a grid over two registry keys, grown headless, drawn as
// `render` draws a still and laid out as a mosaic with labelled axes (gnuplot draws the frame);
// per-world statistics as CSV and the stack of fields as .npy. A third key (--t) makes a video:
// one whole mosaic a frame, the grid grown again at each of its values.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atlas/grid.hpp"
#include "atlas/mosaic.hpp"
#include "atlas/worlds.hpp"
#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/output_options.hpp"
#include "cli/sim_options.hpp"
#include "export/output_budget.hpp"
#include "export/output_paths.hpp"
#include "render/colormap.hpp"
#include "render/headless_picture.hpp"
#include "run/batch.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "sim/text.hpp"
#include "video/encoder_probe.hpp"
#include "video/process.hpp"
#include "video/recorder.hpp"
#include "video/video_format.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {
namespace {

// A mosaic takes a while to read: a few a second, unless --fps says otherwise. 4 divides 100, so a
// GIF plays it evenly too.
constexpr int kDefaultAtlasFps = 4;

struct AtlasOptions {
  run::Recipe sim;
  std::string x, y, t;
  int fps = 0;  // 0: kDefaultAtlasFps
  uint64_t steps = 500;
  int tile = 160;
  std::string out, csv, npy;
  std::string output_budget;
};

// The preset's own aspect at `tile` cells wide, unless --size chose the worlds' size; the run
// library keeps the preset's density when --size comes without --agents.
run::Recipe sized_recipe(const AtlasOptions& o) {
  run::Recipe r = o.sim;
  if (r.size.empty()) {
    const Size s = run::resolve(r).run.size;
    const int h =
        std::max(1, static_cast<int>(std::lround(static_cast<double>(o.tile) * s.height / s.width)));
    r.size = format_size({o.tile, h});
  }
  return r;
}

// The grid's two axes and, for a video, the third: one mosaic a value of it.
struct Axes {
  atlas::Axis x, y;
  std::optional<atlas::Axis> t;
  int frames() const { return t ? t->n : 1; }
  int worlds() const { return x.n * y.n * frames(); }
};

int fps_of(const AtlasOptions& o) {
  return o.fps > 0 ? o.fps : kDefaultAtlasFps;
}

// A still without --t, a video with it: anything else is refused, naming the value.
void check_out_kind(const AtlasOptions& o, bool animated) {
  const std::optional<VideoFormat> video = video_format_of(o.out);
  if (animated && (!video || *video == VideoFormat::PngSequence)) {
    throw UsageError("--out " + o.out + ": with --t the atlas is a video (.mp4, .webm or .gif)");
  }
  if (!animated && video) {
    throw UsageError("--out " + o.out +
                     ": a video animates the atlas along a third key; add --t KEY=a:b:n, or write a .png");
  }
  if (!animated && lowercase_extension(o.out) != ".png") {
    throw UsageError("--out " + o.out + ": the atlas is a .png (or, with --t, a video)");
  }
  if (!animated && o.fps != 0) {
    throw UsageError("--fps " + std::to_string(o.fps) + ": the frame rate of a video, which needs --t");
  }
}

// The video's quality: the frames as they are, a GIF at the video's own rate and the canvas's
// width (as far as a GIF goes), since a mosaic shrunk or blended between frames cannot be read.
VideoQuality video_quality(const AtlasOptions& o, int canvas_width) {
  VideoQuality q;
  q.gif_fps = fps_of(o);
  q.gif_width = std::clamp(canvas_width, 16, 4096);  // the GIF check's range; never wider than the frames
  return q;
}

// The recorder's own check of the video's quality, naming --fps where it names the GIF's rate (the
// atlas's GIF plays at the video's rate).
void check_quality(const AtlasOptions& o, VideoFormat f, int w, const std::string& encoder) {
  std::string why = quality_problem(video_quality(o, w), f, encoder);
  if (why.empty()) return;
  const std::string gif_fps = "--gif-fps";
  throw UsageError(why.rfind(gif_fps, 0) == 0 ? "--fps" + why.substr(gif_fps.size())
                                              : "--out " + o.out + ": " + why);
}

// The encoder for a video of the canvas's size; refuses what no encoder here takes. Throws Error
// without ffmpeg, with the message `render` gives.
std::string checked_encoder(const AtlasOptions& o, int w, int h) {
  const VideoFormat f = *video_format_of(o.out);
  // What the user can fix in the command comes first, whatever is installed.
  if (f != VideoFormat::Mp4) check_quality(o, f, w, "");
  (void)resolve_ffmpeg("ffmpeg");
  std::string encoder = "auto";
  try {
    if (f == VideoFormat::Mp4) {
      encoder = encoder_for_size(w, h);
    } else if (std::string why = video_size_problem(w, h, "libx264"); !why.empty()) {
      throw Error(why);
    }
  } catch (const Error& e) {
    throw UsageError("--out " + o.out + ": " + e.what());
  }
  if (f == VideoFormat::Mp4) check_quality(o, f, w, encoder);
  return encoder;
}

// Every output checked before a world grows: writable, distinct, the right kind, within budget.
void check_outputs(const AtlasOptions& o, const Preset& p, const Axes& a) {
  check_out_kind(o, a.t.has_value());
  const atlas::Axis& x = a.x;
  const atlas::Axis& y = a.y;
  if (!o.npy.empty() && lowercase_extension(o.npy) != ".npy")
    throw UsageError("--npy " + o.npy + ": the stack of fields is a .npy");
  OutputPaths paths;
  paths.add("--out", o.out);
  if (!o.csv.empty()) paths.add("--csv", o.csv);
  if (!o.npy.empty()) paths.add("--npy", o.npy);
  OutputBudget budget;
  const Size s = p.run.size;
  const int worlds = a.worlds();
  // The canvas, the bare mosaic and every tile are in memory at once while the picture is made.
  const atlas::MosaicLayout l = atlas::layout_for(x.n, y.n, s.width, s.height);
  const uint64_t pixels =
      uint64_t{4} * static_cast<uint64_t>(l.canvas_width()) * static_cast<uint64_t>(l.canvas_height());
  const std::string tiles = std::to_string(x.n) + " x " + std::to_string(y.n) + " tiles of " + format_size(s);
  if (!a.t) {
    const uint64_t png = png_bytes_bound(l.canvas_width(), l.canvas_height(), 4, 1);
    budget.add("--out " + o.out, tiles, {png, png + 3 * pixels});
  } else {
    // As `render` counts a video: the frames in flight to the encoder, nothing on disk but a GIF's
    // bound (it stores every pixel of every frame).
    const auto in_flight = static_cast<uint64_t>(RecorderOptions{}.ring_slots);
    const bool gif = video_format_of(o.out) == VideoFormat::Gif;
    const uint64_t gif_bytes =
        gif ? estimate_gif(video_quality(o, l.canvas_width()), l.canvas_width(), l.canvas_height(),
                           static_cast<uint64_t>(a.frames()), fps_of(o))
                  .bound_bytes
            : 0;
    budget.add("--out " + o.out, std::to_string(a.frames()) + " frames of " + tiles,
               {gif_bytes, (3 + in_flight) * pixels});
  }
  const uint64_t fields = uint64_t{4} * static_cast<uint64_t>(worlds) * static_cast<uint64_t>(s.width) *
                          static_cast<uint64_t>(s.height);
  if (!o.npy.empty())
    budget.add("--npy " + o.npy, std::to_string(worlds) + " fields of " + format_size(s),
               {fields + 128, fields});
  budget.check(o.output_budget);
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
  (void)atlas::world_stats(probe.size(0), field, walls);
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
std::vector<std::vector<uint8_t>> draw_tiles(const std::vector<atlas::WorldResult>& worlds) {
  render::HeadlessPicture picture(false);
  std::vector<std::vector<uint8_t>> tiles;
  for (const atlas::WorldResult& w : worlds) {
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
Picture picture(const AtlasOptions& o, const Axes& a, const std::vector<atlas::WorldResult>& worlds,
                bool framed, const std::string& caption) {
  const Size s = worlds.front().size;
  const atlas::MosaicLayout l = atlas::layout_for(a.x.n, a.y.n, s.width, s.height);
  std::vector<uint8_t> bare = atlas::bare_mosaic(l, draw_tiles(worlds));
  if (!framed) return {a.x.n * s.width, a.y.n * s.height, std::move(bare)};
  const std::string title = (o.sim.preset.empty() ? std::string("defaults") : o.sim.preset) + ", " +
                            std::to_string(o.steps) + " steps" + caption;
  return {l.canvas_width(), l.canvas_height(), atlas::framed_mosaic(l, bare, a.x, a.y, title)};
}

// The third key and its value in its unit, as the frame's title names it.
std::string frame_caption(const atlas::Axis& t, int it) {
  return ", " + t.key + " = " + atlas::tick_label(t.value(it)) + (t.unit.empty() ? "" : " " + t.unit);
}

std::string csv_number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// frames[it][iy * nx + ix]: one grid of worlds a value of the third axis (one grid without it).
using Frames = std::vector<std::vector<atlas::WorldResult>>;

void write_csv(const std::string& file, const Axes& a, const Frames& frames) {
  const std::string third = a.t ? "it," : "";
  std::string csv = third + "ix,iy," + (a.t ? a.t->key + "," : "") + a.x.key + "," + a.y.key +
                    ",mean,variance,wavelength,coverage,junctions\n";
  for (int it = 0; it < a.frames(); ++it) {
    for (int iy = 0; iy < a.y.n; ++iy) {
      for (int ix = 0; ix < a.x.n; ++ix) {
        const atlas::WorldStats& s =
            frames[static_cast<size_t>(it)][static_cast<size_t>(iy * a.x.n + ix)].stats;
        csv += (a.t ? std::to_string(it) + "," : "") + std::to_string(ix) + "," + std::to_string(iy) + "," +
               (a.t ? csv_number(a.t->value(it)) + "," : "") + csv_number(a.x.value(ix)) + "," +
               csv_number(a.y.value(iy)) + "," + csv_number(s.mean) + "," + csv_number(s.variance) + "," +
               csv_number(s.wavelength) + "," + csv_number(s.coverage) + "," + std::to_string(s.junctions) +
               "\n";
      }
    }
  }
  write_file_atomically(file, csv);
}

// (ny, nx, H, W), or (nt, ny, nx, H, W) with a third axis.
void write_stack(const std::string& file, const Axes& a, const Frames& frames) {
  const Size s = frames.front().front().size;
  std::vector<float> stack;
  stack.reserve(static_cast<size_t>(a.worlds()) * frames.front().front().field.size());
  for (const auto& grid : frames)
    for (const atlas::WorldResult& w : grid) stack.insert(stack.end(), w.field.begin(), w.field.end());
  std::vector<int> shape = {a.y.n, a.x.n, s.height, s.width};
  if (a.t) shape.insert(shape.begin(), a.t->n);
  write_npy_shape(file, stack.data(), shape);
}

// The video's recorder: the canvas's frames as they are, waited for, never dropped.
std::unique_ptr<Recorder> open_video(const AtlasOptions& o, const std::string& encoder, int w, int h) {
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
std::vector<run::Recipe> frame_recipes(const AtlasOptions& o, const Axes& a, int it) {
  const run::Recipe frame = a.t ? atlas::frame_recipe(o.sim, *a.t, it) : o.sim;
  std::vector<run::Recipe> recipes;
  for (int iy = 0; iy < a.y.n; ++iy)
    for (int ix = 0; ix < a.x.n; ++ix) recipes.push_back(atlas::world_recipe(frame, a.x, ix, a.y, iy));
  return recipes;
}

// Each grid grown in turn, then drawn: a still's one picture, or a frame of the video. A grid's
// worlds keep only their fields and statistics once drawn.
Grown grow_and_draw(const AtlasOptions& o, const Axes& a, bool framed, const std::string& encoder) {
  Grown g;
  std::unique_ptr<Recorder> video;
  int done = 0;
  // A counter in place on a terminal; in a log, where each \r would be kept, only the summary.
  const bool counter = ::isatty(STDERR_FILENO) != 0;
  for (int it = 0; it < a.frames(); ++it) {
    const std::vector<run::Recipe> recipes = frame_recipes(o, a, it);
    const auto t0 = std::chrono::steady_clock::now();
    g.frames.push_back(atlas::grow_worlds(recipes, o.steps, [&](size_t) {
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
    for (atlas::WorldResult& w : g.frames.back()) {
      w.planes = {};
      w.food = {};
      w.walls = {};
    }
  }
  if (video && !video->stop()) throw Error("recording " + o.out + " failed: " + video->error());
  return g;
}

Axes parse_axes(const AtlasOptions& o, const Preset& base) {
  Axes a{atlas::parse_axis("--x", o.x, base), atlas::parse_axis("--y", o.y, base), std::nullopt};
  if (!o.t.empty()) {
    a.t = atlas::parse_axis("--t", o.t, base);
    // The grid's values are set after the third's, so a frame would not show the value it names.
    if (a.t->key == a.x.key || a.t->key == a.y.key) {
      throw UsageError("--t " + o.t + ": " + a.t->key + " is already swept by --" +
                       (a.t->key == a.x.key ? "x" : "y") + "; the third axis needs a key of its own");
    }
  }
  atlas::check_axes(o.sim, a.x, a.y, a.t ? &*a.t : nullptr);
  return a;
}

int run_atlas(AtlasOptions o) {
  o.sim = sized_recipe(o);
  std::string chosen;
  const Preset base = run::resolve(o.sim, &chosen);
  const Axes a = parse_axes(o, base);
  check_outputs(o, base, a);
  const bool framed = find_on_path("gnuplot").has_value();
  std::string encoder;
  if (a.t) {
    const Size s = base.run.size;
    const atlas::MosaicLayout l = atlas::layout_for(a.x.n, a.y.n, s.width, s.height);
    encoder = framed ? checked_encoder(o, l.canvas_width(), l.canvas_height())
                     : checked_encoder(o, a.x.n * s.width, a.y.n * s.height);
  }
  say_chosen(chosen);
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
  return kExitOk;
}

}  // namespace

CommandFn add_atlas_command(CLI::App& app) {
  auto o = std::make_shared<AtlasOptions>();
  CLI::App* cmd = app.add_subcommand(
      "atlas", "Grow one world per cell of a grid over two parameters and draw them as one labelled mosaic");
  cmd->add_option("--x", o->x,
                  "The horizontal axis, KEY=a:b:n or KEY=a:b:n:log: a numeric key (see 'physarum params', "
                  "species keys too) swept from a to b in n values (1 to 64), evenly or geometrically (log)")
      ->required()
      ->type_name("KEY=RANGE");
  cmd->add_option("--y", o->y, "The vertical axis, as --x; its lowest value is the bottom row")
      ->required()
      ->type_name("KEY=RANGE");
  cmd->add_option("--t", o->t,
                  "A third axis, as --x, for a video: frame i is the whole mosaic grown with this key at its "
                  "i-th value, named in the title")
      ->type_name("KEY=RANGE");
  cmd->add_option("--fps", o->fps, "With --t: the video's frames per second (default 4)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 120));
  cmd->add_option("--steps", o->steps, "Steps each world grows")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(uint64_t{1}, uint64_t{std::numeric_limits<int>::max()}))
      ->capture_default_str();
  cmd->add_option("--tile", o->tile,
                  "Without --size: each world's width in cells (one pixel a cell), at the preset's aspect "
                  "and density")
      ->type_name("PIXELS")
      ->transform(decimal_integer())
      ->check(CLI::Range(8, 1024))
      ->capture_default_str();
  cmd->add_option("--out", o->out, "The mosaic (.png), or with --t its video (.mp4, .webm or .gif)")
      ->required()
      ->type_name("FILE");
  cmd->add_option(
         "--csv", o->csv,
         "Per-world statistics: (it,) ix, iy, the (three) values, mean, variance, wavelength (cells), "
         "coverage (network share of open cells), junctions")
      ->type_name("FILE.csv");
  cmd->add_option(
         "--npy", o->npy,
         "The fields as float32 (ny, nx, H, W), y index 0 the lowest value; with --t (nt, ny, nx, H, W)")
      ->type_name("FILE.npy");
  add_output_budget_option(*cmd, o->output_budget);
  add_sim_options(*cmd, o->sim);
  for (const char* name : {"--x", "--y", "--t", "--fps", "--steps", "--tile", "--out", "--csv", "--npy"})
    cmd->get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return [o] { return run_atlas(*o); };
}

}  // namespace physarum::app
