#include "export/vdb_file.hpp"

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "sim/atomic_file.hpp"
#include "sim/params.hpp"

#if PHYSARUM_HAS_OPENVDB
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#endif

namespace physarum::app::exporter {

std::string vdb_missing_message() {
  return "this build has no OpenVDB support (it was configured with -DPHYSARUM_OPENVDB=OFF): install "
         "libopenvdb-dev (scripts/install-deps) and configure with -DPHYSARUM_OPENVDB=ON, or export .npy, a "
         ".png stack or a mesh instead";
}

#if PHYSARUM_HAS_OPENVDB

namespace {

// An archive's header: magic (8 bytes), file format version (4), library version (8), "has grid
// offsets" (1), then a random UUID as 36 characters. A random id would make every file differ, so it
// is replaced by one made from the rest of the file.
constexpr size_t kUuidAt = 21, kUuidLength = 36;

void stable_uuid(std::string& bytes) {
  const bool looks_like_uuid = bytes.size() > kUuidAt + kUuidLength && bytes[kUuidAt + 8] == '-' &&
                               bytes[kUuidAt + 13] == '-' && bytes[kUuidAt + 18] == '-' &&
                               bytes[kUuidAt + 23] == '-';
  if (!looks_like_uuid)
    throw Error("OpenVDB wrote a header this program does not know (no UUID where expected)");
  // Two FNV-1a hashes (64 bits each, different offsets) of everything but the id.
  uint64_t h[2] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i >= kUuidAt && i < kUuidAt + kUuidLength) continue;
    for (uint64_t& x : h) x = (x ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ULL;
  }
  std::string hex;
  for (uint64_t x : h) {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(x));
    hex += b;
  }
  const std::string id = hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
                         hex.substr(16, 4) + "-" + hex.substr(20, 12);
  bytes.replace(kUuidAt, kUuidLength, id);
}

openvdb::FloatGrid::Ptr make_grid(int width, int height, int depth, const VdbChannel& c,
                                  const VdbOptions& o) {
  openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(0.0f);
  openvdb::FloatGrid::Accessor acc = grid->getAccessor();
  size_t v = 0;
  for (int z = 0; z < depth; ++z) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x, ++v) {
        if (std::abs(c.values[v]) > o.cutoff) acc.setValue(openvdb::Coord(x, y, z), c.values[v]);
      }
    }
  }
  grid->setName(c.name);
  grid->setGridClass(openvdb::GRID_FOG_VOLUME);
  grid->setTransform(openvdb::math::Transform::createLinearTransform(o.voxel_size));
  grid->setCreator("physarum");
  return grid;
}

std::string read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw Error("cannot read back '" + file.string() + "'");
  return bytes;
}

}  // namespace

bool vdb_available() {
  return true;
}

void write_vdb(const std::filesystem::path& file, int width, int height, int depth,
               const std::vector<VdbChannel>& channels, const VdbOptions& o) {
  openvdb::initialize();
  openvdb::GridPtrVec grids;
  for (const VdbChannel& c : channels) grids.push_back(make_grid(width, height, depth, c, o));
  openvdb::MetaMap meta;
  meta.insertMeta("creator", openvdb::StringMetadata("physarum"));
  meta.insertMeta("recipe", openvdb::StringMetadata(o.recipe));
  // OpenVDB writes a file by name; written beside the target first, its id made stable, then moved
  // into place whole.
  const std::filesystem::path scratch =
      file.parent_path() / ("." + file.filename().string() + ".vdb-" + std::to_string(::getpid()));
  std::string bytes;
  try {
    openvdb::io::File out(scratch.string());
    out.write(grids, meta);
    out.close();
    bytes = read_bytes(scratch);
  } catch (const openvdb::Exception& e) {
    std::error_code ignored;
    std::filesystem::remove(scratch, ignored);
    throw Error("cannot write '" + file.string() + "': " + e.what());
  }
  std::error_code ignored;
  std::filesystem::remove(scratch, ignored);
  stable_uuid(bytes);
  write_file_atomically(file, bytes);
}

VdbFileRead read_vdb(const std::filesystem::path& file) {
  openvdb::initialize();
  VdbFileRead r;
  try {
    openvdb::io::File in(file.string());
    in.open();
    const openvdb::MetaMap::Ptr meta = in.getMetadata();
    for (auto it = meta->beginMeta(); it != meta->endMeta(); ++it)
      r.metadata.emplace_back(it->first, it->second->str());
    const openvdb::GridPtrVecPtr grids = in.getGrids();
    for (const openvdb::GridBase::Ptr& base : *grids) {
      const openvdb::FloatGrid::Ptr g = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
      if (!g) throw Error("'" + file.string() + "': grid '" + base->getName() + "' is not a FloatGrid");
      VdbGridRead out;
      out.name = g->getName();
      out.grid_class = openvdb::GridBase::gridClassToString(g->getGridClass());
      const openvdb::Vec3d vs = g->voxelSize();
      out.voxel_size = {vs[0], vs[1], vs[2]};
      out.background = g->background();
      out.creator = g->getCreator();
      for (auto it = g->cbeginValueOn(); it; ++it) {
        const openvdb::Coord c = it.getCoord();
        out.active.push_back({{c.x(), c.y(), c.z()}, *it});
      }
      std::sort(out.active.begin(), out.active.end());
      r.grids.push_back(std::move(out));
    }
    in.close();
  } catch (const openvdb::Exception& e) {
    throw Error("cannot read '" + file.string() + "': " + e.what());
  }
  return r;
}

#else

bool vdb_available() {
  return false;
}

void write_vdb(const std::filesystem::path& file, int, int, int, const std::vector<VdbChannel>&,
               const VdbOptions&) {
  throw Error("cannot write '" + file.string() + "': " + vdb_missing_message());
}

VdbFileRead read_vdb(const std::filesystem::path& file) {
  throw Error("cannot read '" + file.string() + "': " + vdb_missing_message());
}

#endif

}  // namespace physarum::app::exporter
