// `physarum render`: runs the simulation headless and draws it with the window's shader into an
// offscreen framebuffer through EGL (no display needed). Outputs by extension: .png (last frame),
// .npy (the field), .mp4 (a frame every --every steps, through the recorder in Wait mode: the
// simulation waits for the encoder, so no frame is ever dropped). Ctrl-C / SIGTERM finalise the
// videos written so far and exit with 128 + signal.
#include <glad/gl.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/sim_options.hpp"
#include "render/egl_context.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "render/palette.hpp"
#include "render/png.hpp"
#include "sim/npy.hpp"
#include "video/process.hpp"
#include "video/progress.hpp"
#include "video/recorder.hpp"
#include "video/signals.hpp"

namespace physarum::app {
namespace {

struct RenderOptions {
  SimOptions sim;
  uint64_t steps = 500;
  std::vector<std::string> outs;
  std::string resolution;  // "WxH"; empty = the field's size
  int every = 0;           // video: a frame every N steps (0 = steps / 300, at least 1)
  int fps = 30;
  bool quiet = false;
};

enum class OutKind { Png, Npy, Video };

OutKind out_kind(const std::string& file) {
  std::string ext = std::filesystem::path(file).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".png") return OutKind::Png;
  if (ext == ".npy") return OutKind::Npy;
  if (ext == ".mp4") return OutKind::Video;
  throw UsageError("--out " + file + ": the extension must be .png, .npy or .mp4");
}

// Refuses an output whose directory is missing before any work is done.
void check_output_dir(const std::string& file) {
  const std::filesystem::path p(file);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error("--out " + file + ": the directory '" + dir.string() + "' does not exist");
  }
  if (std::filesystem::is_directory(p, ec)) throw Error("--out " + file + ": is a directory");
}

// The video's comment tag: what was run and the command that makes the same video again, quoted
// for a shell so it can be pasted as it is.
std::string video_comment(const RenderOptions& o, const Preset& p, uint64_t every, Size out_size,
                          const std::string& out) {
  const SimOptions& s = o.sim;
  std::string preset_name =
      s.preset.empty() ? std::string("built-in defaults") : std::filesystem::path(s.preset).stem().string();
  std::string c = "physarum " PHYSARUM_VERSION "; preset " + preset_name + "; seed " +
                  std::to_string(p.run.seed) + "; size " + format_size(p.run.size) + "; agents " +
                  std::to_string(p.run.agents);
  if (!s.image.empty()) c += "; image " + s.image;
  c += "; made with: physarum render";
  if (!s.preset.empty()) c += " --preset " + shell_quote(s.preset);
  c += " --size " + format_size(p.run.size) + " --agents " + std::to_string(p.run.agents) + " --seed " +
       std::to_string(p.run.seed);
  if (!s.image.empty()) c += " --image " + shell_quote(s.image) + " --image-fit " + shell_quote(s.image_fit);
  for (const auto& set : s.sets) {
    // The resolved size, agents and seed are given above already.
    const std::string key = set.substr(0, set.find('='));
    if (key == "run.size" || key == "run.agents" || key == "run.seed") continue;
    c += " --set " + shell_quote(set);
  }
  c += " --steps " + std::to_string(o.steps) + " --every " + std::to_string(every) + " --fps " +
       std::to_string(o.fps);
  if (!o.resolution.empty()) c += " --resolution " + format_size(out_size);
  // --out=NAME: a name that starts with a dash is still the option's value.
  c += " --out=" + shell_quote(out);
  return c;
}

