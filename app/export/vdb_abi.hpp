// The plain C interface of the OpenVDB module (app/vdb/openvdb_module.cpp), which the program loads
// with dlopen only when a .vdb is written or read: OpenVDB's libraries (log4cplus among them) start
// threads as they load, which every run of the program would otherwise carry, and which hang a forked
// child's exit.
#pragma once

#include <cstddef>

extern "C" {

struct PhysarumVdbChannel {
  const char* name;
  const float* values;  // (D, H, W)
};

// Writes the grids to `path` (a scratch file: the caller makes it whole and stable). 0 on success,
// else a message in `error`.
typedef int (*PhysarumVdbWriteFn)(const char* path, int width, int height, int depth, int count,
                                  const PhysarumVdbChannel* channels, double voxel_size, float cutoff,
                                  const char* recipe, char* error, size_t error_size);

struct PhysarumVdbReader {
  void* context;
  void (*metadata)(void* context, const char* name, const char* value);
  void (*grid)(void* context, const char* name, const char* grid_class, const double* voxel_size,
               float background, const char* creator);
  void (*voxel)(void* context, int x, int y, int z, float value);  // the last grid's active voxels
};
typedef int (*PhysarumVdbReadFn)(const char* path, const PhysarumVdbReader* reader, char* error,
                                 size_t error_size);
}
