// NumPy .npy files (version 1.0, little-endian float32, C order) for fields.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>
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
// A volume's (D, H, W) float32 (planes = D, up to 16384), as `physarum run` writes a volume; throws Error.
NpyArray read_npy_volume(const std::filesystem::path& file);

// A volume's field as `physarum run` writes it: (D, H, W), or (S, D, H, W) for S species (up to
// kMaxSpecies), float32, sides up to kMaxSide. Throws Error; with_data false reads the header and
// checks the file's size only.
struct NpyVolume {
  int species = 1;
  int width = 0, height = 0, depth = 0;
  int dimensions = 3;       // of the file's shape: 3 or 4
  std::vector<float> data;  // S planes of D x H x W, z slowest
};
NpyVolume read_npy_volume_field(const std::filesystem::path& file, bool with_data = true);

// A 2-D (rows, columns) table of little-endian float32 or float64 numbers in C order (point data).
struct NpyTable {
  int64_t rows = 0;
  int columns = 0;
  bool float64 = false;
};
struct NpyTableLimits {
  int min_columns = 1;
  int max_columns = 1;
  int64_t max_rows = 0;
};
// Consecutive rows of `table` as doubles (float32 widened, which is exact): `count` rows of its
// columns from row `first`, row after row.
using NpyRows =
    std::function<void(const NpyTable& table, const double* values, int64_t first, int64_t count)>;
// Read in chunks, so that the file is never held whole next to what `rows` makes of it. `what`
// names the file in messages ("points"); a file over max_bytes (sim/input_file.hpp), another dtype,
// a column count outside the limits or more than max_rows rows is refused with an Error before any
// row is read; a file whose size does not match its shape too. Returns the shape.
NpyTable read_npy_table(const std::filesystem::path& file, std::string_view what, uint64_t max_bytes,
                        const NpyTableLimits& limits, const NpyRows& rows);

}  // namespace physarum
