// `physarum bench`: its options, and which benchmark they ask for: the steady state of a backend
// (bench/step_bench.hpp), a volume's (bench/volume_bench.hpp), many small worlds at once
// (bench/worlds_bench.hpp) or the window's frame path headless (bench/frame_bench.hpp).
#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/frame_bench.hpp"
#include "bench/step_bench.hpp"
#include "bench/volume_bench.hpp"
#include "bench/worlds_bench.hpp"
#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"

namespace physarum::app {
namespace {

struct BenchOptions {
  std::string backend = "auto";
  std::string size;
  std::string agents;
  std::optional<int> steps;
  int warmup = 300;
  bool json = false;
  std::string sweep;  // "", steps, size, agents, worlds, full
  uint32_t seed = 1;
  int threads = 0;     // CPU backend; 0 = all
  int species = 1;     // 1..kMaxSpecies
  bool frame = false;  // --frame: the window's frame path instead of bare steps (frame_bench.hpp)
  std::vector<int> steps_per_frame = {1, 5};
  int frames = 0;
  std::vector<int> worlds;  // --worlds: many small worlds at once (worlds_bench.hpp)
  std::string preset;       // --worlds: the worlds' model
};

// What to time: the backend, one case or the sweep's, and the steady state.
void add_case_options(CLI::App& cmd, BenchOptions& o) {
  cmd.add_option("--backend", o.backend, "auto | cpu | cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd.add_option(
      "--size", o.size,
      "field size WxH (one case; with --sweep agents: the size), or a volume WxHxD (the 3D model)");
  cmd.add_option("--agents", o.agents, "agent count, e.g. 10M (one case; with --sweep size: the count)");
  cmd.add_option(
         "--steps", o.steps,
         "timed steps per case (default: 1000 on the GPU; 64 on the CPU, two reorderings of the agents)")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 1'000'000));
  cmd.add_option("--warmup", o.warmup, "steps before timing (agents crowd onto trails)")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 1'000'000));
  cmd.add_option("--seed", o.seed, "spawn seed")->capture_default_str()->transform(decimal_integer());
  cmd.add_option("--threads", o.threads, "CPU backend threads (0 = all)")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(0, kMaxThreads));
  cmd.add_option("--species", o.species,
                 "species sharing the world (1 to 4; several: equal shares, each avoiding the others' trail)")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxSpecies));
  cmd.add_flag("--json", o.json, "one JSON object per line instead of a table");
}

// --frame: the window's whole frame path, headless.
void add_frame_options(CLI::App& cmd, BenchOptions& o) {
  cmd.add_flag(
      "--frame", o.frame,
      "time the window's frame path headless (EGL): steps, publish into the field texture, draw "
      "with the palette shader offscreen; frames/s and the split sim/publish/draw. Without "
      "--size/--agents: on the GPU 3840x2160 with 10M and 100M agents, on the CPU 1024x1024 with 1M");
  cmd.add_option("--steps-per-frame", o.steps_per_frame, "--frame: steps per frame, one case each (e.g. 1,5)")
      ->delimiter(',')
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 1000));
  cmd.add_option("--frames", o.frames,
                 "--frame: timed frames per case (default: 600 on the GPU, 30 on the CPU)")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 1'000'000));
}

int run_frames(const BenchOptions& opt) {
  if (!opt.sweep.empty() || opt.steps || opt.species != 1) {
    throw UsageError(
        "--frame times whole frames of one species: --sweep, --steps and --species do not apply");
  }
  FrameBenchOptions f;
  f.backend = opt.backend;
  f.size = opt.size;
  f.agents = opt.agents;
  f.steps_per_frame = opt.steps_per_frame;
  f.frames = opt.frames;
  f.warmup = opt.warmup;
  f.seed = opt.seed;
  f.threads = opt.threads;
  f.json = opt.json;
  return run_frame_bench(f);
}

