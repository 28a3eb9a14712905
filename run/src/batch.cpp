#include "run/batch.hpp"

#include <algorithm>
#include <exception>

#include "sim/text.hpp"

namespace physarum::run {
namespace {

struct Resolved {
  std::vector<Preset> presets;
  std::vector<SimConfig> configs;
  std::string refusal;  // why not one CUDA batch, "" when it can be
};

std::string world_refusal(const Recipe& r, const Preset& p, size_t i) {
  const std::string which = "world " + std::to_string(i);
  if (backend_kind(r) == BackendKind::Cpu) return which + " asks for the CPU";
  if (r.picture.has_value() || !r.image.empty()) return which + " is seeded from an image";
  if (!p.keyframes.empty()) return which + " has keyframes";
  if (!p.environment.food.empty() || !p.environment.walls.empty() || p.environment.boundary != Boundary::Wrap)
    return which + " has food or walls";
  return "";
}

Resolved resolve_all(const std::vector<Recipe>& recipes) {
  Resolved out;
  for (size_t i = 0; i < recipes.size(); ++i) {
    out.presets.push_back(resolve(recipes[i]));
    out.configs.push_back(config_from(out.presets.back(), recipes[i].threads));
    if (out.refusal.empty()) out.refusal = world_refusal(recipes[i], out.presets.back(), i);
  }
  if (recipes.size() < 2 && out.refusal.empty()) out.refusal = "one world is a run of its own";
  // Worlds that only outnumber one batch's limits are split into several (make_groups).
  if (out.refusal.empty()) out.refusal = physarum::batch_mismatch(out.configs);
  if (out.refusal.empty() && cuda_device().empty()) out.refusal = "no CUDA device";
  return out;
}

}  // namespace

std::string batch_refusal(const std::vector<Recipe>& recipes) {
  return resolve_all(recipes).refusal;
}

Batch::Batch(const std::vector<Recipe>& recipes, int threads) {
  Resolved r = resolve_all(recipes);
  presets_ = std::move(r.presets);
  if (r.refusal.empty()) {
    make_groups(r.configs);
  } else {
    make_runs(recipes, r.refusal, threads);
  }
}

// As many worlds a batch as its limits allow; a batch that does not fit in the GPU's memory is
// split in two until it does.
void Batch::make_groups(const std::vector<SimConfig>& configs) {
  for (const SimConfig& c : configs) species_.push_back(resolve_species(c.species, c.model, c.spawn.mode));
  size_t per = std::min(configs.size(), max_batch_worlds(configs.front()));
  for (;;) {
    try {
      groups_.clear();
      for (size_t first = 0; first < configs.size(); first += per) {
        const auto last = static_cast<std::ptrdiff_t>(std::min(configs.size(), first + per));
        groups_.push_back(create_cuda_batch(std::vector<SimConfig>(
            configs.begin() + static_cast<std::ptrdiff_t>(first), configs.begin() + last)));
      }
      break;
    } catch (const OutOfMemoryError&) {
      if (per == 1) throw;
      per /= 2;
    }
  }
  group_size_ = per;
  note_ = groups_.front()->name();
  if (groups_.size() > 1) note_ += " (" + std::to_string(groups_.size()) + " batches)";
}

size_t worlds_a_batch(const Preset& p) {
  const uint64_t world =
      static_cast<uint64_t>(p.run.size.width) * static_cast<uint64_t>(p.run.size.height) + p.run.agents;
  return static_cast<size_t>(std::max<uint64_t>(1, (uint64_t{1} << 27) / std::max<uint64_t>(world, 1)));
}

int side_by_side_lanes(const std::vector<Recipe>& recipes, int threads) {
  const bool no_device = cuda_device().empty();  // asked once: each ask queries the driver
  const bool cpu = std::all_of(recipes.begin(), recipes.end(), [no_device](const Recipe& r) {
    return backend_kind(r) == BackendKind::Cpu || (backend_kind(r) == BackendKind::Auto && no_device);
  });
  const bool all_threads =
      std::all_of(recipes.begin(), recipes.end(), [](const Recipe& r) { return r.threads == 0; });
  // A small world's step is too short to share among threads; a run is the same bytes at every
  // thread count (docs/MODEL.md, "Determinism"), so CPU worlds run one thread each, side by side.
  const int cores = threads > 0 ? std::min(threads, default_threads()) : default_threads();
  if (!cpu || !all_threads || recipes.size() < 2 || cores < 2) return 0;
  return std::min(static_cast<int>(recipes.size()), cores);
}

void Batch::make_runs(const std::vector<Recipe>& recipes, const std::string& why, int threads) {
  lanes_ = side_by_side_lanes(recipes, threads);
  for (const Recipe& r : recipes) {
    Recipe one = r;
    if (lanes_ > 0) {
      one.threads = 1;
    } else if (one.threads == 0 && threads > 0) {
      one.threads = threads;
    }
    runs_.push_back(std::make_unique<Run>(one));
    species_.push_back(runs_.back()->backend().species());
  }
  if (lanes_ > 0) {
    note_ = "cpu, " + std::to_string(recipes.size()) + " worlds side by side on " + std::to_string(lanes_) +
            " threads";
  } else if (runs_.size() == 1) {
    note_ = runs_.front()->backend().name();
  } else {
    note_ = "one after another on " + runs_.front()->backend().name() + ": " + why;
  }
}

StageTimings Batch::timings() {
  return batched() ? groups_.front()->timings() : StageTimings{};
}

std::string Batch::backend_name() const {
  if (batched()) {
    const std::string n = groups_.front()->name();
    return n.substr(0, n.find(", "));
  }
  return runs_.front()->backend().name();
}

void Batch::step(uint64_t n) {
  if (n == 0) return;
  if (batched()) {
    for (uint64_t left = n; left > 0;) {
      const int k = static_cast<int>(std::min<uint64_t>(left, 1U << 20));
      for (auto& g : groups_) g->step(k);
      left -= static_cast<uint64_t>(k);
    }
  } else if (lanes_ == 0) {
    for (auto& r : runs_) r->step(n);
  } else {
    std::exception_ptr failed;
    const auto count = static_cast<int64_t>(runs_.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(lanes_)
    for (int64_t i = 0; i < count; ++i) {
      try {
        runs_[static_cast<size_t>(i)]->step(n);
      } catch (...) {
#pragma omp critical(physarum_batch_failed)
        if (!failed) failed = std::current_exception();
      }
    }
    if (failed) std::rethrow_exception(failed);
  }
  steps_ += n;
}

void Batch::read_field(size_t i, std::vector<float>& out) {
  if (batched()) {
    groups_.at(i / group_size_)->read_field(static_cast<int>(i % group_size_), out);
  } else {
    runs_.at(i)->backend().read_field(out);
  }
}

AgentState Batch::read_agents(size_t i) {
  if (batched()) return groups_.at(i / group_size_)->read_agents(static_cast<int>(i % group_size_));
  return runs_.at(i)->backend().read_agents();
}

void Batch::set_agents(size_t i, const AgentState& agents) {
  if (batched()) {
    groups_.at(i / group_size_)->set_agents(static_cast<int>(i % group_size_), agents);
  } else {
    runs_.at(i)->backend().set_agents(agents);
  }
}

void Batch::set_field(size_t i, const std::vector<float>& values) {
  if (batched()) {
    groups_.at(i / group_size_)->set_field(static_cast<int>(i % group_size_), values);
  } else {
    runs_.at(i)->backend().set_field(values, kAllChannels);
  }
}

void Batch::read_food(size_t i, std::vector<float>& out) const {
  if (batched()) {  // batched worlds have no environment: no food anywhere
    const Size s = size(i);
    out.assign(static_cast<size_t>(s.width) * static_cast<size_t>(s.height), 0.0f);
  } else {
    runs_.at(i)->backend().read_food(out);
  }
}

void Batch::read_walls(size_t i, std::vector<uint8_t>& out) const {
  if (batched()) {
    const Size s = size(i);
    out.assign(static_cast<size_t>(s.width) * static_cast<size_t>(s.height), 0);
  } else {
    runs_.at(i)->backend().read_walls(out);
  }
}

}  // namespace physarum::run
