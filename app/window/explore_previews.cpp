#include "window/explore_previews.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "render/colormap.hpp"
#include "run/run.hpp"

namespace physarum::app {

PreviewImage render_preview(const Preset& p, const render::Palette& palette, Size size, int steps) {
  // The preset's density of agents, so the small picture has the texture of the full one.
  const double cells = static_cast<double>(size.width) * size.height;
  const double density = static_cast<double>(p.run.agents) /
                         (static_cast<double>(p.run.size.width) * static_cast<double>(p.run.size.height));
  run::Recipe recipe;
  recipe.base = p;
  recipe.size = std::to_string(size.width) + "x" + std::to_string(size.height);
  recipe.agents = std::to_string(std::max<long long>(1, std::llround(density * cells)));
  recipe.backend = "cpu";
  recipe.threads = 1;  // beside the window's own run: one core
  run::Run r(recipe);
  r.step(static_cast<uint64_t>(std::max(0, steps)));
  std::vector<float> field;
  r.backend().read_field(field);
  PreviewImage img{size.width, size.height, {}};
  const DisplayParams d = render::drawable_display(r.preset().display);
  img.rgba = r.backend().species_count() > 1
                 ? render::render_channels_to_rgba(field, img.width, img.height, d, palette,
                                                   render::channel_colours(r.backend().species()))
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

void PreviewWorker::request(uint64_t id, Job job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.emplace_back(id, std::move(job));
  }
  wake_.notify_all();
}

void PreviewWorker::request(uint64_t id, const Preset& p, const render::Palette& palette) {
  request(id, [p, palette] { return render_preview(p, palette); });
}

std::vector<PreviewWorker::Done> PreviewWorker::take_done() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, {});
}

void PreviewWorker::run() {
  for (;;) {
    std::pair<uint64_t, Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    PreviewImage img;
    try {
      img = job.second();
    } catch (const std::exception&) {
      img = {};  // an empty image: the caller shows the entry without a picture
    }
    std::lock_guard lock(mutex_);
    done_.push_back({job.first, std::move(img)});
  }
}

}  // namespace physarum::app
