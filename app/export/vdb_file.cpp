#include "export/vdb_file.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "export/vdb_abi.hpp"
#include "sim/atomic_file.hpp"
#include "sim/data_dir.hpp"
#include "sim/params.hpp"

namespace physarum::app::exporter {
namespace {

// The module, loaded once, or why it could not be.
struct Module {
  PhysarumVdbWriteFn write = nullptr;
  PhysarumVdbReadFn read = nullptr;
  std::string missing;
};

Module load() {
  Module m;
#if PHYSARUM_HAS_OPENVDB
  // Beside the program as installed (and as built: the build tree has the same layout).
  const std::filesystem::path file = executable_path().parent_path() / PHYSARUM_VDB_MODULE;
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    m.missing = "the OpenVDB module '" + file.string() + "' could not be loaded (" + (why ? why : "?") +
                "): reinstall physarum, or build it with libopenvdb-dev installed";
    return m;
  }
  m.write = reinterpret_cast<PhysarumVdbWriteFn>(::dlsym(handle, "physarum_vdb_write"));
  m.read = reinterpret_cast<PhysarumVdbReadFn>(::dlsym(handle, "physarum_vdb_read"));
  if (m.write == nullptr || m.read == nullptr)
    m.missing = "the OpenVDB module '" + file.string() + "' is not this program's";
#else
  m.missing =
      "this build has no OpenVDB support (it was configured with -DPHYSARUM_OPENVDB=OFF): install "
      "libopenvdb-dev (scripts/install-deps) and configure with -DPHYSARUM_OPENVDB=ON, or export .npy, a "
      ".png stack or a mesh instead";
#endif
  return m;
}

const Module& module() {
  static const Module m = load();
  return m;
}

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

std::string read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error("cannot read back '" + file.string() + "'");
  return bytes;
}

}  // namespace

bool vdb_available() {
  return module().write != nullptr;
}

std::string vdb_missing_message() {
  return module().missing.empty() ? std::string() : module().missing;
}

void write_vdb(const std::filesystem::path& file, int width, int height, int depth,
               const std::vector<VdbChannel>& channels, const VdbOptions& o) {
  if (!vdb_available()) throw Error("cannot write '" + file.string() + "': " + vdb_missing_message());
  std::vector<PhysarumVdbChannel> c;
  for (const VdbChannel& ch : channels) c.push_back({ch.name.c_str(), ch.values});
  // OpenVDB writes a file by name: beside the target first, its id made stable, then moved into
  // place whole.
  // Built piecewise: GCC 12 warns falsely (-Wrestrict) about "." + std::string.
  std::string name(1, '.');
  name += file.filename().string();
  name += ".vdb-";
  name += std::to_string(::getpid());
  const std::filesystem::path scratch = file.parent_path() / name;
  char error[512] = {};
  const int failed = module().write(scratch.c_str(), width, height, depth, static_cast<int>(c.size()),
                                    c.data(), o.voxel_size, o.cutoff, o.recipe.c_str(), error, sizeof error);
  std::string bytes;
  if (!failed) bytes = read_bytes(scratch);
  std::error_code ignored;
  std::filesystem::remove(scratch, ignored);
  if (failed) throw Error("cannot write '" + file.string() + "': " + error);
  stable_uuid(bytes);
  write_file_atomically(file, bytes);
}

VdbFileRead read_vdb(const std::filesystem::path& file) {
  if (!vdb_available()) throw Error("cannot read '" + file.string() + "': " + vdb_missing_message());
  VdbFileRead r;
  PhysarumVdbReader reader;
  reader.context = &r;
  reader.metadata = [](void* ctx, const char* name, const char* value) {
    static_cast<VdbFileRead*>(ctx)->metadata.emplace_back(name, value);
  };
  reader.grid = [](void* ctx, const char* name, const char* grid_class, const double* voxel_size,
                   float background, const char* creator) {
    VdbGridRead g;
    g.name = name;
    g.grid_class = grid_class;
    g.voxel_size = {voxel_size[0], voxel_size[1], voxel_size[2]};
    g.background = background;
    g.creator = creator;
    static_cast<VdbFileRead*>(ctx)->grids.push_back(std::move(g));
  };
  reader.voxel = [](void* ctx, int x, int y, int z, float value) {
    static_cast<VdbFileRead*>(ctx)->grids.back().active.push_back({{x, y, z}, value});
  };
  char error[512] = {};
  if (module().read(file.c_str(), &reader, error, sizeof error) != 0) {
    throw Error("cannot read '" + file.string() + "': " + error);
  }
  for (VdbGridRead& g : r.grids) std::sort(g.active.begin(), g.active.end());
  return r;
}

}  // namespace physarum::app::exporter
