// `physarum render`: runs the simulation headless and draws it with the window's shader into an
// offscreen framebuffer through EGL (no display needed). Outputs by extension: .png (last frame),
// .npy (the field), .mp4 (a frame every --every steps, through a FrameSink).
#include <glad/gl.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frame_sink.hpp"
#include "render/egl_context.hpp"
#include "render/field_renderer.hpp"
#include "render/gl_objects.hpp"
#include "render/palette.hpp"
#include "render/png.hpp"
#include "sim/npy.hpp"
#include "sim_options.hpp"

namespace physarum::app {
namespace {

struct RenderOptions {
  SimOptions sim;
  uint64_t steps = 500;
  std::vector<std::string> outs;
  std::string resolution;  // "WxH"; empty = the field's size
  int every = 0;           // video: a frame every N steps (0 = steps / 300, at least 1)
  int fps = 30;
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

// The hook for video: the recorder (app/recorder.hpp) provides a FrameSink that pipes RGBA frames
// to ffmpeg. Until it is part of the build, .mp4 is refused before any work is done.
std::unique_ptr<FrameSink> open_video_sink(const std::string& file, int w, int h, int fps) {
  (void)w, (void)h, (void)fps;
  throw UsageError("--out " + file + ": MP4 output is not part of this build yet; use .png or .npy");
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
  }
  Simulation sim = make_simulation(o.sim);
  Backend& b = *sim.backend;
  Size out_size = b.size();
  if (!o.resolution.empty()) {
    try {
      out_size = parse_size(o.resolution);
    } catch (const Error& e) {
      throw UsageError("--resolution " + o.resolution + ": " + e.what());
    }
  }

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

  std::vector<std::unique_ptr<FrameSink>> sinks;
  for (const auto& v : videos) sinks.push_back(open_video_sink(v, out_size.width, out_size.height, o.fps));
  const uint64_t every = o.every > 0 ? static_cast<uint64_t>(o.every) : std::max<uint64_t>(1, o.steps / 300);

  uint64_t done = 0;
  while (done < o.steps) {
    const uint64_t chunk = std::min<uint64_t>(sinks.empty() ? 64 : every, o.steps - done);
    b.step(static_cast<int>(chunk));
    done += chunk;
    if (!sinks.empty() && done < o.steps) {
      renderer.update_field(b, false);
      renderer.draw(sim.preset.display, view, out_size.width, out_size.height);
      const auto rgba = render::read_framebuffer_rgba(out_size.width, out_size.height);
      for (auto& s : sinks) s->write_rgba(rgba.data(), out_size.width, out_size.height);
    }
  }
  // The last frame's range comes from a host copy, exactly as the CPU colouring computes it.
  renderer.update_field(b, true);
  renderer.draw(sim.preset.display, view, out_size.width, out_size.height);
  const auto rgba = render::read_framebuffer_rgba(out_size.width, out_size.height);
  render::check_gl("rendering headless");
  for (auto& s : sinks) s->write_rgba(rgba.data(), out_size.width, out_size.height);
  sinks.clear();  // finishes the videos
  for (const auto& f : pngs) render::write_png_rgba(f, rgba.data(), out_size.width, out_size.height);
  const auto& field = renderer.host_field();
  for (const auto& f : npys) write_npy(f, field.data(), b.size().height, b.size().width);
  for (const auto& f : o.outs) std::printf("physarum render: wrote %s\n", f.c_str());
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
      ->check(CLI::Range(0, 100'000'000));
  cmd->add_option("--out", o->outs, "Output file: .png (last frame), .npy (field), .mp4 (video); repeatable")
      ->type_name("FILE")
      ->required();
  cmd->add_option("--resolution", o->resolution, "Image size (default: the field's size, one pixel per cell)")
      ->type_name("WxH");
  cmd->add_option("--every", o->every, "Video: one frame every N steps (default: steps / 300)")
      ->type_name("N")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--fps", o->fps, "Video frame rate")->capture_default_str()->check(CLI::Range(1, 240));
  return [o] { return run_render(*o); };
}

}  // namespace physarum::app
