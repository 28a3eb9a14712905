#include "headless/headless_render.hpp"

#include <glad/gl.h>

#include <chrono>
#include <cstdio>
#include <variant>

#include "render/gl_objects.hpp"
#include "render/view.hpp"
#include "sim/keyframes.hpp"
#include "system/signals.hpp"

namespace physarum::app {

void check_keyframed_palettes(const Preset& p, const render::PaletteSet& palettes) {
  for (size_t i = 0; i < p.keyframes.size(); ++i) {
    for (const KeyframeValue& v : p.keyframes[i].values) {
      if (v.key != "display.palette") continue;
      try {
        (void)render::palette_named(palettes, std::get<std::string>(v.value));
      } catch (const Error& e) {
        throw Error("keyframe." + std::to_string(i) + "." + v.key + ": " + e.what());
      }
    }
  }
}

bool RecorderFanOut::write_rgba(const uint8_t* rgba, int width, int height) {
  for (size_t i = 0; i < recorders_.size() && !failed_; ++i) {
    if (!recorders_[i]->write_rgba(rgba, width, height)) failed_ = i;
  }
  return !failed_;
}

HeadlessRender::HeadlessRender(const HeadlessOptions& o, run::Run& sim, Size out, const char* command)
    : o_(o), sim_(sim), b_(sim.world().plane()), out_(out), picture_(sim.kind() == BackendKind::Cuda) {
  std::fprintf(stderr, "%s: %s; %s\n", command, sim.name().c_str(), picture_.description().c_str());
  check_keyframed_palettes(sim.preset(), picture_.palettes());
  (void)picture_.palette(sim.preset().display.palette);  // a missing one stops here, named
  picture_.plane().set_bicubic(true);  // only where a cell covers more than one pixel (--resolution 4x)
  if (!b_) volume_.emplace(sim, o.slice, o.orbit_s, o.fps);
  target_.emplace(out.width, out.height);
}

void HeadlessRender::open_recorders(const std::vector<VideoOutput>& videos, const std::string& encoder) {
  for (const VideoOutput& v : videos) {
    RecorderOptions ro;
    ro.output = v.file;
    ro.alpha = sim_.preset().display.background == Background::Transparent;
    ro.width = out_.width;
    ro.height = out_.height;
    ro.fps = o_.fps;
    ro.policy = RingPolicy::Wait;
    ro.bottom_up = true;  // glReadPixels rows, passed as they are
    ro.encoder = encoder;
    ro.stop_limit = std::chrono::seconds(o_.video_stop_limit_s);
    ro.comment = v.comment;
    ro.quality = o_.quality;
    recorders_.push_back(std::make_unique<Recorder>(ro));
  }
}

bool HeadlessRender::write_frame(bool host_range) {
  draw(host_range);
  ++frame_;
  readback_.start_lossless(out_.width, out_.height, sink());
  render::check_gl("reading a video frame");
  readback_.deliver(sink(), false);  // the reads that have finished meanwhile
  return recorders_ok();
}

void HeadlessRender::draw(bool host_range) {
  render::FieldRenderer& plane = picture_.plane();
  if (palette_.update(picture_.palettes(), sim_.preset(), sim_.steps_done())) {
    plane.set_palette(palette_.current());
    if (volume_) volume_->set_palette(palette_.current());
  }
  if (volume_) {
    volume_->draw(sim_.preset().display, out_, frame_, host_range);
    return;
  }
  plane.update_field(*b_, host_range);
  plane.draw(sim_.preset().display, render::View{}, out_.width, out_.height);
}

std::vector<float> HeadlessRender::draw_deep() {
  render::OffscreenTarget deep(out_.width, out_.height, GL_RGBA32F);
  draw(true);
  std::vector<float> rgba = render::read_framebuffer_rgba_float(out_.width, out_.height);
  render::check_gl("drawing the deep still");
  return rgba;
}

void HeadlessRender::finish_videos() {
  readback_.deliver(sink(), true);
  if (!stop_requested()) (void)recorders_ok();
  for (auto& r : recorders_) {
    if (!r->stop()) throw Error("recording " + r->output().string() + " failed: " + r->error());
  }
}

std::map<std::string, RecorderStatus> HeadlessRender::video_statuses() const {
  std::map<std::string, RecorderStatus> s;
  for (const auto& r : recorders_) s[r->output().string()] = r->status();
  return s;
}

bool HeadlessRender::recorders_ok() {
  const std::optional<size_t> failed = fan_out_.failed();
  if (!failed) return true;
  if (stop_requested()) return false;  // Ctrl-C ended the wait for the encoder: the loop stops
  Recorder& r = *recorders_[*failed];
  // The recorder's message is whole (ffmpeg's reason included) once it has stopped.
  (void)r.stop();
  throw Error("recording " + r.output().string() + " stopped: " + r.error());
}

}  // namespace physarum::app
