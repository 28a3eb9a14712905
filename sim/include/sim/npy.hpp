// NumPy .npy files (version 1.0, little-endian float32, C order) for fields.
#pragma once

#include <filesystem>
#include <vector>

namespace physarum {

// Written through a temporary file renamed into place (sim/atomic_file.hpp): on any failure (a
// full disk, a path that is a FIFO or a directory) it throws Error and an existing file is untouched.
// Shape (H, W), or (planes, H, W) for planes > 1 (one plane per species).
void write_npy(const std::filesystem::path& file, const float* data, int height, int width, int planes = 1);
// The same for any C-order shape (a stack of fields: (ny, nx, H, W)); every dimension >= 1.
void write_npy_shape(const std::filesystem::path& file, const float* data, const std::vector<int>& shape);

struct NpyArray {
  int height = 0;
  int width = 0;
  int planes = 1;  // > 1 only from read_npy_planes: (planes, H, W), plane after plane
  std::vector<float> data;
};
NpyArray read_npy(const std::filesystem::path& file);  // 2-D float32 only; throws Error
// 2-D (H, W) or 3-D (S, H, W) float32, as `physarum run` writes for S species; throws Error.
NpyArray read_npy_planes(const std::filesystem::path& file);
// As read_npy_planes, every check included (the file's size too), with `data` left empty: what a
// command needs to plan its work before reading a field it may refuse.
NpyArray read_npy_planes_shape(const std::filesystem::path& file);

}  // namespace physarum
