// OpenVDB files of a volume: one FloatGrid a channel. OpenVDB itself lives in a module loaded only
// when a .vdb is written or read (export/vdb_abi.hpp says why); the library is optional (the CMake
// option PHYSARUM_OPENVDB): without it, or without the module beside the program,
// vdb_available() is false and the functions throw Error saying how to get it.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "export/volume_mesh.hpp"

namespace physarum::app::exporter {

bool vdb_available();
// Why a .vdb cannot be written (this build has no OpenVDB, or its module cannot be loaded) and how
// to get one that can; empty when it can.
std::string vdb_missing_message();

struct VdbChannel {
  std::string name;               // the grid's name
  const float* values = nullptr;  // (D, H, W) of the volume's size
};

struct VdbOptions {
  double voxel_size = 1;  // world units a voxel: voxel (x, y, z)'s centre at voxel_size * (x, y, z)
  // Voxels whose |value| is at most this are left inactive (they read as the background, 0).
  float cutoff = 0;
  std::string recipe;  // file metadata "recipe", with "creator" = "physarum"
};

// Sparse fog volumes (GridClass FOG_VOLUME, background 0), one per channel, in x, y, z = the
// volume's width, height and depth. Whole or not at all (written beside `file`, renamed into
// place). The file's unique id is made from its content, so equal inputs give equal bytes.
void write_vdb(const std::filesystem::path& file, int width, int height, int depth,
               const std::vector<VdbChannel>& channels, const VdbOptions& o);

// What OpenVDB's own reader finds in a file: each grid's name, class, voxel size, metadata and
// active voxels ((x, y, z), value), in the reader's order; the file's metadata.
struct VdbGridRead {
  std::string name;
  std::string grid_class;
  std::array<double, 3> voxel_size{};
  float background = 0;
  std::string creator;
  std::vector<std::pair<std::array<int, 3>, float>> active;
};
struct VdbFileRead {
  std::vector<VdbGridRead> grids;
  std::vector<std::pair<std::string, std::string>> metadata;  // name, value as text
};
VdbFileRead read_vdb(const std::filesystem::path& file);

}  // namespace physarum::app::exporter
