// Launchers of the environment's kernels (docs/MODEL.md, "Environment"): emission of the food cells
// into the trail before the field update, and the walls' trail set to 0 after it. Both work on lists
// of cells made on the host, so their cost follows the number of food and wall cells, not the field.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "sim/rule.hpp"

namespace physarum::cuda {

struct FoodStrengths {
  float k[rule::kMaxSpecies];  // per channel
};

// For each j < n: F_c[cells[j]] = F_c + k_c * values[j] for c < channels (stride floats per cell).
void launch_emission(cudaStream_t stream, float* field, const uint32_t* cells, const float* values,
                     uint32_t n, int channels, int stride, FoodStrengths strengths);

// Every channel (stride floats) of each of the n cells becomes +0.
void launch_clear_walls(cudaStream_t stream, float* field, const uint32_t* cells, uint32_t n, int stride);

}  // namespace physarum::cuda
