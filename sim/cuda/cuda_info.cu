// Device facts for the benchmark and the error helpers shared by sim/cuda.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda_check.cuh"
#include "sim/cuda_info.hpp"

namespace physarum {
namespace cuda {

void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line) {
  (void)cudaGetLastError();  // clear a non-sticky error so the context stays usable
  std::string msg;
  if (e == cudaErrorMemoryAllocation) msg = "out of GPU memory: ";
  msg += std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " + call +
         " at " + file + ":" + std::to_string(line);
  if (e == cudaErrorMemoryAllocation) throw OutOfMemoryError(msg);
  throw Error(msg);
}

void log_cuda_error(cudaError_t e, const char* call, const char* file, int line) noexcept {
  std::fprintf(stderr, "physarum: CUDA error %s (%s) in %s at %s:%d\n", cudaGetErrorName(e),
               cudaGetErrorString(e), call, file, line);
}

}  // namespace cuda

double measure_copy_bandwidth_gbs() {
  using namespace cuda;
  constexpr size_t kBytes = size_t{1} << 30;  // far beyond L2, so the copy streams from HBM
  DeviceBuffer<unsigned char> a(kBytes, "the bandwidth probe");
  DeviceBuffer<unsigned char> b(kBytes, "the bandwidth probe");
  PHYS_CUDA_CHECK(cudaMemset(a.get(), 1, kBytes));
  Stream s = Stream::create();
  Event e0 = Event::create();
  Event e1 = Event::create();
  PHYS_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), kBytes, cudaMemcpyDeviceToDevice, s.get()));  // warm-up
  float best_ms = 1e30f;
  for (int rep = 0; rep < 5; ++rep) {
    PHYS_CUDA_CHECK(cudaEventRecord(e0.get(), s.get()));
    PHYS_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), kBytes, cudaMemcpyDeviceToDevice, s.get()));
    PHYS_CUDA_CHECK(cudaEventRecord(e1.get(), s.get()));
    PHYS_CUDA_CHECK(cudaEventSynchronize(e1.get()));
    float ms = 0;
    PHYS_CUDA_CHECK(cudaEventElapsedTime(&ms, e0.get(), e1.get()));
    best_ms = std::min(best_ms, ms);
  }
  return 2.0 * static_cast<double>(kBytes) / (static_cast<double>(best_ms) * 1e-3) / 1e9;
}

void cuda_synchronize() {
  PHYS_CUDA_CHECK(cudaDeviceSynchronize());
}

void cuda_memory_info(uint64_t& free_bytes, uint64_t& total_bytes) {
  size_t f = 0;
  size_t t = 0;
  PHYS_CUDA_CHECK(cudaMemGetInfo(&f, &t));
  free_bytes = f;
  total_bytes = t;
}

}  // namespace physarum
