// Internal: constructors of the concrete backends, called by create_backend() (backend.cpp).
#pragma once

#include <memory>
#include <string>

#include "sim/backend.hpp"

namespace physarum {

std::unique_ptr<Backend> make_cpu_backend(const SimConfig& config, AgentState agents);

#if defined(PHYSARUM_HAS_CUDA)
// sim/cuda/cuda_backend.cu. Throws Error on any CUDA failure (out of memory included), having
// released whatever it allocated.
std::unique_ptr<Backend> make_cuda_backend(const SimConfig& config, AgentState agents);
// Name of CUDA device 0, or "" when no usable device/driver is present (never throws).
std::string cuda_device_name();
#endif

}  // namespace physarum
