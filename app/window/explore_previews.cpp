#include "window/explore_previews.hpp"

#include <utility>

#include "render/colormap.hpp"
#include "sim/backend.hpp"

namespace physarum::app {

PreviewImage render_preview(const Preset& p, const render::Palette& palette) {
  Preset small = p;
  small.keyframes.clear();
  small.run.size = kPreviewSize;
  small.run.agents = static_cast<uint64_t>(kPreviewSize.width) * static_cast<uint64_t>(kPreviewSize.height);
  auto b = create_backend(BackendKind::Cpu, config_from(small, 1));
  b->step(kPreviewSteps);
  std::vector<float> field;
  b->read_field(field);
  PreviewImage img{kPreviewSize.width, kPreviewSize.height, {}};
  const DisplayParams d = render::drawable_display(small.display);
  img.rgba = b->species_count() > 1
                 ? render::render_channels_to_rgba(field, img.width, img.height, d, palette,
                                                   render::channel_colours(b->species()))
                 : render::render_field_to_rgba(field, img.width, img.height, d, palette);
  return img;
}

PreviewWorker::PreviewWorker() : thread_([this] { run(); }) {}

PreviewWorker::~PreviewWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    jobs_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

void PreviewWorker::request(uint64_t id, const Preset& p, const render::Palette& palette) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back({id, p, palette});
  }
  wake_.notify_all();
}

std::vector<PreviewWorker::Done> PreviewWorker::take_done() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, {});
}

void PreviewWorker::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    PreviewImage img;
    try {
      img = render_preview(job.preset, job.palette);
    } catch (const std::exception&) {
      img = {};  // an empty image: the strip shows the draw without a picture
    }
    std::lock_guard lock(mutex_);
    done_.push_back({job.id, std::move(img)});
  }
}

}  // namespace physarum::app