// An RGBA8 colour target of the output size, bound for drawing while it lives.
struct Target {
  render::Texture color;
  render::Framebuffer fbo;
  Target(int w, int h) : color(render::make_texture_2d(w, h, GL_RGBA8)), fbo(render::make_framebuffer()) {
    glNamedFramebufferTexture(fbo.get(), GL_COLOR_ATTACHMENT0, color.get(), 0);
    if (glCheckNamedFramebufferStatus(fbo.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      throw Error("the offscreen framebuffer is incomplete");
    }
    glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  }
  ~Target() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;
};

int run_render(const RenderOptions& o) {
  std::vector<std::string> pngs, npys, videos;
  for (const auto& f : o.outs) {
    switch (out_kind(f)) {
      case OutKind::Png: pngs.push_back(f); break;
      case OutKind::Npy: npys.push_back(f); break;
      case OutKind::Video: videos.push_back(f); break;
    }
    check_output_dir(f);
  }
  // No ffmpeg, or a video size no encoder here takes: say so before any simulation work.
  const Preset resolved = resolve_preset(o.sim);
  Size out_size = resolved.run.size;
  if (!o.resolution.empty()) {
    try {
      out_size = parse_size(o.resolution);
    } catch (const Error& e) {
      throw UsageError("--resolution " + o.resolution + ": " + e.what());
    }
  }
  std::string video_encoder = "auto";
  if (!videos.empty()) {
    (void)pick_h264_encoder();  // no ffmpeg: its own message
    try {
      video_encoder = encoder_for_size(out_size.width, out_size.height);
    } catch (const Error& e) {
      throw UsageError(std::string("--out ") + videos.front() + ": " + e.what() +
                       (o.resolution.empty() ? "; choose a smaller --resolution" : ""));
    }
    if ((out_size.width | out_size.height) & 1) {
      std::fprintf(stderr,
                   "physarum render: the video is %dx%d (H.264 needs even sides: the last %s cropped)\n",
                   out_size.width & ~1, out_size.height & ~1,
                   (out_size.width & 1) && (out_size.height & 1) ? "column and row are"
                   : (out_size.width & 1)                        ? "column is"
                                                                 : "row is");
    }
  }
  install_signal_handlers();

  Simulation sim = make_simulation(o.sim);
  Backend& b = *sim.backend;
  if (o.resolution.empty()) out_size = b.size();

  render::EglContext egl(b.can_publish());
  std::fprintf(stderr, "physarum render: %s; %s\n", b.name().c_str(), egl.description().c_str());
  render::FieldRenderer renderer;
  const render::PaletteSet palettes = render::load_palettes(render::palette_dir());
  const size_t pi = palettes.index_of(sim.preset.display.palette);
  if (palettes.palettes[pi].name != sim.preset.display.palette) {
    std::string names;
    for (const auto& p : palettes.palettes) names += " " + p.name;
    throw Error("no palette named '" + sim.preset.display.palette + "' in " + render::palette_dir().string() +
                "; there are:" + names);
  }
  renderer.set_palette(palettes.palettes[pi]);
  Target target(out_size.width, out_size.height);
  const render::View view;

  const uint64_t every = o.every > 0 ? static_cast<uint64_t>(o.every) : std::max<uint64_t>(1, o.steps / 300);
  std::vector<std::unique_ptr<Recorder>> recorders;
  for (const auto& v : videos) {
    RecorderOptions ro;
    ro.output = v;
    ro.width = out_size.width;
    ro.height = out_size.height;
    ro.fps = o.fps;
    ro.policy = RingPolicy::Wait;
    ro.bottom_up = true;  // glReadPixels rows, passed as they are
    ro.encoder = video_encoder;
    ro.comment = video_comment(o, sim.preset, every, out_size, v);
    recorders.push_back(std::make_unique<Recorder>(ro));
  }
  // False when a stop request (Ctrl-C) ended the wait for the encoder.
  const auto write_frame = [&](bool host_range) -> bool {
    renderer.update_field(b, host_range);
    renderer.draw(sim.preset.display, view, out_size.width, out_size.height);
    std::vector<uint8_t> rgba(static_cast<size_t>(out_size.width) * out_size.height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, out_size.width, out_size.height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    render::check_gl("reading a video frame");
    for (auto& r : recorders) {
      if (!r->write_rgba(rgba.data(), out_size.width, out_size.height)) {
        if (stop_requested()) return false;  // Ctrl-C ended the wait for the encoder: the loop stops
        // The recorder's message is whole (ffmpeg's reason included) once it has stopped.
        (void)r->stop();
        throw Error("recording " + r->output().string() + " stopped: " + r->error());
      }
    }
    return true;
  };
  // Stops the videos cleanly; a failed one is an error.
  const auto finish_videos = [&] {
    for (auto& r : recorders) {
      if (!r->stop()) throw Error("recording " + r->output().string() + " failed: " + r->error());
    }
  };

  ProgressBar progress(o.steps, !o.quiet);
  uint64_t done = 0, frames = 0;
  // Small chunks keep the progress bar and Ctrl-C responsive; a video needs a frame every `every`.
  const uint64_t chunk_max = recorders.empty() ? 64 : std::min<uint64_t>(every, 64);
  while (done < o.steps) {
    if (stop_requested()) {
      progress.finish();
      if (!recorders.empty()) {
        std::fprintf(stderr, "physarum render: finishing the video (Ctrl-C again ends at once)\n");
      }
      finish_videos();
      const int sig = stop_signal();
      std::fprintf(stderr, "physarum render: stopped by signal %d after %llu steps; %llu video frames kept\n",
                   sig, static_cast<unsigned long long>(done), static_cast<unsigned long long>(frames));
      return exit_code_for_signal(sig);
    }
    const uint64_t to_frame = every - done % every;
    const uint64_t chunk = std::min({chunk_max, to_frame, o.steps - done});
    b.step(static_cast<int>(chunk));
    done += chunk;
    if (!recorders.empty() && done < o.steps && done % every == 0) {
      // Quantile cave levels come only from a host copy (with interop the field is on the GPU).
      if (write_frame(sim.preset.display.cave == CaveMode::Quantile)) ++frames;
    }
    progress.update(done, frames);
  }
  progress.finish();
  // The last frame's range comes from a host copy, exactly as the CPU colouring computes it.
  if (!recorders.empty()) {
    if (write_frame(true)) ++frames;
  } else {
    renderer.update_field(b, true);
    renderer.draw(sim.preset.display, view, out_size.width, out_size.height);
  }
  const auto rgba = render::read_framebuffer_rgba(out_size.width, out_size.height);
  render::check_gl("rendering headless");
  finish_videos();
  for (const auto& f : pngs) render::write_png_rgba(f, rgba.data(), out_size.width, out_size.height);
  const auto& field = renderer.host_field();
  for (const auto& f : npys) write_npy(f, field.data(), b.size().height, b.size().width, b.species_count());
  for (const auto& f : o.outs) {
    if (out_kind(f) == OutKind::Video) {
      std::printf("physarum render: wrote %s (%llu frames at %d fps)\n", f.c_str(),
                  static_cast<unsigned long long>(frames), o.fps);
    } else {
      std::printf("physarum render: wrote %s\n", f.c_str());
    }
  }
  std::printf("physarum render: %llu steps of %s agents on %dx%d with %s\n",
              static_cast<unsigned long long>(done), format_count(b.agent_count()).c_str(), b.size().width,
              b.size().height, b.name().c_str());
  return kExitOk;
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
  cmd->add_option("--out", o->outs, "Output file: .png (last frame), .npy (field), .mp4 (video); repeatable")
      ->type_name("FILE")
      ->required();
  cmd->add_option("--resolution", o->resolution, "Image size (default: the field's size, one pixel per cell)")
      ->type_name("WxH");
  cmd->add_option("--every", o->every, "Video: one frame every N steps (default: steps / 300)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--fps", o->fps, "Video frame rate")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 240));
  cmd->add_flag("-q,--quiet", o->quiet, "No progress bar on stderr");
  return [o] { return run_render(*o); };
}

}  // namespace physarum::app
