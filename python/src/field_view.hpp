// A view of a simulation's field without a copy, through the DLPack protocol (__dlpack__,
// __dlpack_device__): torch.from_dlpack reads the CUDA backend's device memory, numpy.from_dlpack
// the CPU backend's host memory.
#pragma once

#include <pybind11/pybind11.h>

#include "sim/backend.hpp"

namespace physarum::python {

// Shape and strides (in floats) of a field stored as `storage` says: (H, W) with strides
// (W * cell_stride, cell_stride) for one species, (S, H, W) with (1, W * cell_stride, cell_stride)
// for S species, the channels interleaved as the backends keep them; a volume (size.depth > 1)
// (D, H, W) with (H W, W, 1), or (S, D, H, W) with the channels one after another.
inline constexpr int kMaxFieldDims = 4;
struct FieldLayout {
  int ndim = 2;
  int64_t shape[kMaxFieldDims] = {0, 0, 0, 0};
  int64_t strides[kMaxFieldDims] = {0, 0, 0, 0};
};
FieldLayout field_layout(Size size, int species, int cell_stride);

// A DLPack capsule ("dltensor") of the field at `storage`. It holds a reference to `owner` (the
// Sim) until the consumer releases the tensor, so the memory outlives every Python reference to the
// Sim that the consumer drops.
pybind11::capsule make_dlpack_capsule(const FieldStorage& storage, const FieldLayout& layout,
                                      pybind11::handle owner);

// (device type, device id) as __dlpack_device__ returns them: (1, 0) for host memory, (2, n) for
// CUDA device n.
pybind11::tuple dlpack_device(const FieldStorage& storage);

}  // namespace physarum::python
