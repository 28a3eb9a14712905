// `physarum render`: runs the simulation headless and draws it with the window's shader into an
// offscreen framebuffer through EGL (no display needed). Outputs by extension: .png (last frame),
// .exr (linear OpenEXR), .npy (the field), videos (.mp4, .webm, .gif, or a PNG sequence frames/%05d.png: a
// frame every
// --every steps, through the recorder in Wait mode: the simulation waits for the encoder, so no
// frame is ever dropped). --resolution 4x draws larger than the field, sampled bicubically. Ctrl-C / SIGTERM
// finalise the videos written so far and exit with 128 + signal. The drawing and the recorders are
// headless/headless_render.hpp; the report and ensembles report/; the output checks export/.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/output_options.hpp"
#include "cli/sim_options.hpp"
#include "cli/video_options.hpp"
#include "export/output_budget.hpp"
#include "export/output_paths.hpp"
#include "export/output_size.hpp"
#include "headless/deep_stills.hpp"
#include "headless/headless_render.hpp"
#include "headless/volume_frames.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "report/render_ensemble.hpp"
#include "report/render_report.hpp"
#include "run/run.hpp"
#include "sim/atomic_file.hpp"
#include "sim/json_text.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "sim/text.hpp"
#include "video/loop_fade.hpp"
#include "system/process.hpp"
#include "video/progress.hpp"
#include "video/recorder.hpp"
#include "system/signals.hpp"
#include "video/video_format.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {
namespace {

struct RenderOptions {
  run::Recipe sim;
  uint64_t steps = 500;
  std::vector<std::string> outs;
  std::string resolution;        // "WxH" or "4x"; empty = the field's size
  int every = 0;                 // video: a frame every N steps (0 = steps / 300, at least 1)
  std::optional<uint64_t> from;  // video: grow silently to this step, the first frame there
  std::optional<double> loop_s;  // video: a seamless loop of this many seconds
  int fps = 30;
  int video_stop_limit_s = 30;  // after the last frame or Ctrl-C, before a stalled encoder is ended
  bool quiet = false;
  ReportOptions report;
  EnsembleOptions ensemble;  // --seeds, --shard, --merge
  std::string output_budget;
  VideoQuality quality;           // --crf, --video-preset, --gif-*
  DeepStillOptions deep;          // --depth, --exr-type
  std::optional<double> orbit_s;  // a volume: a turntable of this many seconds of video
  std::string slice;              // a volume: "z=0.5", the 2D picture of that plane
};

enum class OutKind { Png, Exr, Npy, Video };

OutKind out_kind(const std::string& file) {
  if (video_format_of(file)) return OutKind::Video;
  const std::string ext = lowercase_extension(file);
  if (ext == ".png") return OutKind::Png;
  if (ext == ".exr") return OutKind::Exr;
  if (ext == ".npy") return OutKind::Npy;
  throw UsageError("--out " + file +
                   ": the extension must be .png, .exr, .npy, .mp4, .webm or .gif, or a numbered PNG "
                   "sequence such as frames/%05d.png");
}

// The command that runs the same simulation again, quoted for a shell so it can be pasted as it is;
// `seed_words` in place of "--seed N" when given ("--seeds 1..8").
std::string remake_command(const RenderOptions& o, const Preset& p, const std::string& seed_words = "") {
  const run::Recipe& s = o.sim;
  std::string c = "physarum render";
  if (!s.preset.empty()) c += " --preset " + shell_quote(s.preset);
  c += " --size " + format_size(p.run.size) + " --agents " + std::to_string(p.run.agents) + " " +
       (seed_words.empty() ? "--seed " + std::to_string(p.run.seed) : seed_words);
  if (!s.image.empty()) c += " --image " + shell_quote(s.image) + " --image-fit " + shell_quote(s.image_fit);
  if (!s.food.empty()) c += " --food " + shell_quote(s.food);
  if (!s.walls.empty()) c += " --walls " + shell_quote(s.walls);
  for (const auto& set : s.sets) {
    // The resolved size, agents and seed are given above already.
    const std::string key = set.substr(0, set.find('='));
    if (key == "run.size" || key == "run.agents" || key == "run.seed") continue;
    c += " --set " + shell_quote(set);
  }
  c += " --steps " + std::to_string(o.steps);
  if (o.from) c += " --from " + std::to_string(*o.from);
  if (o.loop_s) c += " --loop " + json_number(*o.loop_s, 9);
  return c;
}

// The video's comment tag: what was run and the command that makes the same video again.
std::string video_comment(const RenderOptions& o, const Preset& p, uint64_t every, Size out_size,
                          const std::string& out) {
  const run::Recipe& s = o.sim;
  std::string preset_name =
      s.preset.empty() ? std::string("built-in defaults") : std::filesystem::path(s.preset).stem().string();
  std::string c = "physarum " PHYSARUM_VERSION "; preset " + preset_name + "; seed " +
                  std::to_string(p.run.seed) + "; size " + format_size(p.run.size) + "; agents " +
                  std::to_string(p.run.agents);
  if (!s.image.empty()) c += "; image " + s.image;
  c += "; made with: " + remake_command(o, p);
  c += " --every " + std::to_string(every) + " --fps " + std::to_string(o.fps);
  if (!o.resolution.empty()) c += " --resolution " + format_size(out_size);
  // --out=NAME: a name that starts with a dash is still the option's value.
  c += " --out=" + shell_quote(out);
  return c;
}

struct Outputs {
  std::vector<std::string> pngs, exrs, npys, videos;
};

// Every output checked before any work is done (a PNG sequence's folder is made by plan_output,
// once everything else is known to be good).
Outputs sorted_outputs(const std::vector<std::string>& outs, const ReportOptions& report) {
  Outputs r;
  OutputPaths paths;
  for (const auto& f : outs) {
    switch (out_kind(f)) {
      case OutKind::Png: r.pngs.push_back(f); break;
      case OutKind::Exr: r.exrs.push_back(f); break;
      case OutKind::Npy: r.npys.push_back(f); break;
      case OutKind::Video: r.videos.push_back(f); break;
    }
    if (video_format_of(f) == VideoFormat::PngSequence) {
      try {
        check_frame_pattern(f);
      } catch (const Error& e) {
        throw UsageError(std::string("--out ") + e.what());
      }
    } else {
      paths.add("--out", f);
    }
  }
  if (!report.file.empty()) paths.add("--report", report.file);
  if (!report.graph.empty()) {
    check_graph_file(report.graph);
    paths.add("--graph", report.graph);
  }
  return r;
}

// The output size and the video encoder, checked before any simulation work: no ffmpeg, or a
// video size no encoder here takes.
struct OutputPlan {
  // The recipe resolved, once: the checks read it and the run grows from it.
  Preset preset;
  std::string chosen;  // what the resolution chose for the user (run::resolve's `chosen`)
  Size size;
  std::string encoder = "auto";
};

OutputResolution resolution_of(const RenderOptions& o) {
  if (o.resolution.empty()) return {};
  try {
    return parse_resolution(o.resolution);
  } catch (const Error& e) {
    throw UsageError("--resolution " + o.resolution + ": " + e.what());
  }
}

// A volume's picture is the 3D view's (kVolumeImageSize) or, with --slice, its plane's; "4x" and the
// default size follow from it as from a plane's field.
Size picture_base(const RenderOptions& o, Size run_size) {
  if (!run_size.volume()) return run_size;
  if (o.slice.empty()) return kVolumeImageSize;
  return slice_plane_size(run_size, parse_slice_option(o.slice).axis);
}

Size image_size(const RenderOptions& o, Size run_size) {
  try {
    return output_size(resolution_of(o), picture_base(o, run_size));
  } catch (const Error& e) {
    throw UsageError("--resolution " + o.resolution + ": " + e.what());
  }
}

// What the outputs cost at `size`, before anything is drawn. The offscreen target and the frame
// read back from it hold 4 bytes a pixel each; a still adds its PNG (built whole in memory, then
// written); a video adds its frames in flight, the readback ring's and the recorder's, and nothing
// on disk: its length is what --steps and --every ask for, and the encoder compresses it. The
// .npy is the field, 4 bytes a cell per species.
// The frames a video gets: one every `every` steps before the last step, and the last step's.
uint64_t video_frame_count(const RenderOptions& o) {
  const uint64_t every = o.every > 0 ? static_cast<uint64_t>(o.every) : std::max<uint64_t>(1, o.steps / 300);
  return o.steps == 0 ? 1 : (o.steps - 1) / every + 1;
}

// A GIF stores every pixel of every frame: its weight is said before the run (the typical size),
// and its bound goes into the budget.
void add_gif_estimates(const RenderOptions& o, const Outputs& outs, Size size, OutputBudget& budget) {
  for (const auto& f : outs.videos) {
    if (video_format_of(f) != VideoFormat::Gif) continue;
    const GifEstimate e = estimate_gif(o.quality, size.width, size.height, video_frame_count(o), o.fps);
    const std::string because = std::to_string(e.frames) + " frames of " + std::to_string(e.width) + "x" +
                                std::to_string(e.height) + " at " + std::to_string(o.quality.gif_fps) +
                                " fps";
    budget.add("--out " + f, because, {e.bound_bytes, 0});
    if (!o.quiet) {
      std::fprintf(stderr,
                   "physarum render: %s will be %s, about %.1f MB (--gif-width, --gif-fps and --gif-colors "
                   "make it lighter)\n",
                   printable(f).c_str(), because.c_str(), static_cast<double>(e.typical_bytes) / 1e6);
    }
  }
}

void check_output_budget(const RenderOptions& o, const Outputs& outs, Size size, const Preset& preset) {
  const uint64_t frame = 4 * static_cast<uint64_t>(size.width) * static_cast<uint64_t>(size.height);
  const std::string image =
      "a " + format_size(size) + " image" +
      (o.resolution.empty() ? std::string(", the field's size") : " from --resolution " + o.resolution);
  OutputBudget budget;
  budget.add("the image drawn", image, {0, 2 * frame});
  for (const auto& f : outs.pngs) {
    const uint64_t png = png_bytes_bound(size.width, size.height, 4, o.deep.depth / 8);
    budget.add("--out " + f, image, {png, png});
  }
  const uint64_t pixels = frame / 4;
  if (!outs.exrs.empty() || (o.deep.depth == 16 && !outs.pngs.empty())) {
    // The float target and the floats read back from it.
    budget.add("the deep still drawn", image, {0, 2 * 16 * pixels});
  }
  for (const auto& f : outs.exrs) {
    // ZIP of incompressible samples grows by well under 1%; the header is small.
    const uint64_t raw = pixels * 4 * (o.deep.exr_sample == "float" ? 4 : 2);
    budget.add("--out " + f, image, {raw + raw / 64 + 65536, 2 * raw + 65536});
  }
  const auto in_flight = static_cast<uint64_t>(kReadbackRing + RecorderOptions{}.ring_slots);
  for (const auto& f : outs.videos) budget.add("--out " + f, image, {0, in_flight * frame});
  if (o.loop_s) {
    const uint64_t held = plan_loop(*o.loop_s, o.fps).fade_frames;
    budget.add("--loop " + json_number(*o.loop_s, 9),
               std::to_string(held) + " frames held for the cross-fade", {0, held * frame});
  }
  const Size field = preset.run.size;
  const uint64_t npy = 4 * static_cast<uint64_t>(field.width) * static_cast<uint64_t>(field.height) *
                       static_cast<uint64_t>(preset.species.count());
  for (const auto& f : outs.npys)
    budget.add("--out " + f, "the " + format_size(field) + " field", {npy, npy});
  if (!o.report.graph.empty()) {
    const uint64_t graph = graph_framing_bound(remake_command(o, preset));
    budget.add("--graph " + o.report.graph, "its framing; its nodes and edges are checked once measured",
               {graph, graph});
  }
  add_gif_estimates(o, outs, size, budget);
  budget.check(o.output_budget);
}

// The encoder for videos of `size` ("auto" when no MP4 is asked for). Throws UsageError for a
// size no encoder here takes, Error without ffmpeg.
std::string checked_video_encoder(const RenderOptions& o, const std::vector<std::string>& videos, Size size) {
  std::string encoder = "auto";
  // What the user can fix in the command comes first, whatever is installed.
  for (const auto& v : videos) {
    if (video_format_of(v) == VideoFormat::PngSequence) check_frame_folder(v);
  }
  if (!find_on_path("ffmpeg"))
    throw Error("ffmpeg not found on PATH; install it with apt-get install ffmpeg");
  const int w = size.width, h = size.height;
  bool even_cropped = false;
  for (const auto& v : videos) {
    const VideoFormat f = *video_format_of(v);
    try {
      if (f == VideoFormat::Mp4) {
        encoder = encoder_for_size(w, h);
      } else if (std::string why = video_size_problem(w, h, "libx264"); !why.empty()) {
        throw Error(why);
      }
    } catch (const Error& e) {
      throw UsageError(std::string("--out ") + v + ": " + e.what() +
                       (o.resolution.empty() ? "; choose a smaller --resolution" : ""));
    }
    if (std::string why = quality_problem(o.quality, f, f == VideoFormat::Mp4 ? encoder : ""); !why.empty()) {
      throw UsageError("--out " + v + ": " + why);
    }
    even_cropped = even_cropped || (format_needs_even_size(f) && ((w | h) & 1));
  }
  if (even_cropped) {
    std::fprintf(stderr,
                 "physarum render: the video is %dx%d (MP4 and WebM need even sides: the last %s cropped; "
                 "GIF and PNG keep them)\n",
                 w & ~1, h & ~1,
                 (w & 1) && (h & 1) ? "column and row are"
                 : (w & 1)          ? "column is"
                                    : "row is");
  }
  return encoder;
}

// --orbit and --slice draw a volume; what reads a plane's field (.npy, .exr, the network report) is
// a plane's alone (`physarum run` writes a volume's .npy, `physarum export` its meshes).
void check_volume_options(const RenderOptions& o, const Outputs& outs, bool volume) {
  if (!volume) {
    if (o.orbit_s)
      throw UsageError("--orbit turns the camera about a volume; this run is a plane (give --size WxHxD)");
    if (!o.slice.empty())
      throw UsageError("--slice " + o.slice + ": cuts a volume; this run is a plane (give --size WxHxD)");
    return;
  }
  if (!o.slice.empty()) (void)parse_slice_option(o.slice);
  const std::pair<bool, std::string> plane_only[] = {
      {!outs.npys.empty(),
       outs.npys.empty()
           ? ""
           : "--out " + outs.npys[0] + ": a volume's field is written by physarum run --out FILE.npy"},
      {!outs.exrs.empty(),
       outs.exrs.empty() ? "" : "--out " + outs.exrs[0] + ": OpenEXR stills are of a plane"},
      {o.deep.depth != 8, "--depth " + std::to_string(o.deep.depth) + ": 16-bit stills are of a plane"},
      {o.report.wanted(), "--report and --graph measure a plane's network"},
  };
  for (const auto& [given, why] : plane_only) {
    if (given) throw UsageError(why + " (this run is a volume)");
  }
}

// The image's size, the encoder and the budget checked before any work; then the frames' folders
// are made.
OutputPlan plan_output(const RenderOptions& o, const Outputs& outs) {
  if (o.deep.depth == 16 && outs.pngs.empty()) {
    throw UsageError(
        "--depth 16 sets the bits of the .png stills, and no --out names one (a .png such as "
        "print.png; a PNG sequence is 8-bit)");
  }
  OutputPlan plan;
  plan.preset = run::resolve(o.sim, &plan.chosen);
  check_volume_options(o, outs, plan.preset.run.size.volume());
  plan.size = image_size(o, plan.preset.run.size);
  if (!outs.videos.empty()) plan.encoder = checked_video_encoder(o, outs.videos, plan.size);
  check_output_budget(o, outs, plan.size, plan.preset);
  for (const auto& v : outs.videos) {
    if (video_format_of(v) == VideoFormat::PngSequence) prepare_frame_folder(v);
  }
  return plan;
}

// The steps a video's frames are taken at: first, first + every, ... below end, and end (the last
// frame, drawn after the loop). Without --from the first is `every` (step 0 is the random spawn).
struct FrameSteps {
  uint64_t first = 0;
  uint64_t every = 1;
  uint64_t end = 0;
};

// --steps, --every, --from and --loop (rendered_frames of it, 0 without) as frame steps. With a loop
// the run ends at its last frame, at or before --steps.
FrameSteps frame_steps(const RenderOptions& o, uint64_t loop_frames) {
  const uint64_t start = o.from.value_or(0);
  if (o.from && start >= o.steps) {
    throw UsageError("--from " + std::to_string(start) + ": must be below --steps (" +
                     std::to_string(o.steps) + ")");
  }
  const uint64_t span = o.steps - start;
  const uint64_t per_video = loop_frames > 0 ? loop_frames : 300;
  FrameSteps f;
  f.every = o.every > 0 ? static_cast<uint64_t>(o.every) : std::max<uint64_t>(1, span / per_video);
  f.first = o.from ? start : f.every;
  f.end = loop_frames > 0 ? f.first + (loop_frames - 1) * f.every : o.steps;
  return f;
}

// Steps the simulation, a video frame at each of `f`'s steps below its end. Returns the steps done
// (fewer after Ctrl-C) and counts the frames written.
uint64_t run_steps(const RenderOptions& o, run::Run& sim, HeadlessRender& out, const FrameSteps& f,
                   uint64_t& frames) {
  ProgressBar progress(f.end, !o.quiet);
  if (o.from && out.recording()) progress.set_record_from(f.first);
  // Quantile cave levels come only from a host copy (with interop the field is on the GPU).
  const auto frame = [&] {
    if (out.write_frame(sim.preset().display.cave == CaveMode::Quantile)) ++frames;
  };
  if (out.recording() && f.first == 0 && f.end > 0) frame();
  uint64_t done = 0;
  // Small chunks keep the progress bar and Ctrl-C responsive; a video needs a frame at each of its steps.
  while (done < f.end && !stop_requested()) {
    const uint64_t next_frame = done < f.first ? f.first : done + f.every - (done - f.first) % f.every;
    const uint64_t to_frame = out.recording() ? next_frame - done : 64;
    const uint64_t chunk = std::min({uint64_t{64}, to_frame, f.end - done});
    sim.step(chunk);  // keyframed values before each step, from step 0 whatever --from says
    done += chunk;
    if (out.recording() && done < f.end && done >= f.first && (done - f.first) % f.every == 0) frame();
    progress.update(done, frames);
  }
  progress.finish();
  return done;
}

// What a video file holds, as its recorder counted it (a GIF: read back from the file made).
std::string video_contents(const std::string& out, const RecorderStatus& s) {
  const uint64_t n = s.video_frames;
  if (video_format_of(out) == VideoFormat::PngSequence) {
    // Numbered from 1 (ffmpeg's -start_number 1): the first and last file name them.
    std::string t = std::to_string(n) + " PNG frames";
    if (n > 0) t += ", " + printable(frame_file(out, 1).string());
    if (n > 1) t += " to " + printable(frame_file(out, n).string());
    return t;
  }
  char text[128];
  std::snprintf(text, sizeof text, "%llu frames at %.4g fps, %.2f s", static_cast<unsigned long long>(n),
                s.video_fps, s.duration_s);
  return text;
}

void say_written(const RenderOptions& o, const run::Run& s, uint64_t done,
                 const std::map<std::string, RecorderStatus>& videos) {
  for (const auto& f : o.outs) {
    const auto video = videos.find(f);
    if (video != videos.end()) {
      std::printf("physarum render: wrote %s (%s)\n", printable(f).c_str(),
                  video_contents(f, video->second).c_str());
    } else {
      std::printf("physarum render: wrote %s\n", printable(f).c_str());
    }
  }
  std::printf("physarum render: %llu steps of %s agents on %s with %s\n",
              static_cast<unsigned long long>(done), format_count(s.agent_count()).c_str(),
              format_size(s.size()).c_str(), s.name().c_str());
}

// --from and --loop shape a video: checked with the outputs, before any work.
std::optional<LoopPlan> checked_loop(const RenderOptions& o, const Outputs& outs) {
  if (outs.videos.empty()) {
    if (o.from)
      throw UsageError("--from " + std::to_string(*o.from) + ": records a video; give a video --out");
    if (o.loop_s)
      throw UsageError("--loop " + json_number(*o.loop_s, 9) + ": makes a video; give a video --out");
  }
  if (!o.loop_s) return std::nullopt;
  try {
    return plan_loop(*o.loop_s, o.fps);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// What shapes the pictures and videos, from the options checked before (check_volume_options).
HeadlessOptions headless_options(const RenderOptions& o) {
  HeadlessOptions h;
  h.fps = o.fps;
  h.video_stop_limit_s = o.video_stop_limit_s;
  h.quality = o.quality;
  h.orbit_s = o.orbit_s;
  if (!o.slice.empty()) h.slice = parse_slice_option(o.slice);
  return h;
}

// --seeds and --merge make a report over many runs and no picture: what shapes a picture (or writes
// one run's graph) is refused.
int render_ensemble(const RenderOptions& o) {
  const std::pair<bool, std::string> picture_options[] = {
      {!o.outs.empty(), o.outs.empty() ? "" : "--out " + o.outs[0]},
      {!o.resolution.empty(), "--resolution " + o.resolution},
      {o.every > 0, "--every"},
      {o.from.has_value(), "--from"},
      {o.loop_s.has_value(), "--loop"},
      {o.deep.depth != 8, "--depth " + std::to_string(o.deep.depth)},
      {!o.report.graph.empty(), "--graph " + o.report.graph},
  };
  for (const auto& [given, option] : picture_options) {
    if (!given) continue;
    throw UsageError(
        option + ": " + (o.ensemble.merge.empty() ? "--seeds" : "--merge") +
        " writes one report over many runs, and a picture, video or graph is of one run; render the "
        "seed to look at with --seed S --out FILE");
  }
  EnsembleRun e{o.sim, o.steps, o.report, o.ensemble, o.output_budget, o.quiet, {}};
  e.remake = [&o](const Preset& p, const std::string& seed_words) {
    return remake_command(o, p, seed_words);
  };
  return run_ensemble(e);
}

int run_render(const RenderOptions& o) {
  if (o.ensemble.any()) return render_ensemble(o);
  if (o.outs.empty()) {
    throw UsageError(
        "--out is required: name the picture, video or field to write (a report over many seeds "
        "needs --seeds A..B --report FILE.json)");
  }
  const Outputs outs = sorted_outputs(o.outs, o.report);
  const std::optional<LoopPlan> loop = checked_loop(o, outs);
  const FrameSteps steps = frame_steps(o, loop ? loop->rendered_frames() : 0);
  const OutputPlan plan = plan_output(o, outs);
  install_signal_handlers();

  run::Run sim(run::with_base(o.sim, plan.preset));  // the plan's preset: resolved once
  say_chosen(plan.chosen);
  HeadlessRender out(headless_options(o), sim, plan.size, "physarum render");
  std::vector<VideoOutput> videos;
  for (const auto& v : outs.videos)
    videos.push_back({v, video_comment(o, sim.preset(), steps.every, plan.size, v)});
  out.open_recorders(videos, plan.encoder);
  if (loop) out.loop(*loop);

  if (o.from && !o.quiet) {
    std::fprintf(stderr, "physarum render: growing to step %llu without recording, then recording\n",
                 static_cast<unsigned long long>(steps.first));
  }
  uint64_t frames = 0;
  const uint64_t done = run_steps(o, sim, out, steps, frames);
  if (stop_requested()) {
    if (out.recording())
      std::fprintf(stderr, "physarum render: finishing the video (Ctrl-C again ends at once)\n");
    out.finish_videos();
    const int sig = stop_signal();
    std::string kept;
    for (const auto& [file, status] : out.video_statuses())
      kept += "; kept " + printable(file) + " (" + video_contents(file, status) + ")";
    std::fprintf(stderr, "physarum render: stopped by signal %d after %llu steps%s\n", sig,
                 static_cast<unsigned long long>(done), kept.c_str());
    return exit_code_for_signal(sig);
  }
  // The last frame's range comes from a host copy, exactly as the CPU colouring computes it.
  if (!out.recording()) {
    out.draw(true);
  } else {
    (void)out.write_frame(true);  // a failed recording throws; the files are counted when finished
  }
  const auto rgba = render::read_framebuffer_rgba(plan.size.width, plan.size.height);
  render::check_gl("rendering headless");
  out.finish_videos();
  if (o.deep.depth == 16 || !outs.exrs.empty()) {
    const std::vector<std::string> none;
    write_deep_stills(o.deep.depth == 16 ? outs.pngs : none, outs.exrs, out.draw_deep(), plan.size,
                      sim.preset().display.background == Background::Transparent, o.deep,
                      "physarum " PHYSARUM_VERSION "; " + remake_command(o, sim.preset()));
  }
  if (o.deep.depth == 8) {
    for (const auto& f : outs.pngs) write_png_rgba(f, rgba.data(), plan.size.width, plan.size.height);
  }
  // A volume has neither .npy outputs nor a report (check_volume_options refused them).
  const auto& field = out.host_field();
  for (const auto& f : outs.npys)
    write_npy(f, field.data(), sim.size().height, sim.size().width, sim.species_count());
  say_written(o, sim, done, out.video_statuses());
  if (o.report.wanted() &&
      !write_render_report(o.report, sim.backend(), sim.preset().environment, field, done,
                           "physarum " PHYSARUM_VERSION "; " + remake_command(o, sim.preset()),
                           o.output_budget)) {
    const int sig = stop_signal();
    std::fprintf(stderr, "physarum render: stopped by signal %d during the network report; %s not written\n",
                 sig, (o.report.file.empty() ? o.report.graph : o.report.file).c_str());
    return exit_code_for_signal(sig);
  }
  return kExitOk;
}

// --report, --graph and the network's threshold.
void add_report_options(CLI::App& cmd, ReportOptions& r) {
  cmd.add_option("--report", r.file,
                 "Measure the final network and write JSON: towns, towns_connected, network_length, "
                 "mst_length, fault_tolerance, and Tero et al.'s cost, efficiency and fault_tolerance_tero "
                 "on its graph (towns are the food map's blobs; none without one); with --seeds, over the "
                 "seeds")
      ->type_name("FILE.json");
  cmd.add_option("--graph", r.graph,
                 "Write the final network as a graph: towns, junctions and ends as nodes, the lines between "
                 "them as edges with their length and mean trail level; GraphML (.graphml) or node-link "
                 "JSON (.json)")
      ->type_name("FILE");
  cmd.add_option("--report-threshold", r.threshold,
                 "Report and graph: the high trail level V (network pieces must reach it)")
      ->check(finite_number())
      ->type_name("V");
  cmd.add_option("--report-low", r.low_ratio,
                 "Report and graph: network cells have trail >= R x the high level and hang on to a cell "
                 "at the high level (hysteresis; 1 is a single threshold)")
      ->check(finite_number())
      ->type_name("R")
      ->check(CLI::Range(0.001, 1.0))
      ->capture_default_str();
  cmd.add_option("--report-fraction", r.fraction,
                 "Report and graph: without --report-threshold, this share of the open cells is at or "
                 "above the high level")
      ->check(finite_number())
      ->type_name("F")
      ->check(CLI::Range(0.001, 1.0))
      ->capture_default_str();
}

// --seeds, --shard and --merge: a report over many runs.
void add_ensemble_options(CLI::App& cmd, EnsembleOptions& o) {
  cmd.add_option("--seeds", o.seeds,
                 "Run the recipe once per seed from A to B and write one --report over them: each measure's "
                 "mean, standard deviation and 95% interval, and each seed's own report (no --out: "
                 "render one seed with --seed S to see it)")
      ->type_name("A..B");
  cmd.add_option("--shard", o.shard,
                 "With --seeds: run only slice K of N of the seeds (every N-th, round robin); join the "
                 "slices' reports with --merge")
      ->type_name("K/N");
  cmd.add_option("--merge", o.merge,
                 "Join the --report files of an ensemble's shards into --report FILE: the same file the "
                 "whole ensemble writes; nothing runs")
      ->type_name("FILE...")
      ->expected(1, std::numeric_limits<int>::max());
}

}  // namespace

CommandFn add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* cmd = app.add_subcommand(
      "render", "Run headless and draw the field with the window's shader (EGL, no display needed)");
  add_sim_options(*cmd, o->sim);
  cmd->add_option("--steps", o->steps, "Simulation steps")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 100'000'000));
  cmd->add_option("--out", o->outs,
                  "Output file, by extension: .png (last frame; --depth 16 for 16 bits a channel), .exr "
                  "(last frame, linear, OpenEXR), .npy (field), .mp4 (H.264), .webm (VP9), "
                  ".gif (looping, two-pass palette), DIR/%05d.png (numbered PNG frames; DIR is made); "
                  "repeatable; required unless --seeds or --merge")
      ->type_name("FILE");
  cmd->add_option("--resolution", o->resolution,
                  "Image size, WxH or a multiple of the field's size such as 4x (default: the field's size, "
                  "one pixel per cell); larger than the field the field is sampled bicubically")
      ->type_name("WxH|Nx");
  cmd->add_option("--every", o->every, "Video: one frame every N steps (default: steps / 300)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--from", o->from,
                  "Video: grow silently to step N and record from there (the first frame is step N; "
                  "keyframes still apply from step 0); --steps stays the last step")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 100'000'000));
  cmd->add_option("--loop", o->loop_s,
                  "Video: a seamless loop SECONDS long. The run renders a cross-fade's worth more (a second, "
                  "at most a quarter of the loop) and fades those last frames into the first ones, which "
                  "then close the video: its last frame flows into its first. The frame steps fit "
                  "between --from (or 0) and --steps unless --every is given; the run ends at the last "
                  "frame. Combine with --from so the loop shows a grown network")
      ->type_name("SECONDS")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 1.0e6));
  cmd->add_option("--fps", o->fps, "Video frame rate")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 240));
  cmd->add_option("--video-stop-limit", o->video_stop_limit_s,
                  "Video: seconds the encoder gets to take the last frames and finish (also after Ctrl-C) "
                  "before it is ended; what it wrote stays playable")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 3600));
  cmd->add_flag("-q,--quiet", o->quiet, "No progress bar on stderr");
  add_report_options(*cmd, o->report);
  add_ensemble_options(*cmd, o->ensemble);
  add_video_quality_options(*cmd, o->quality);
  add_deep_still_options(*cmd, o->deep);
  add_output_budget_option(*cmd, o->output_budget);
  cmd->add_option("--orbit", o->orbit_s,
                  "A volume: the camera turns once about it every SECONDS of video (a turntable; yaw from "
                  "display.camera_yaw_deg), while the run grows")
      ->type_name("SECONDS")
      ->check(finite_number())
      ->check(CLI::Range(0.01, 1.0e6));
  cmd->add_option("--slice", o->slice,
                  "A volume: draw the plane across x, y or z at fraction F of that side (z=0.5) with the 2D "
                  "colouring instead of the 3D view")
      ->type_name("AXIS=F");
  return [o] { return run_render(*o); };
}

}  // namespace physarum::app
