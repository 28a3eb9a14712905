#include "bench/step_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "bench/bench_device.hpp"
#include "bench/bench_estimate.hpp"
#include "bench/volume_bench.hpp"
#include "run/recipe.hpp"
#include "sim/backend.hpp"
#include "sim/cuda_info.hpp"
#include "sim/elapsed.hpp"
#include "sim/json_text.hpp"
#include "sim/params.hpp"
#include "system/signals.hpp"

namespace physarum::app {
namespace {

using run::kExitOk;
using run::kExitRuntime;
using run::UsageError;
using Clock = std::chrono::steady_clock;

struct Case {
  Size size;
  uint64_t agents;
  int species = 1;
};

struct Row {
  std::string backend;
  Case c;
  int warmup = 0;
  int steps = 0;
  uint64_t from_step = 0;  // --sweep steps: the window of steps this row timed
  double ms_per_step = 0;
  StageTimings stages;
  bool stages_of_timed_steps = false;  // the stages partition the timed steps (the CPU): "other" is the rest
  double copy_gbs = 0;
};

// The CPU's bare bench: one case it grows in a second or two (3 ms a step on two cores), the size
// docs/PERFORMANCE.md measures the CPU backend at.
constexpr Size kCpuSize{1024, 1024};
constexpr uint64_t kCpuAgents = 1'000'000;
// Timed steps on the CPU by default: two whole reorderings of its agents (one every 32 steps), so
// the timed steps hold the reordering's share of the time as the stages do.
constexpr int kCpuSteps = 64;

constexpr double kBytesPerAgent = 24.0;
constexpr double kBytesPerCell = 12.0;

bool is_cuda(const Backend& b) {
  return b.kind() == BackendKind::Cuda;
}

// Waits for queued device work; the CPU backend is synchronous already.
void finish(const Backend& b) {
  finish_device(is_cuda(b));
}

double timed_ms_per_step(Backend& b, int steps) {
  finish(b);
  const auto t0 = Clock::now();
  b.step(steps);
  finish(b);
  return ms_since(t0) / steps;
}

// Per-stage times from 256 single steps: the CUDA backend times one call in 8 stage by stage and
// every reordering, so its windows (the last 64 sampled steps, the last 8 reorderings) hold only
// steady-state samples.
constexpr int kSampledSteps = 256;
StageTimings sample_stages(Backend& b) {
  for (int i = 0; i < kSampledSteps; ++i) {
    throw_if_stopped();
    b.step(1);
    finish(b);
  }
  return b.timings();
}

void print_header() {
  std::printf("%-28s %11s %6s %2s %9s %9s %11s %8s %8s %8s %8s %9s %7s\n", "backend", "size", "agents", "sp",
              "ms/step", "steps/s", "Gagent-st/s", "agents", "field", "sort", "other", "GB/s", "%bound");
}

// A stage time for the table: "-" where it was not measured (--sweep steps times whole steps only).
std::string stage_cell(double ms, bool measured) {
  char text[32];
  if (!measured) return "-";
  std::snprintf(text, sizeof text, "%.4f", ms);
  return text;
}

void print_row(const Row& r, bool json) {
  const double cells = static_cast<double>(r.c.size.width) * r.c.size.height;
  const double n = static_cast<double>(r.c.agents);
  // Each species has its own channel of field and counts to stream.
  const double bytes = kBytesPerAgent * n + kBytesPerCell * cells * r.c.species;
  const double eff = bytes / (r.ms_per_step * 1e-3) / 1e9;
  const double pct = r.copy_gbs > 0 ? 100.0 * eff / r.copy_gbs : 0.0;
  const double sps = 1000.0 / r.ms_per_step;
  const double gas = n * sps / 1e9;
  const StageTimings& st = r.stages;
  const double other = r.ms_per_step - st.agents_ms - st.field_ms - st.sort_ms;
  if (json) {
    const auto num = [](double v) { return json_number(v, 6); };
    const std::string line =
        "{\"backend\":" + json_string(r.backend) + ",\"width\":" + std::to_string(r.c.size.width) +
        ",\"height\":" + std::to_string(r.c.size.height) + ",\"agents\":" + std::to_string(r.c.agents) +
        ",\"warmup\":" + std::to_string(r.warmup) + ",\"steps\":" + std::to_string(r.steps) +
        ",\"from_step\":" + std::to_string(r.from_step) + ",\"ms_per_step\":" + num(r.ms_per_step) +
        ",\"steps_per_s\":" + num(sps) + ",\"gagent_steps_per_s\":" + num(gas) +
        ",\"agents_ms\":" + num(st.agents_ms) + ",\"field_ms\":" + num(st.field_ms) +
        ",\"sort_ms\":" + num(st.sort_ms) +
        (r.stages_of_timed_steps ? ",\"other_ms\":" + num(other) : std::string()) +
        ",\"stage_samples\":" + std::to_string(st.samples) + ",\"effective_gbs\":" + num(eff) +
        ",\"copy_gbs\":" + num(r.copy_gbs) + ",\"pct_of_streaming_bound\":" + num(pct) +
        ",\"species\":" + std::to_string(r.c.species) + "}\n";
    std::fputs(line.c_str(), stdout);
  } else {
    const bool staged = st.samples > 0;
    std::printf("%-28s %11s %6s %2d %9.4f %9.1f %11.4g %8s %8s %8s %8s %9.1f %6.1f%%\n", r.backend.c_str(),
                format_size(r.c.size).c_str(), format_count(r.c.agents).c_str(), r.c.species, r.ms_per_step,
                sps, gas, stage_cell(st.agents_ms, staged).c_str(), stage_cell(st.field_ms, staged).c_str(),
                stage_cell(st.sort_ms, staged).c_str(), stage_cell(other, r.stages_of_timed_steps).c_str(),
                eff, pct);
  }
  std::fflush(stdout);
}

std::unique_ptr<Backend> make(const StepBenchOptions& o, const Case& c, std::string* note) {
  SimConfig cfg;
  cfg.size = c.size;
  cfg.agents = c.agents;
  cfg.seed = o.seed;
  cfg.threads = o.threads;
  if (c.species > 1) {
    // Equal shares; each follows its own trail and avoids the others' (colonies carving territories).
    const auto n = static_cast<size_t>(c.species);
    cfg.species.list.resize(n);
    for (size_t s = 0; s < n; ++s)
      for (size_t t = 0; t < n; ++t) cfg.species.interaction.push_back(s == t ? 1.0f : -0.5f);
  }
  return create_backend(parse_backend_kind(o.backend), cfg, note);
}

// The case in words, for its announcement: "4096x4096 with 16M agents" (", 4 species").
std::string case_words(const Case& c) {
  return format_size(c.size) + " with " + format_count(c.agents) + " agents" +
         (c.species > 1 ? ", " + std::to_string(c.species) + " species" : std::string());
}

// --sweep steps: time per step as the run goes on, from the random start to the steady state, in
// 20 windows; after the first, a long sweep says how long the rest will take.
void time_windows(const StepBenchOptions& o, Backend& b, Row& r, int steps) {
  const int window = std::max(1, steps / 20);
  for (int done = 0; done < steps; done += window) {
    r.from_step = b.steps_done();
    r.steps = std::min(window, steps - done);
    r.ms_per_step = timed_ms_per_step(b, r.steps);
    throw_if_stopped();
    print_row(r, o.json);
    const auto left = static_cast<uint64_t>(steps - done - r.steps);
    const CaseEstimate e{
        case_words(r.c), 0, left, "steps", r.ms_per_step / 1000, static_cast<uint64_t>(r.steps)};
    if (done == 0 && e.seconds() >= kLongCaseS) std::fprintf(stderr, "%s\n", estimate_line(e).c_str());
  }
}

// The stages of the steps between two totals, a step's share each (samples: the steps).
StageTimings stages_between(const StageTimings& from, const StageTimings& to) {
  StageTimings t;
  t.samples = to.samples - from.samples;
  const double n = t.samples;
  t.agents_ms = (to.agents_ms - from.agents_ms) / n;
  t.field_ms = (to.field_ms - from.field_ms) / n;
  t.sort_ms = (to.sort_ms - from.sort_ms) / n;
  t.step_ms = (to.step_ms - from.step_ms) / n;
  return t;
}

// Warm-up (the long case announced), then the timed run, then the stages: of the timed steps
// themselves where the backend times every step (the CPU), else sampled (CUDA).
void time_case(const StepBenchOptions& o, Backend& b, Row& r, int steps) {
  const bool sampled = is_cuda(b);  // the CUDA backend times one call in 8 stage by stage
  const uint64_t after = static_cast<uint64_t>(steps) + (sampled ? kSampledSteps : 0);
  (void)warm_up_announcing(case_words(r.c), static_cast<uint64_t>(o.warmup), after,
                           sampled ? "timed and sampled steps" : "timed steps", [&](uint64_t k) {
                             b.step(static_cast<int>(k));
                             finish(b);
                           });
  r.from_step = b.steps_done();
  r.steps = steps;
  const StageTimings totals_before = b.stage_totals();
  // Timed whole, so no stop check disturbs the timing: a stop waits for this run (seconds at most).
  r.ms_per_step = timed_ms_per_step(b, steps);
  throw_if_stopped();
  const StageTimings totals_after = b.stage_totals();
  r.stages_of_timed_steps = totals_after.samples - totals_before.samples == steps;
  r.stages = r.stages_of_timed_steps ? stages_between(totals_before, totals_after) : sample_stages(b);
}

// The backend for a case, or nullptr (said why) when it does not fit.
std::unique_ptr<Backend> make_or_skip(const StepBenchOptions& o, const Case& c, std::string* note) {
  try {
    return make(o, c, note);
  } catch (const OutOfMemoryError& e) {  // this size does not fit: say so and go on with the next
    std::fprintf(stderr, "physarum bench: skipping %s with %s agents: %s\n", format_size(c.size).c_str(),
                 format_count(c.agents).c_str(), e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "physarum bench: skipping %s with %s agents: out of host memory\n",
                 format_size(c.size).c_str(), format_count(c.agents).c_str());
  }
  return nullptr;
}

// Only the %-of-bound column needs it: a probe that fails (its 2 GiB do not fit next to a large
// case) leaves that column 0 instead of ending the benchmark. -1: do not try again.
void measure_copy_bandwidth(const Backend& b, double& copy_gbs) {
  if (copy_gbs != 0) return;
  try {
    copy_gbs = copy_bandwidth_gbs(is_cuda(b));
  } catch (const Error& e) {  // OutOfMemoryError included
    std::fprintf(stderr, "physarum bench: copy bandwidth not measured (%s); %%bound shows 0\n", e.what());
    copy_gbs = -1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "physarum bench: copy bandwidth not measured (out of host memory); %%bound shows 0\n");
    copy_gbs = -1;
  }
}

// One case: warm-up, a timed run, its stages. Returns false (and says why) when it cannot run.
bool run_case(const StepBenchOptions& o, const Case& c, int steps, double& copy_gbs, bool& said_note) {
  std::string note;
  const std::unique_ptr<Backend> b = make_or_skip(o, c, &note);
  if (!b) return false;
  if (!said_note) {
    std::fprintf(stderr, "physarum bench: %s\n", note.c_str());
    said_note = true;
    if (!o.json) print_header();
  }
  measure_copy_bandwidth(*b, copy_gbs);
  Row r;
  r.backend = b->name();
  r.c = c;
  r.warmup = o.warmup;
  r.copy_gbs = std::max(copy_gbs, 0.0);
  if (o.sweep == "steps") {
    time_windows(o, *b, r, steps);
    return true;
  }
  time_case(o, *b, r, steps);
  print_row(r, o.json);
  return true;
}

std::vector<Case> cases_for(const StepBenchOptions& o, bool cpu) {
  const bool have_size = !o.size.empty();
  const bool have_agents = !o.agents.empty();
  const Size size = have_size ? parse_size(o.size) : Size{3840, 2160};
  const uint64_t agents = have_agents ? parse_count(o.agents) : 10'000'000;
  const int sp = o.species;
  if (o.sweep == "size") {
    std::vector<Case> v;
    const uint64_t n = have_agents ? agents : 4'000'000;
    for (Size s : {Size{512, 512}, Size{1024, 1024}, Size{2048, 2048}, Size{3840, 2160}, Size{4096, 4096},
                   Size{8192, 8192}}) {
      v.push_back({s, n, sp});
    }
    return v;
  }
  if (o.sweep == "agents") {
    std::vector<Case> v;
    for (uint64_t n : {1'000'000ULL, 2'000'000ULL, 5'000'000ULL, 10'000'000ULL, 20'000'000ULL, 50'000'000ULL,
                       100'000'000ULL}) {
      v.push_back({size, n, sp});
    }
    return v;
  }
  if (o.sweep == "steps" || have_size || have_agents) return {{size, agents, sp}};
  if (cpu && o.sweep.empty()) return {{kCpuSize, kCpuAgents, sp}};
  // The full sweep: the GPU's default, on the CPU only when asked for (--sweep full).
  std::vector<Case> v = {{{1024, 1024}, 1'000'000, sp},
                         {{2048, 2048}, 4'000'000, sp},
                         {{3840, 2160}, 10'000'000, sp},
                         {{4096, 4096}, 16'000'000, sp}};
  if (sp == 1) v.push_back({{3840, 2160}, 10'000'000, 4});  // four species beside one, same size and agents
  if (!cpu) v.push_back({{3840, 2160}, 100'000'000, sp});   // skipped, saying so, when memory does not allow
  return v;
}

// The volume the full sweep ends with: 256^3 with 10M agents on the GPU, 64^3 with 250K on the CPU.
VolumeBenchOptions closing_volume(const StepBenchOptions& o, bool cpu) {
  VolumeBenchOptions v;
  v.backend = o.backend;
  v.size = cpu ? "64x64x64" : "256x256x256";
  v.agents = cpu ? "250K" : "10M";
  v.warmup = o.warmup;
  v.seed = o.seed;
  v.threads = o.threads;
  v.json = o.json;
  return v;
}

}  // namespace

