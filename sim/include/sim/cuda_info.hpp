// Facts about the CUDA device that the benchmark needs (sim/cuda/cuda_info.cu). Plain C++, no
// CUDA types. The functions are only declared when the CUDA backend is built (PHYSARUM_HAS_CUDA).
#pragma once

namespace physarum {
// The CUDA device the program uses: the backend, the benchmark, CUDA-GL interop, and the EGL device
// headless rendering picks so that interop works (render/src/egl_context.cpp).
inline constexpr int kCudaDevice = 0;
}  // namespace physarum

#if defined(PHYSARUM_HAS_CUDA)
#include <cstdint>

namespace physarum {

// Device-to-device copy bandwidth of device 0 in GB/s (1e9 bytes/s), counting bytes read plus
// bytes written, from cudaMemcpy of a large buffer (the best of several repeats). Throws Error
// (OutOfMemoryError when its 2 GiB of buffers do not fit).
double measure_copy_bandwidth_gbs();

// Waits until all work queued on device 0 is done. Throws Error on a device fault.
void cuda_synchronize();

// Free and total device memory of device 0, in bytes. Throws Error.
void cuda_memory_info(uint64_t& free_bytes, uint64_t& total_bytes);

}  // namespace physarum
#endif
