#include "cli/volume_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "cli/bench_device.hpp"
#include "run/recipe.hpp"
#include "sim/elapsed.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "video/signals.hpp"

namespace physarum::app {

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
  step_in_slices(static_cast<uint64_t>(o.warmup), [&](uint64_t k) { v->step(static_cast<int>(k)); });
  std::vector<float> sync;
  v->read_field(sync);  // waits for the warm-up's work
  const auto t0 = std::chrono::steady_clock::now();
  v->step(steps);
  v->read_field(sync);
  const double ms = ms_since(t0) / steps;  // the read-back of one field is part of the last step's time
  // The stages, from more steps timed one by one: on CUDA 32, which hold one or two regroupings
  // (every 16 or 32 steps), so each stage is its average share of a step.
  StageTimings st;
  const int timed = cuda ? 32 : 1;
  for (int i = 0; i < timed; ++i) {
    const StageTimings t = v->timed_step();
    st.agents_ms += t.agents_ms / timed;
    st.field_ms += t.field_ms / timed;
    st.sort_ms += t.sort_ms / timed;
  }
  const double voxels = static_cast<double>(c.size.width) * c.size.height * c.size.depth;
  const double bytes = 24.0 * static_cast<double>(c.agents) + 16.0 * voxels;
  const double gas = static_cast<double>(c.agents) / (ms * 1e-3) / 1e9;
  const double pct = copy_gbs > 0 ? 100.0 * bytes / (ms * 1e-3) / 1e9 / copy_gbs : 0.0;
  if (o.json) {
    const auto num = [](double x) { return json_number(x, 6); };
    std::printf("%s\n", ("{\"backend\":" + json_string(v->name()) + ",\"width\":" +
                         std::to_string(c.size.width) + ",\"height\":" + std::to_string(c.size.height) +
                         ",\"depth\":" + std::to_string(c.size.depth) +
                         ",\"agents\":" + std::to_string(c.agents) + ",\"steps\":" + std::to_string(steps) +
                         ",\"ms_per_step\":" + num(ms) + ",\"gagent_steps_per_s\":" + num(gas) +
                         ",\"pct_of_streaming_bound\":" + num(pct) + ",\"agents_ms\":" + num(st.agents_ms) +
                         ",\"field_ms\":" + num(st.field_ms) + ",\"sort_ms\":" + num(st.sort_ms) + "}")
                            .c_str());
  } else {
    std::printf("%-28s %15s %7s %10s %12s %8s %9s %9s %9s\n", "backend", "size", "agents", "ms/step",
                "Gagent-st/s", "%bound", "agents", "field", "sort");
    std::printf("%-28s %15s %7s %10.4f %12.3f %7.1f%% %9.4f %9.4f %9.4f\n", v->name().c_str(),
                format_size(c.size).c_str(), format_count(c.agents).c_str(), ms, gas, pct, st.agents_ms,
                st.field_ms, st.sort_ms);
  }
  return run::kExitOk;
}

}  // namespace physarum::app