int run_step_bench(const StepBenchOptions& o) {
  std::vector<Case> cases;
  bool cpu = false;
  try {
    const BackendKind kind = parse_backend_kind(o.backend);
    cpu = kind == BackendKind::Cpu || (kind == BackendKind::Auto && cuda_device().empty());
    cases = cases_for(o, cpu);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  const int steps = o.steps ? *o.steps : (o.sweep == "steps" ? 2000 : (cpu ? kCpuSteps : 1000));
  double copy_gbs = 0;
  bool said_note = false;
  int ran = 0;
  for (const Case& c : cases) ran += run_case(o, c, steps, copy_gbs, said_note) ? 1 : 0;
  const bool bare = o.sweep.empty() && o.size.empty() && o.agents.empty();
  // The full sweep ends with a volume: 256^3 with 10M agents on the GPU, 64^3 with 250K on the CPU.
  if ((o.sweep == "full" || (bare && !cpu)) && o.species == 1 && !o.json) {
    std::printf("\n");
    std::fflush(stdout);
    if (run_volume_bench(closing_volume(o, cpu)) == kExitOk) ++ran;
  }
  if (bare && cpu) {
    std::fprintf(stderr,
                 "physarum bench: that is the CPU's one case; --sweep full runs the GPU's sweep here (up to "
                 "4096x4096 with 16M agents, 4 species and a 64x64x64 volume), each long case first saying "
                 "how long it will take\n");
  }
  return ran > 0 ? kExitOk : kExitRuntime;
}

}  // namespace physarum::app