int run_worlds(const BenchOptions& opt) {
  if (opt.frame || opt.species != 1 || (!opt.sweep.empty() && opt.sweep != "worlds") ||
      (opt.sweep == "worlds" && !opt.worlds.empty())) {
    throw UsageError(
        "--worlds and --sweep worlds time many worlds of one species: --frame, --species and another --sweep "
        "do not apply, and --sweep worlds is the default set of --worlds");
  }
  WorldsBenchOptions w;
  w.backend = opt.backend;
  w.preset = opt.preset;
  w.worlds = opt.worlds;
  w.size = opt.size;
  w.agents = opt.agents;
  w.steps = opt.steps.value_or(0);
  w.warmup = opt.warmup;
  w.seed = opt.seed;
  w.json = opt.json;
  try {
    return run_worlds_bench(w);
  } catch (const Error& e) {  // a bad --size or --agents
    throw UsageError(e.what());
  }
}

int run_volume(const BenchOptions& opt) {
  if (opt.species != 1 || !opt.sweep.empty() || !opt.worlds.empty()) {
    throw UsageError(
        "--size " + opt.size +
        " is a volume: its bench times one case of one species, or its frames with --frame (no --species, "
        "--sweep or --worlds)");
  }
  VolumeBenchOptions v;
  v.backend = opt.backend;
  v.size = opt.size;
  v.agents = opt.agents;
  v.steps = opt.steps.value_or(0);
  v.warmup = opt.warmup;
  v.seed = opt.seed;
  v.threads = opt.threads;
  v.json = opt.json;
  return run_volume_bench(v);
}

StepBenchOptions step_bench_options(const BenchOptions& opt) {
  StepBenchOptions s;
  s.backend = opt.backend;
  s.size = opt.size;
  s.agents = opt.agents;
  s.steps = opt.steps;
  s.warmup = opt.warmup;
  s.json = opt.json;
  s.sweep = opt.sweep;
  s.seed = opt.seed;
  s.threads = opt.threads;
  s.species = opt.species;
  return s;
}

int run(const BenchOptions& opt) {
  if (is_volume_size(opt.size) && !opt.frame) return run_volume(opt);
  if (!opt.worlds.empty() || opt.sweep == "worlds") return run_worlds(opt);
  if (!opt.preset.empty()) throw UsageError("--preset " + opt.preset + " sets the model of --worlds only");
  if (opt.frame) return run_frames(opt);
  if (opt.sweep == "full" && (!opt.size.empty() || !opt.agents.empty()))
    throw UsageError("--sweep full runs its own sizes and agent counts: --size and --agents do not apply");
  return run_step_bench(step_bench_options(opt));
}

}  // namespace

CommandFn add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Benchmark the simulation in steady state. Without --size/--agents: on the GPU a sweep of "
      "1024x1024/1M, 2048x2048/4M, 3840x2160/10M, 4096x4096/16M, 3840x2160/10M with 4 species, "
      "(memory allowing) 3840x2160/100M and a volume, 256x256x256/10M; on the CPU one case, "
      "1024x1024/1M (--sweep full: the GPU's sweep, with a 64x64x64/250K volume). A case expected to "
      "take 10 s or more says how long first, timed from its first steps.");
  add_case_options(*cmd, *o);
  add_frame_options(*cmd, *o);
  cmd->add_option("--sweep", o->sweep,
                  "scaling curve: steps (time per step as the run goes on), size, agents, or worlds (1, 16, "
                  "64 and 256 worlds of 256x256 with 20K agents, 64 of 512x512 with 100K); or full, the "
                  "GPU's default sweep (on the CPU too)")
      ->check(CLI::IsMember({"steps", "size", "agents", "worlds", "full"}));
  cmd->add_option(
         "--worlds", o->worlds,
         "many worlds at once, e.g. 256 or 1,16,64: each count's worlds (of --size, default 256x256, "
         "with --agents, default 20K, each its own angles and seed) grown together as a batch and "
         "one after another; the rates side by side")
      ->delimiter(',')
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--preset", o->preset,
                  "--worlds: the worlds' model, a preset's name or file (default: the built-in defaults)");
  return [o] { return run(*o); };
}

}  // namespace physarum::app
