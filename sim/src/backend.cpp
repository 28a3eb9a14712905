#include "sim/backend.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "backends.hpp"
#include "sim/spawn.hpp"

namespace physarum {

BackendKind parse_backend_kind(const std::string& s) {
  if (s == "auto") return BackendKind::Auto;
  if (s == "cpu") return BackendKind::Cpu;
  if (s == "cuda") return BackendKind::Cuda;
  throw Error("backend '" + s + "' is not one of: auto, cpu, cuda");
}

SimConfig config_from(const Preset& p, int threads) {
  validate(p);
  SimConfig c;
  c.size = p.run.size;
  c.agents = p.run.agents;
  c.seed = p.run.seed;
  c.model = p.model;
  c.spawn = p.spawn;
  c.threads = threads;
  return c;
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
void check_host_memory(const SimConfig& c, bool on_cpu, int threads) {
  const double agents = static_cast<double>(c.agents);
  const double cells = static_cast<double>(c.size.width) * static_cast<double>(c.size.height);
  double need = agents * 16.0;                                        // the spawned state (x, y, theta, id)
  if (on_cpu) need += agents * 16.0 + cells * (8.0 + 4.0 * threads);  // sort scratch, fields, counts
  const double have = available_host_bytes();
  if (have > 0 && need > 0.9 * have) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "%s agents on %dx%d need about %.1f GB of memory; %.1f GB is available. Use fewer agents.",
                  format_count(c.agents).c_str(), c.size.width, c.size.height, need / 1e9, have / 1e9);
    throw Error(msg);
  }
}

}  // namespace

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

std::unique_ptr<Backend> create_backend(BackendKind kind, const SimConfig& config, std::string* note) {
  validate(config.model);
  validate(config.spawn);
  validate(RunParams{config.size, config.agents, config.seed});
  if (config.threads < 0 || config.threads > 1024) throw Error("threads must be 0 (all) to 1024");

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

  check_host_memory(
      config, !use_cuda,
      config.threads > 0 ? config.threads : static_cast<int>(std::thread::hardware_concurrency()));
  AgentState agents = spawn_agents(config.spawn.mode, config.size, config.agents, config.seed);
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
