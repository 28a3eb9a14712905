#include "sim/backend.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "backends.hpp"
#include "sim/keyframes.hpp"
#include "sim/spawn.hpp"

namespace physarum {

int checked_scale(int scale, Size size) {
  if (scale < 1 || scale > kMaxScale) {
    throw Error("scale " + std::to_string(scale) + " is out of range: allowed 1 to " +
                std::to_string(kMaxScale));
  }
  // The agents sense K x K blocks (docs/MODEL.md, "Scale"): the field is K times a base size.
  if (size.width % scale != 0 || size.height % scale != 0) {
    throw Error("scale " + std::to_string(scale) + " does not divide the field " +
                std::to_string(size.width) + "x" + std::to_string(size.height) +
                ": at detail K the field is K times a base size");
  }
  return scale;
}

void validate_agents(const AgentState& a, uint64_t expected, Size size) {
  const size_t n = a.id.size();
  if (n != expected || a.x.size() != n || a.y.size() != n || a.theta.size() != n) {
    throw Error("set_agents: expected " + std::to_string(expected) + " agents with x, y, theta and id");
  }
  const auto fw = static_cast<float>(size.width);
  const auto fh = static_cast<float>(size.height);
  std::vector<bool> seen(n, false);  // a bit per agent: 125 MB at the 1e9 limit
  for (size_t i = 0; i < n; ++i) {
    if (a.id[i] >= n || seen[a.id[i]]) throw Error("set_agents: ids must be a permutation of 0..N-1");
    seen[a.id[i]] = true;
    if (!(a.x[i] >= 0 && a.x[i] < fw && a.y[i] >= 0 && a.y[i] < fh)) {
      throw Error("set_agents: agent " + std::to_string(a.id[i]) + " is outside the field");
    }
    // Finite and bounded: the rule turns theta into an integer quadrant (sin_cos), which is
    // undefined on the host and differs on the GPU once the value leaves the int range.
    if (!(std::fabs(a.theta[i]) <= kMaxAbsTheta)) {
      throw Error("set_agents: agent " + std::to_string(a.id[i]) + " has heading " +
                  std::to_string(a.theta[i]) + "; allowed -10000 to 10000 radians");
    }
  }
}

void validate_brush(const BrushStroke& b, Size size, int species) {
  const int max_radius = std::max(size.width, size.height);
  if (!std::isfinite(b.x) || !std::isfinite(b.y) || !std::isfinite(b.radius) || !std::isfinite(b.amount)) {
    throw Error("brush: position, radius and amount must be finite numbers");
  }
  // Bounded so that floor(x) fits an int and the (2r+1)^2 cells visited stay few.
  if (std::fabs(b.x) > kMaxAbsBrushXY || std::fabs(b.y) > kMaxAbsBrushXY) {
    throw Error("brush: position " + std::to_string(b.x) + ", " + std::to_string(b.y) +
                " is out of range: allowed -1000000 to 1000000 cells");
  }
  if (b.radius < 0 || b.radius > static_cast<float>(max_radius)) {
    throw Error("brush: radius " + std::to_string(b.radius) + " is out of range: allowed 0 to " +
                std::to_string(max_radius) + " cells (the field's longer side)");
  }
  if (b.channel != kAllChannels && (b.channel < 0 || b.channel >= species)) {
    throw Error("brush: channel " + std::to_string(b.channel) + " does not exist (" +
                std::to_string(species) + " species; -1 paints every channel)");
  }
  if (std::fabs(b.amount) > kMaxAbsFieldValue) {
    throw Error("brush: amount " + std::to_string(b.amount) + " is out of range: allowed -1e30 to 1e30");
  }
}

SpeciesSet resolve_species_change(const SpeciesSet& s, const ModelParams& model, SpawnMode spawn,
                                  int channels) {
  SpeciesSet next = resolve_species(s, model, spawn);
  if (next.count() != channels) {
    throw Error("set_species: " + std::to_string(next.count()) + " species where the run has " +
                std::to_string(channels) + "; another number of species needs a new simulation");
  }
  return next;
}

void validate_field(const std::vector<float>& values, Size size, int channel, int species) {
  const size_t cells = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  if (channel != kAllChannels && (channel < 0 || channel >= species)) {
    throw Error("set_field: channel " + std::to_string(channel) +
                " does not exist: " + std::to_string(species) +
                (species == 1 ? " species" : " species (channels 0 to " + std::to_string(species - 1) + ")"));
  }
  const bool planes =
      channel == kAllChannels && species > 1 && values.size() == cells * static_cast<size_t>(species);
  if (values.size() != cells && !planes) {
    throw Error("set_field: " + std::to_string(values.size()) + " values for a field of " +
                std::to_string(cells) +
                (channel == kAllChannels && species > 1
                     ? " (or " + std::to_string(cells * static_cast<size_t>(species)) + " for all " +
                           std::to_string(species) + " channels)"
                     : std::string()));
  }
  // Bounded, not only finite: sums of nine neighbours must not overflow to infinity (and then to
  // NaN through 0 * inf), where CPU and GPU could differ.
  if (!std::all_of(values.begin(), values.end(), [](float v) { return std::fabs(v) <= kMaxAbsFieldValue; })) {
    throw Error("set_field: the values contain NaN, infinity or a magnitude above 1e30");
  }
}

namespace {

// Host memory the system can give us now (MemAvailable), or 0 when unknown.
double available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024.0;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

// Refuse up front, with numbers, a run that cannot fit in host memory: otherwise the allocation
// fails deep inside (or the kernel's OOM killer ends the program without a word).
void check_host_memory(const SimConfig& c, bool on_cpu) {
  const int threads = c.threads > 0 ? c.threads : default_threads();  // as the CPU backend counts them
  const double agents = static_cast<double>(c.agents);
  // Several species: S channels of field and counts per cell.
  const double cells = static_cast<double>(c.size.width) * static_cast<double>(c.size.height) *
                       static_cast<double>(c.species.count());
  double need = agents * 16.0;                                        // the spawned state (x, y, theta, id)
  if (on_cpu) need += agents * 16.0 + cells * (8.0 + 4.0 * threads);  // sort scratch, fields, counts
  const double have = available_host_bytes();
  if (have > 0 && need > 0.9 * have) {
    char msg[320];
    const std::string on =
        on_cpu ? " (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)") : std::string();
    std::snprintf(msg, sizeof msg,
                  "%s agents on %dx%d%s need about %.1f GB of host memory; %.1f GB is available. Use fewer "
                  "agents or a smaller field.",
                  format_count(c.agents).c_str(), c.size.width, c.size.height, on.c_str(), need / 1e9,
                  have / 1e9);
    throw OutOfMemoryError(msg);
  }
}

}  // namespace

