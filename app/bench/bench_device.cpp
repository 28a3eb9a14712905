#include "bench/bench_device.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <vector>

#include "sim/cuda_info.hpp"

namespace physarum::app {
namespace {

// Host memcpy bandwidth (read + write), the CPU backend's counterpart of a device copy.
double host_copy_gbs() {
  const size_t bytes = size_t{256} << 20;
  std::vector<char> a(bytes, 1), b(bytes, 0);
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    a[static_cast<size_t>(rep)] = b[static_cast<size_t>(rep) + 1];  // keep the copies observable
  }
  return 2.0 * static_cast<double>(bytes) / best / 1e9;
}

}  // namespace

void finish_device(bool cuda) {
#if defined(PHYSARUM_HAS_CUDA)
  if (cuda) cuda_synchronize();
#else
  (void)cuda;
#endif
}

double copy_bandwidth_gbs(bool cuda) {
#if defined(PHYSARUM_HAS_CUDA)
  if (cuda) return measure_copy_bandwidth_gbs();
#else
  (void)cuda;
#endif
  return host_copy_gbs();
}

}  // namespace physarum::app
