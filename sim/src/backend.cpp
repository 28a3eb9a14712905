#include "sim/backend.hpp"

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
