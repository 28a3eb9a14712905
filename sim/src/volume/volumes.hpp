// Internal: the volume's backends (volume.cpp picks one) and what they share.
#pragma once

#include <cstddef>
#include <memory>

#include "sim/volume.hpp"

namespace physarum {

size_t voxels_of(Size s);
std::unique_ptr<Volume> make_cpu_volume(const VolumeConfig& c);
#if defined(PHYSARUM_HAS_CUDA)
std::unique_ptr<Volume> make_cuda_volume(const VolumeConfig& c);  // sim/cuda/volume/volume_cuda.cu
#endif

}  // namespace physarum
