#include "bench/worlds_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_device.hpp"
#include "bench/bench_estimate.hpp"
#include "run/batch.hpp"
#include "run/recipe.hpp"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/elapsed.hpp"
#include "sim/json_text.hpp"
#include "sim/text.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using Clock = std::chrono::steady_clock;

struct WorldsCase {
  int worlds;
  Size size;
  uint64_t agents;
};

// The default sweep: 1, 16, 64 and 256 worlds of 256x256 with 20K agents, 64 of 512x512 with 100K.
std::vector<WorldsCase> cases_for(const WorldsBenchOptions& o) {
  const Size size = o.size.empty() ? Size{256, 256} : parse_size(o.size);
  const uint64_t agents = o.agents.empty() ? 20'000 : parse_count(o.agents);
  std::vector<WorldsCase> v;
  if (!o.worlds.empty()) {
    for (int b : o.worlds) v.push_back({b, size, agents});
    return v;
  }
  for (int b : {1, 16, 64, 256}) v.push_back({b, size, agents});
  if (o.size.empty() && o.agents.empty()) v.push_back({64, Size{512, 512}, 100'000});
  return v;
}

// World b of a case: the model `bench` times (the defaults, or --preset's), at one of 16 x 16 pairs
// of sensor and rotation angles as an atlas sweeps them, with its own seed.
run::Recipe world_recipe(const WorldsBenchOptions& o, const WorldsCase& c, int b) {
  run::Recipe r;
  r.preset = o.preset;
  r.backend = o.backend;
  r.size = format_size(c.size);
  r.agents = std::to_string(c.agents);
  r.seed = o.seed + static_cast<uint32_t>(b);
  r.sets = {"model.sensor_angle_deg=" + std::to_string(10 + 7 * (b % 16)),
            "model.rotation_angle_deg=" + std::to_string(10 + 7 * ((b / 16) % 16))};
  return r;
}

void finish(bool cuda) {
  finish_device(cuda);
}

constexpr int kStageSteps = 64;

std::string case_words(const WorldsCase& c) {
  return std::to_string(c.worlds) + (c.worlds == 1 ? " world of " : " worlds of ") + format_size(c.size) +
         " with " + format_count(c.agents) + " agents";
}

// Milliseconds a step of the whole batch, after the warm-up (a long case says how long first).
double batch_ms(run::Batch& batch, const WorldsBenchOptions& o, const WorldsCase& c, int steps, bool cuda) {
  const uint64_t after = static_cast<uint64_t>(steps) + (batch.batched() ? kStageSteps : 0);
  (void)warm_up_announcing(case_words(c) + " as a batch", static_cast<uint64_t>(o.warmup), after,
                           "timed steps", [&](uint64_t k) {
                             batch.step(k);
                             finish(cuda);
                           });
  const auto t0 = Clock::now();
  batch.step(static_cast<uint64_t>(steps));
  finish(cuda);
  return ms_since(t0) / steps;
}

// Per-stage times of a batch from 64 single steps (the CUDA batch times one call in 8 stage by
// stage); none (samples 0) for worlds that are not batched.
StageTimings batch_stages(run::Batch& batch, bool cuda) {
  if (!batch.batched()) return {};
  for (int i = 0; i < kStageSteps; ++i) {
    batch.step(1);
    finish(cuda);
  }
  return batch.timings();
}

// Milliseconds a step of one world alone on the whole backend, the mean over up to 8 of the worlds
// (each warmed up and timed as the batch is): the worlds one after another take B times that.
double alone_ms(const std::vector<run::Recipe>& recipes, const WorldsBenchOptions& o, int steps, bool cuda) {
  const size_t n = std::min<size_t>(recipes.size(), 8);
  const auto per_world = static_cast<uint64_t>(o.warmup) + static_cast<uint64_t>(steps);
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    run::Run one(recipes[i * (recipes.size() / n)]);
    // The first world's warm-up prices all of them: a long wait is said.
    const uint64_t after = static_cast<uint64_t>(steps) + (n - 1) * per_world;
    const auto warm = [&](uint64_t k) {
      one.step(k);
      finish(cuda);
    };
    if (i == 0) {
      (void)warm_up_announcing(std::to_string(n) + (n == 1 ? " world" : " worlds") + " alone, in turn",
                               static_cast<uint64_t>(o.warmup), after, "more steps", warm);
    } else {
      step_in_slices(static_cast<uint64_t>(o.warmup), warm);
    }
    const auto t0 = Clock::now();
    one.step(static_cast<uint64_t>(steps));
    finish(cuda);
    sum += ms_since(t0) / steps;
    throw_if_stopped();
  }
  return sum / static_cast<double>(n);
}

struct WorldsRow {
  std::string how;
  WorldsCase c{};
  double ms = 0;          // a step of the batch
  double alone = 0;       // a step of one world alone
  bool same_run = false;  // one world not batched: the batch is that world alone, timed once
  StageTimings stages;
};

// A stage time for the table, "-" where none was taken (worlds that are not batched).
std::string stage_cell(double ms, bool measured) {
  char text[32];
  if (!measured) return "-";
  std::snprintf(text, sizeof text, "%.4f", ms);
  return text;
}

void print_row(const WorldsRow& r, double copy_gbs, bool json) {
  const WorldsCase& c = r.c;
  const double ms = r.ms;
  const double agent_steps = static_cast<double>(c.worlds) * static_cast<double>(c.agents);
  const double gas = agent_steps / (ms * 1e-3) / 1e9;
  const double seq = agent_steps / (r.alone * c.worlds * 1e-3) / 1e9;
  const double speedup = r.same_run ? 1.0 : gas / seq;
  const double cells = static_cast<double>(c.size.width) * static_cast<double>(c.size.height);
  const double bytes = c.worlds * (24.0 * static_cast<double>(c.agents) + 12.0 * cells);
  const double pct = copy_gbs > 0 ? 100.0 * bytes / (ms * 1e-3) / 1e9 / copy_gbs : 0.0;
  const StageTimings& st = r.stages;
  const bool staged = st.samples > 0;
  if (json) {
    const auto num = [](double v) { return json_number(v, 6); };
    const std::string stages = staged ? ",\"agents_ms\":" + num(st.agents_ms) +
                                            ",\"field_ms\":" + num(st.field_ms) +
                                            ",\"sort_ms\":" + num(st.sort_ms)
                                      : std::string();
    const std::string line =
        "{\"backend\":" + json_string(r.how) + ",\"worlds\":" + std::to_string(c.worlds) +
        ",\"width\":" + std::to_string(c.size.width) + ",\"height\":" + std::to_string(c.size.height) +
        ",\"agents_per_world\":" + std::to_string(c.agents) + ",\"ms_per_step\":" + num(ms) +
        ",\"gagent_steps_per_s\":" + num(gas) + ",\"one_after_another_gagent_steps_per_s\":" + num(seq) +
        ",\"speedup\":" + num(speedup) +
        ",\"one_after_another_is_the_batch\":" + (r.same_run ? "true" : "false") +
        ",\"pct_of_streaming_bound\":" + num(pct) + stages + "}\n";
    std::fputs(line.c_str(), stdout);
  } else {
    std::printf("%6d %11s %7s %10.4f %12.4g %12.4g %8.3gx %7.1f%% %8s %8s %8s  %s%s\n", c.worlds,
                format_size(c.size).c_str(), format_count(c.agents).c_str(), ms, gas, seq, speedup, pct,
                stage_cell(st.agents_ms, staged).c_str(), stage_cell(st.field_ms, staged).c_str(),
                stage_cell(st.sort_ms, staged).c_str(), r.how.c_str(),
                r.same_run ? " (one world: in turn is the same run)" : "");
  }
  std::fflush(stdout);
}

}  // namespace

