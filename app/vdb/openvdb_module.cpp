// The OpenVDB module: everything that includes OpenVDB's headers or calls its library, behind the C
// interface of export/vdb_abi.hpp. Exceptions end here, as messages.
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "export/vdb_abi.hpp"

namespace {

void say(char* error, size_t size, const char* what) {
  std::snprintf(error, size, "%s", what);
}

// Runs `body` for the C interface: 0 when it returns, 1 with the reason in `error` when it throws
// (no exception crosses the module's boundary).
template <class Body>
int guarded(char* error, size_t error_size, Body&& body) {
  try {
    openvdb::initialize();
    body();
    return 0;
  } catch (const std::exception& e) {
    say(error, error_size, e.what());
  } catch (...) {
    say(error, error_size, "OpenVDB failed");
  }
  return 1;
}

openvdb::FloatGrid::Ptr make_grid(int width, int height, int depth, const PhysarumVdbChannel& c,
                                  double voxel_size, float cutoff) {
  openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(0.0f);
  openvdb::FloatGrid::Accessor acc = grid->getAccessor();
  size_t v = 0;
  for (int z = 0; z < depth; ++z) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x, ++v) {
        if (std::abs(c.values[v]) > cutoff) acc.setValue(openvdb::Coord(x, y, z), c.values[v]);
      }
    }
  }
  grid->setName(c.name);
  grid->setGridClass(openvdb::GRID_FOG_VOLUME);
  grid->setTransform(openvdb::math::Transform::createLinearTransform(voxel_size));
  grid->setCreator("physarum");
  return grid;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int physarum_vdb_write(
    const char* path, int width, int height, int depth, int count, const PhysarumVdbChannel* channels,
    double voxel_size, float cutoff, const char* recipe, char* error, size_t error_size) {
  return guarded(error, error_size, [&] {
    openvdb::GridPtrVec grids;
    for (int c = 0; c < count; ++c)
      grids.push_back(make_grid(width, height, depth, channels[c], voxel_size, cutoff));
    openvdb::MetaMap meta;
    meta.insertMeta("creator", openvdb::StringMetadata("physarum"));
    meta.insertMeta("recipe", openvdb::StringMetadata(recipe));
    openvdb::io::File out(path);
    out.write(grids, meta);
    out.close();
  });
}

extern "C" __attribute__((visibility("default"))) int physarum_vdb_read(const char* path,
                                                                        const PhysarumVdbReader* reader,
                                                                        char* error, size_t error_size) {
  return guarded(error, error_size, [&] {
    openvdb::io::File in(path);
    in.open();
    const openvdb::MetaMap::Ptr meta = in.getMetadata();
    for (auto it = meta->beginMeta(); it != meta->endMeta(); ++it) {
      reader->metadata(reader->context, it->first.c_str(), it->second->str().c_str());
    }
    const openvdb::GridPtrVecPtr grids = in.getGrids();  // held: the loop reads through it
    for (const openvdb::GridBase::Ptr& base : *grids) {
      const openvdb::FloatGrid::Ptr g = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
      if (!g) throw std::runtime_error("grid '" + base->getName() + "' is not a FloatGrid");
      const openvdb::Vec3d vs = g->voxelSize();
      const double size[3] = {vs[0], vs[1], vs[2]};
      reader->grid(reader->context, g->getName().c_str(),
                   openvdb::GridBase::gridClassToString(g->getGridClass()).c_str(), size, g->background(),
                   g->getCreator().c_str());
      for (auto it = g->cbeginValueOn(); it; ++it) {
        const openvdb::Coord c = it.getCoord();
        reader->voxel(reader->context, c.x(), c.y(), c.z(), *it);
      }
    }
    in.close();
  });
}
