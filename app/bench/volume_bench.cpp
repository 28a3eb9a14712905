#include "bench/volume_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_device.hpp"
#include "bench/bench_estimate.hpp"
#include "run/recipe.hpp"
#include "sim/elapsed.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

void add_stages(StageTimings& sum, const StageTimings& t, int of) {
  sum.agents_ms += t.agents_ms / of;
  sum.field_ms += t.field_ms / of;
  sum.sort_ms += t.sort_ms / of;
  sum.samples += t.samples;
}

struct VolumeRow {
  std::string backend;
  VolumeConfig c;
  int steps = 0;
  double ms = 0;
  StageTimings stages;
  bool stages_of_timed_steps = false;  // they partition the timed steps (the CPU): "other" is the rest
};

void print_volume_row(const VolumeRow& r, double copy_gbs, bool json) {
  const VolumeConfig& c = r.c;
  const StageTimings& st = r.stages;
  const double ms = r.ms;
  const double voxels = static_cast<double>(c.size.width) * c.size.height * c.size.depth;
  const double bytes = 24.0 * static_cast<double>(c.agents) + 16.0 * voxels;
  const double gas = static_cast<double>(c.agents) / (ms * 1e-3) / 1e9;
  const double pct = copy_gbs > 0 ? 100.0 * bytes / (ms * 1e-3) / 1e9 / copy_gbs : 0.0;
  const double other = ms - st.agents_ms - st.field_ms - st.sort_ms;
  if (json) {
    const auto num = [](double x) { return json_number(x, 6); };
    std::printf("%s\n", ("{\"backend\":" + json_string(r.backend) + ",\"width\":" +
                         std::to_string(c.size.width) + ",\"height\":" + std::to_string(c.size.height) +
                         ",\"depth\":" + std::to_string(c.size.depth) +
                         ",\"agents\":" + std::to_string(c.agents) + ",\"steps\":" + std::to_string(r.steps) +
                         ",\"ms_per_step\":" + num(ms) + ",\"gagent_steps_per_s\":" + num(gas) +
                         ",\"pct_of_streaming_bound\":" + num(pct) + ",\"agents_ms\":" + num(st.agents_ms) +
                         ",\"field_ms\":" + num(st.field_ms) + ",\"sort_ms\":" + num(st.sort_ms) +
                         (r.stages_of_timed_steps ? ",\"other_ms\":" + num(other) : std::string()) + "}")
                            .c_str());
  } else {
    char other_cell[32] = "-";
    if (r.stages_of_timed_steps) std::snprintf(other_cell, sizeof other_cell, "%.4f", other);
    std::printf("%-28s %15s %7s %10s %12s %8s %9s %9s %9s %9s\n", "backend", "size", "agents", "ms/step",
                "Gagent-st/s", "%bound", "agents", "field", "sort", "other");
    std::printf("%-28s %15s %7s %10.4f %12.4g %7.1f%% %9.4f %9.4f %9.4f %9s\n", r.backend.c_str(),
                format_size(c.size).c_str(), format_count(c.agents).c_str(), ms, gas, pct, st.agents_ms,
                st.field_ms, st.sort_ms, other_cell);
  }
}

}  // namespace

bool is_volume_size(const std::string& size) {
  return std::count(size.begin(), size.end(), 'x') + std::count(size.begin(), size.end(), 'X') == 2;
}

int run_volume_bench(const VolumeBenchOptions& o) {
  VolumeConfig c;
  std::unique_ptr<Volume> v;
  try {
    c.size = parse_size(o.size);
    c.agents = o.agents.empty() ? 1'000'000 : parse_count(o.agents);
    c.seed = o.seed;
    c.threads = o.threads;
    c.model.turn_rule = TurnRule::Jones;  // Jones in 3D, the ring of 4: the case the targets name
    v = create_volume(parse_backend_kind(o.backend), c);
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error& e) {
    throw run::UsageError(e.what());
  }
  const bool cuda = v->kind() == BackendKind::Cuda;
  const int steps = o.steps > 0 ? o.steps : (cuda ? 200 : 5);
  std::fprintf(stderr, "physarum bench: %s, %s voxels with %s agents\n", v->name().c_str(),
               format_size(c.size).c_str(), format_count(c.agents).c_str());
  const double copy_gbs = copy_bandwidth_gbs(cuda);
  std::vector<float> sync;
  const std::string what = format_size(c.size) + " voxels with " + format_count(c.agents) + " agents";
  (void)warm_up_announcing(what, static_cast<uint64_t>(o.warmup),
                           static_cast<uint64_t>(steps) + (cuda ? 32 : 0),
                           cuda ? "timed and sampled steps" : "timed steps", [&](uint64_t k) {
                             v->step(static_cast<int>(k));
                             finish_device(cuda);
                           });
  StageTimings st;
  double ms = 0;
  if (cuda) {
    v->read_field(sync);
    const auto t0 = std::chrono::steady_clock::now();
    v->step(steps);
    v->read_field(sync);
    ms = ms_since(t0) / steps;  // the read-back of one field is part of the last step's time
    // The stages, from more steps timed one by one: 32, which hold one or two regroupings (every 16
    // or 32 steps), so each stage is its average share of a step.
    constexpr int kTimed = 32;
    for (int i = 0; i < kTimed; ++i) add_stages(st, v->timed_step(), kTimed);
  } else {
    // The CPU steps synchronously: the timed steps are timed stage by stage, so the stages are
    // theirs and partition the step ("other": the rest).
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) add_stages(st, v->timed_step(), steps);
    ms = ms_since(t0) / steps;
  }
  VolumeRow r{v->name(), c, steps, ms, st, !cuda};
  print_volume_row(r, copy_gbs, o.json);
  return run::kExitOk;
}

}  // namespace physarum::app