int run_worlds_bench(const WorldsBenchOptions& o) {
  const std::vector<WorldsCase> cases = cases_for(o);
  const BackendKind kind = parse_backend_kind(o.backend);
  const bool cuda = kind != BackendKind::Cpu && !cuda_device().empty();
  const int steps = o.steps > 0 ? o.steps : (cuda ? 1000 : 64);
  const double copy_gbs = copy_bandwidth_gbs(cuda);
  if (!o.json) {
    std::printf("%6s %11s %7s %10s %12s %12s %9s %8s %8s %8s %8s  %s\n", "worlds", "size", "agents",
                "ms/step", "Gagent-st/s", "in turn", "speedup", "%bound", "agents", "field", "sort", "how");
  }
  int ran = 0;
  for (const WorldsCase& c : cases) {
    std::vector<run::Recipe> recipes;
    for (int b = 0; b < c.worlds; ++b) recipes.push_back(world_recipe(o, c, b));
    try {
      run::Batch batch(recipes);
      WorldsRow r;
      r.how = batch.note();
      r.c = c;
      r.ms = batch_ms(batch, o, c, steps, cuda);
      r.stages = batch_stages(batch, cuda);
      // One world that is not batched runs as run::Run runs it: timing it again alone would time
      // the same run twice, and call the noise between the two a speedup.
      r.same_run = c.worlds == 1 && !batch.batched();
      r.alone = r.same_run ? r.ms : alone_ms(recipes, o, steps, cuda);
      print_row(r, copy_gbs, o.json);
      ++ran;
    } catch (const OutOfMemoryError& e) {
      std::fprintf(stderr, "physarum bench: skipping %d worlds of %s: %s\n", c.worlds,
                   format_size(c.size).c_str(), e.what());
    }
  }
  return ran > 0 ? run::kExitOk : run::kExitRuntime;
}

}  // namespace physarum::app
