#include "window/explore_previews.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "render/colormap.hpp"
#include "run/batch.hpp"
#include "sim/backend.hpp"

namespace physarum::app {

int background_threads() {
  return std::max(1, default_threads() / 2);
}

run::Recipe preview_recipe(const Preset& p, Size size) {
  // The preset's density of agents, so the small picture has the texture of the full one (a
  // volume's per voxel: its picture is a plane of its model, not millions of agents on one).
  const double cells = static_cast<double>(size.width) * size.height;
  const double density = density_of(p.run);
  run::Recipe recipe;
  recipe.base = p;
  recipe.size = std::to_string(size.width) + "x" + std::to_string(size.height);
  recipe.agents = std::to_string(std::max<long long>(1, std::llround(density * cells)));
  return recipe;
}

PreviewImage colour_preview(const std::vector<float>& field, Size size, const Preset& p,
                            const SpeciesSet& species, const render::Palette& palette) {
  PreviewImage img{size.width, size.height, {}};
  const DisplayParams d = render::drawable_display(p.display);
  img.rgba = species.count() > 1 ? render::render_channels_to_rgba(field, img.width, img.height, d, palette,
                                                                   render::channel_colours(species))
                                 : render::render_field_to_rgba(field, img.width, img.height, d, palette);
  return img;
}

std::vector<PreviewImage> render_previews(const std::vector<PreviewAsk>& asks, Size size, int steps,
                                          int threads, const std::string& backend) {
  if (asks.empty()) return {};
  std::vector<run::Recipe> recipes;
  for (const PreviewAsk& a : asks) {
    recipes.push_back(preview_recipe(a.preset, size));
    recipes.back().backend = backend;
  }
  run::Batch batch(recipes, threads);
  batch.step(static_cast<uint64_t>(std::max(0, steps)));
  std::vector<PreviewImage> out;
  std::vector<float> field;
  for (size_t i = 0; i < asks.size(); ++i) {
    batch.read_field(i, field);
    out.push_back(colour_preview(field, size, batch.preset(i), batch.species(i), asks[i].palette));
  }
  return out;
}

PreviewImage render_preview(const Preset& p, const render::Palette& palette, Size size, int steps) {
  // Beside the window's own run: one core.
  return render_previews({{p, palette}}, size, steps, 1, "cpu").front();
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
    jobs_.push_back({id, std::move(job), std::nullopt});
  }
  wake_.notify_all();
}

void PreviewWorker::request(uint64_t id, const Preset& p, const render::Palette& palette) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back({id, {}, PreviewAsk{p, palette}});
  }
  wake_.notify_all();
}

std::vector<PreviewWorker::Done> PreviewWorker::take_done() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, {});
}

void PreviewWorker::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
    if (stop_) return;
    run_front(lock);
  }
}

void PreviewWorker::run_front(std::unique_lock<std::mutex>& lock) {
  std::vector<Waiting> taken;
  do {
    taken.push_back(std::move(jobs_.front()));
    jobs_.pop_front();
  } while (taken.front().ask && !jobs_.empty() && jobs_.front().ask);
  lock.unlock();
  std::vector<PreviewImage> images(taken.size());  // empty ones when it failed: shown without a picture
  try {
    if (taken.front().ask) {
      std::vector<PreviewAsk> asks;
      for (Waiting& w : taken) asks.push_back(std::move(*w.ask));
      images = render_previews(asks, kPreviewSize, kPreviewSteps, background_threads());
    } else {
      images.front() = taken.front().job();
    }
  } catch (const std::exception&) {
    images.assign(taken.size(), PreviewImage{});
  }
  lock.lock();
  for (size_t i = 0; i < taken.size(); ++i) done_.push_back({taken[i].id, std::move(images[i])});
}

}  // namespace physarum::app
