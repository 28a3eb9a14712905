#include "render_pipeline/render_run.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "export/output_budget.hpp"
#include "export/output_paths.hpp"
#include "export/output_size.hpp"
#include "headless/headless_render.hpp"
#include "headless/volume_frames.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "run/run.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "system/process.hpp"
#include "system/signals.hpp"
#include "video/loop_fade.hpp"
#include "video/progress.hpp"
#include "video/recorder.hpp"
#include "video/video_format.hpp"

namespace physarum::app {
namespace {

using run::kExitOk;
using run::UsageError;

// The command that runs the same simulation again, quoted for a shell so it can be pasted as it is;
// `seed_words` in place of "--seed N" when given ("--seeds 1..8").
std::string remake_command(const RenderRequest& o, const Preset& p, const std::string& seed_words = "") {
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
std::string video_comment(const RenderRequest& o, const Preset& p, uint64_t every, Size out_size,
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

// Every --out with its format, in the order given.
struct Output {
  std::string file;
  const OutputFormat* format = nullptr;
};

struct Outputs {
  std::vector<Output> files;
  std::vector<std::string> of(OutputNeeds needs) const {
    std::vector<std::string> r;
    for (const Output& f : files) {
      if (f.format->needs == needs) r.push_back(f.file);
    }
    return r;
  }
  bool any(OutputNeeds needs) const { return !of(needs).empty(); }
  // A float picture is drawn for the stills that read one: .exr, and .png at --depth 16.
  bool deep(const DeepStillOptions& d) const {
    return any(OutputNeeds::DeepPicture) || (d.depth == 16 && any(OutputNeeds::Picture));
  }
};

// Every output checked before any work is done (a PNG sequence's folder is made by plan_output,
// once everything else is known to be good).
Outputs checked_outputs(const std::vector<std::string>& outs, const ReportOptions& report) {
  Outputs r;
  OutputPaths paths;
  for (const auto& f : outs) {
    const OutputFormat* format = output_format_for(f, kRenderOffer);
    if (format == nullptr)
      throw UsageError("--out " + f + ": the extension must be " + output_extensions(kRenderOffer));
    r.files.push_back({f, format});
    if (format->frame_pattern) {
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

OutputResolution resolution_of(const RenderRequest& o) {
  if (o.resolution.empty()) return {};
  try {
    return parse_resolution(o.resolution);
  } catch (const Error& e) {
    throw UsageError("--resolution " + o.resolution + ": " + e.what());
  }
}

// A volume's picture is the 3D view's (kVolumeImageSize) or, with --slice, its plane's; "4x" and the
// default size follow from it as from a plane's field.
Size picture_base(const RenderRequest& o, Size run_size) {
  if (!run_size.volume()) return run_size;
  if (o.slice.empty()) return kVolumeImageSize;
  return slice_plane_size(run_size, parse_slice_option(o.slice).axis);
}

Size image_size(const RenderRequest& o, Size run_size) {
  try {
    return output_size(resolution_of(o), picture_base(o, run_size));
  } catch (const Error& e) {
    throw UsageError("--resolution " + o.resolution + ": " + e.what());
  }
}

// The frames a video gets: one every `every` steps before the last step, and the last step's.
uint64_t video_frame_count(const RenderRequest& o) {
  const uint64_t every = o.every > 0 ? static_cast<uint64_t>(o.every) : std::max<uint64_t>(1, o.steps / 300);
  return o.steps == 0 ? 1 : (o.steps - 1) / every + 1;
}

// A GIF stores every pixel of every frame: its weight is said before the run (the typical size; its
// bound is its format's estimate).
void say_gif_sizes(const RenderRequest& o, const Outputs& outs, Size size) {
  if (o.quiet) return;
  for (const auto& f : outs.of(OutputNeeds::Video)) {
    if (video_format_of(f) != VideoFormat::Gif) continue;
    const GifEstimate e = estimate_gif(o.quality, size.width, size.height, video_frame_count(o), o.fps);
    std::fprintf(stderr,
                 "physarum render: %s will be %llu frames of %dx%d at %d fps, about %.1f MB (--gif-width, "
                 "--gif-fps and --gif-colors make it lighter)\n",
                 printable(f).c_str(), static_cast<unsigned long long>(e.frames), e.width, e.height,
                 o.quality.gif_fps, static_cast<double>(e.typical_bytes) / 1e6);
  }
}

// What the outputs cost at `size`, before anything is drawn: the offscreen target and the frame
// read back from it hold 4 bytes a pixel each, a deep still its float target and the floats read
// back; each output its format's estimate (output_formats.cpp).
void check_output_budget(const RenderRequest& o, const Outputs& outs, Size size, const Preset& preset) {
  const uint64_t frame = 4 * static_cast<uint64_t>(size.width) * static_cast<uint64_t>(size.height);
  const std::string image =
      "a " + format_size(size) + " image" +
      (o.resolution.empty() ? std::string(", the field's size") : " from --resolution " + o.resolution);
  const OutputShape shape{
      .field = preset.run.size,
      .planes = preset.species.count(),
      .image = size,
      .image_text = image,
      .deep = o.deep,
      .frames_in_flight = static_cast<uint64_t>(kReadbackRing + RecorderOptions{}.ring_slots),
      .video_frames = video_frame_count(o),
      .fps = o.fps,
      .quality = &o.quality};
  OutputBudget budget;
  budget.add("the image drawn", image, {0, 2 * frame});
  // The float target and the floats read back from it.
  if (outs.deep(o.deep)) budget.add("the deep still drawn", image, {0, 2 * 16 * (frame / 4)});
  for (const Output& f : outs.files) {
    OutputEstimate e = f.format->estimate(shape);
    budget.add("--out " + f.file, std::move(e.because), e.cost);
  }
  if (o.loop_s) {
    const uint64_t held = plan_loop(*o.loop_s, o.fps).fade_frames;
    budget.add("--loop " + json_number(*o.loop_s, 9),
               std::to_string(held) + " frames held for the cross-fade", {0, held * frame});
  }
  if (!o.report.graph.empty()) {
    const uint64_t graph = graph_framing_bound(remake_command(o, preset));
    budget.add("--graph " + o.report.graph, "its framing; its nodes and edges are checked once measured",
               {graph, graph});
  }
  say_gif_sizes(o, outs, size);
  budget.check(o.output_budget);
}

// The encoder for videos of `size` ("auto" when no MP4 is asked for). Throws UsageError for a
// size no encoder here takes, Error without ffmpeg.
std::string checked_video_encoder(const RenderRequest& o, const std::vector<std::string>& videos, Size size) {
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
      const std::string e = encoder_for_format(f, w, h);
      if (f == VideoFormat::Mp4) encoder = e;
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

// --orbit and --slice draw a volume; what reads a plane's field (the field, a deep still, the network
// report) is a plane's alone (`physarum run` writes a volume's .npy, `physarum export` its meshes).
void check_volume_options(const RenderRequest& o, const Outputs& outs, bool volume) {
  if (!volume) {
    if (o.orbit_s)
      throw UsageError("--orbit turns the camera about a volume; this run is a plane (give --size WxHxD)");
    if (!o.slice.empty())
      throw UsageError("--slice " + o.slice + ": cuts a volume; this run is a plane (give --size WxHxD)");
    return;
  }
  if (!o.slice.empty()) (void)parse_slice_option(o.slice);
  for (const Output& f : outs.files) {
    if (f.format->needs == OutputNeeds::Field)
      throw UsageError("--out " + f.file + ": a volume's field is written by physarum run --out FILE.npy");
    if (f.format->needs == OutputNeeds::DeepPicture) {
      throw UsageError("--out " + f.file + ": " + std::string(f.format->extensions[0]) +
                       " stills are of a plane (this run is a volume)");
    }
  }
  const std::pair<bool, std::string> plane_only[] = {
      {o.deep.depth != 8, "--depth " + std::to_string(o.deep.depth) + ": 16-bit stills are of a plane"},
      {o.report.wanted(), "--report and --graph measure a plane's network"},
  };
  for (const auto& [given, why] : plane_only) {
    if (given) throw UsageError(why + " (this run is a volume)");
  }
}

// The image's size, the encoder and the budget checked before any work; then the frames' folders
// are made.
OutputPlan plan_output(const RenderRequest& o, const Outputs& outs) {
  if (o.deep.depth == 16 && !outs.any(OutputNeeds::Picture)) {
    throw UsageError(
        "--depth 16 sets the bits of the .png stills, and no --out names one (a .png such as "
        "print.png; a PNG sequence is 8-bit)");
  }
  OutputPlan plan;
  plan.preset = run::resolve(o.sim, &plan.chosen);
  check_volume_options(o, outs, plan.preset.run.size.volume());
  plan.size = image_size(o, plan.preset.run.size);
  const std::vector<std::string> videos = outs.of(OutputNeeds::Video);
  if (!videos.empty()) plan.encoder = checked_video_encoder(o, videos, plan.size);
  check_output_budget(o, outs, plan.size, plan.preset);
  for (const auto& v : videos) {
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
FrameSteps frame_steps(const RenderRequest& o, uint64_t loop_frames) {
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
uint64_t run_steps(const RenderRequest& o, run::Run& sim, HeadlessRender& out, const FrameSteps& f,
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

void say_written(const RenderRequest& o, const run::Run& s, uint64_t done,
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
std::optional<LoopPlan> checked_loop(const RenderRequest& o, const Outputs& outs) {
  if (!outs.any(OutputNeeds::Video)) {
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
HeadlessOptions headless_options(const RenderRequest& o) {
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
int render_ensemble(const RenderRequest& o) {
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

// Ctrl-C or SIGTERM during the run: the videos so far are finished and kept.
int stopped(HeadlessRender& out, uint64_t done) {
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

// The stills and the field, each by its format's writer: the last frame as drawn (read back before
// the videos finish) and, when a still reads one, drawn once more in float.
void write_files(const RenderRequest& o, const Outputs& outs, const run::Run& sim, HeadlessRender& out,
                 const std::vector<uint8_t>& rgba, Size size) {
  const std::vector<float> deep = outs.deep(o.deep) ? out.draw_deep() : std::vector<float>{};
  const Picture picture{.size = size,
                        .rgba8 = &rgba,
                        .rgba = &deep,
                        .alpha = sim.preset().display.background == Background::Transparent,
                        .deep = o.deep,
                        .comment = "physarum " PHYSARUM_VERSION "; " + remake_command(o, sim.preset())};
  // A volume has no field output (check_volume_options refused them).
  const std::vector<float>& field = out.host_field();
  const OutputSource source{.field = {field.data(), sim.size(), sim.species_count()}, .picture = &picture};
  for (const Output& f : outs.files) {
    if (f.format->write != nullptr) f.format->write(f.file, source);
  }
}

// The run's frames into the videos, then its last frame into the stills, the field and the report.
int render_run(const RenderRequest& o, const Outputs& outs, const OutputPlan& plan,
               const std::optional<LoopPlan>& loop, const FrameSteps& steps) {
  run::Run sim(run::with_base(o.sim, plan.preset));  // the plan's preset: resolved once
  o.say_chosen(plan.chosen);
  HeadlessRender out(headless_options(o), sim, plan.size, "physarum render");
  std::vector<VideoOutput> videos;
  for (const auto& v : outs.of(OutputNeeds::Video))
    videos.push_back({v, video_comment(o, sim.preset(), steps.every, plan.size, v)});
  out.open_recorders(videos, plan.encoder);
  if (loop) out.loop(*loop);
  if (o.from && !o.quiet) {
    std::fprintf(stderr, "physarum render: growing to step %llu without recording, then recording\n",
                 static_cast<unsigned long long>(steps.first));
  }
  uint64_t frames = 0;
  const uint64_t done = run_steps(o, sim, out, steps, frames);
  if (stop_requested()) return stopped(out, done);
  // The last frame's range comes from a host copy, exactly as the CPU colouring computes it.
  if (!out.recording()) {
    out.draw(true);
  } else {
    (void)out.write_frame(true);  // a failed recording throws; the files are counted when finished
  }
  const auto rgba = render::read_framebuffer_rgba(plan.size.width, plan.size.height);
  render::check_gl("rendering headless");
  out.finish_videos();
  write_files(o, outs, sim, out, rgba, plan.size);
  say_written(o, sim, done, out.video_statuses());
  if (o.report.wanted() &&
      !write_render_report(o.report, sim.backend(), sim.preset().environment, out.host_field(), done,
                           "physarum " PHYSARUM_VERSION "; " + remake_command(o, sim.preset()),
                           o.output_budget)) {
    const int sig = stop_signal();
    std::fprintf(stderr, "physarum render: stopped by signal %d during the network report; %s not written\n",
                 sig, (o.report.file.empty() ? o.report.graph : o.report.file).c_str());
    return exit_code_for_signal(sig);
  }
  return kExitOk;
}

}  // namespace

int render(const RenderRequest& o) {
  if (o.ensemble.any()) return render_ensemble(o);
  if (o.outs.empty()) {
    throw UsageError(
        "--out is required: name the picture, video or field to write (a report over many seeds "
        "needs --seeds A..B --report FILE.json)");
  }
  const Outputs outs = checked_outputs(o.outs, o.report);
  const std::optional<LoopPlan> loop = checked_loop(o, outs);
  const FrameSteps steps = frame_steps(o, loop ? loop->rendered_frames() : 0);
  const OutputPlan plan = plan_output(o, outs);
  install_signal_handlers();
  return render_run(o, outs, plan, loop, steps);
}

}  // namespace physarum::app
