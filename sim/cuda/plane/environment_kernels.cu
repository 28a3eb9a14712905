// The environment's kernels. Emission is rule.hpp's emit(), so it matches the CPU backend bit for
// bit; each cell appears once in a list, so no two threads write the same value.
#include "cuda_check.cuh"
#include "environment_kernels.cuh"

namespace physarum::cuda {
namespace {

constexpr int kBlock = 256;

unsigned blocks_for(uint32_t n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

__global__ void emission_kernel(float* __restrict__ field, const uint32_t* __restrict__ cells,
                                const float* __restrict__ values, uint32_t n, int channels, int stride,
                                FoodStrengths strengths) {
  const uint32_t j = blockIdx.x * kBlock + threadIdx.x;
  if (j >= n) return;
  float* f = field + static_cast<size_t>(cells[j]) * static_cast<size_t>(stride);
  const float e = values[j];
  for (int c = 0; c < channels; ++c) f[c] = rule::emit(f[c], strengths.k[c], e);
}

__global__ void clear_walls_kernel(float* __restrict__ field, const uint32_t* __restrict__ cells, uint32_t n,
                                   int stride) {
  const uint32_t j = blockIdx.x * kBlock + threadIdx.x;
  if (j >= n) return;
  float* f = field + static_cast<size_t>(cells[j]) * static_cast<size_t>(stride);
  for (int c = 0; c < stride; ++c) f[c] = 0.0f;
}

}  // namespace

void launch_emission(cudaStream_t stream, float* field, const uint32_t* cells, const float* values,
                     uint32_t n, int channels, int stride, FoodStrengths strengths) {
  if (n == 0) return;
  emission_kernel<<<blocks_for(n), kBlock, 0, stream>>>(field, cells, values, n, channels, stride, strengths);
  PHYS_CUDA_CHECK_LAUNCH();
}

void launch_clear_walls(cudaStream_t stream, float* field, const uint32_t* cells, uint32_t n, int stride) {
  if (n == 0) return;
  clear_walls_kernel<<<blocks_for(n), kBlock, 0, stream>>>(field, cells, n, stride);
  PHYS_CUDA_CHECK_LAUNCH();
}

}  // namespace physarum::cuda