int default_threads() {
  return omp_get_max_threads();
}

void Backend::set_model(const ModelParams& m) {
  SpeciesSet next = species_;
  next.list[0].model = m;
  set_species(next);
}

void Backend::set_live_model(const Preset& p) {
  set_live_parameters(*this, p);
}

StageTimings Backend::timed_step() {
  const StageTimings before = stage_totals();
  step(1);
  const StageTimings after = stage_totals();
  if (after.samples != before.samples + 1) return timings();  // the stages are only sampled
  StageTimings t;
  t.agents_ms = after.agents_ms - before.agents_ms;
  t.field_ms = after.field_ms - before.field_ms;
  t.sort_ms = after.sort_ms - before.sort_ms;
  t.step_ms = after.step_ms - before.step_ms;
  t.samples = 1;
  return t;
}

bool cuda_built() {
#if defined(PHYSARUM_HAS_CUDA)
  return true;
#else
  return false;
#endif
}

std::string cuda_device() {
#if defined(PHYSARUM_HAS_CUDA)
  return cuda_device_name();
#else
  return "";
#endif
}

void validate_config(const SimConfig& config) {
  if (config.size.volume()) {
    throw Error("size " + format_size(config.size) +
                " is a volume; this works on a plane (W x H): `physarum run`, `physarum bench` and Python "
                "grow volumes");
  }
  validate(config.model);
  validate(config.spawn);
  validate(config.species);
  validate(RunParams{config.size, config.agents, config.seed, std::nullopt, config.scale});
  validate(config.environment, config.size, config.species.count());
  if (config.threads < 0 || config.threads > kMaxThreads) {
    throw Error("threads = " + std::to_string(config.threads) + " is out of range: allowed 0 (all) to " +
                std::to_string(kMaxThreads));
  }
}

std::unique_ptr<Backend> create_backend(BackendKind kind, const SimConfig& config, std::string* note) {
  validate_config(config);

  std::string why;
  bool use_cuda = false;
  if (kind != BackendKind::Cpu) {
    const std::string device = cuda_device();
    if (!device.empty()) {
      use_cuda = true;
      why = "cuda: " + device;
    } else if (kind == BackendKind::Cuda) {
      throw Error(
          cuda_built()
              ? "--backend cuda: no CUDA device or driver found"
              : "--backend cuda: this build has no CUDA backend (nvcc was not found when it was built)");
    } else {
      why = cuda_built() ? "cpu: no CUDA device found, using the CPU backend"
                         : "cpu: built without CUDA, using the CPU backend";
    }
  } else {
    why = "cpu: chosen with --backend cpu";
  }

  check_host_memory(config, !use_cuda);
  AgentState agents = spawn_species(resolve_species(config.species, config.model, config.spawn.mode),
                                    config.size, config.agents, config.seed);
  std::unique_ptr<Backend> backend;
#if defined(PHYSARUM_HAS_CUDA)
  if (use_cuda) backend = make_cuda_backend(config, std::move(agents));
#else
  (void)use_cuda;
#endif
  if (!backend) backend = make_cpu_backend(config, std::move(agents));
  if (note) *note = why;
  return backend;
}

}  // namespace physarum
