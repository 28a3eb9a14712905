// libFuzzer target: arbitrary bytes as a `.npy` field, a plane's and a volume's (export --field reads
// them through a file, so the bytes go to one). A clean Error is the expected answer; what is
// accepted has the data its shape promises.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "sim/npy.hpp"
#include "sim/params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A file in memory (a disk file costs milliseconds a write), opened by path as a user's file is.
  static const int fd = ::memfd_create("fuzz.npy", 0);
  static const std::filesystem::path file = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    __builtin_trap();
  }
  try {
    const physarum::NpyArray a = physarum::read_npy_planes(file);
    const size_t cells = static_cast<size_t>(a.height) * static_cast<size_t>(a.width);
    if (a.height < 1 || a.width < 1 || a.planes < 1 ||
        a.data.size() != cells * static_cast<size_t>(a.planes) || a.data.size() * 4 >= size) {
      __builtin_trap();
    }
  } catch (const physarum::Error&) {
  }
  try {
    const physarum::NpyVolume v = physarum::read_npy_volume_field(file);
    const size_t voxels =
        static_cast<size_t>(v.width) * static_cast<size_t>(v.height) * static_cast<size_t>(v.depth);
    if (v.width < 1 || v.height < 1 || v.depth < 1 || v.species < 1 ||
        v.data.size() != voxels * static_cast<size_t>(v.species) || v.data.size() * 4 >= size) {
      __builtin_trap();
    }
  } catch (const physarum::Error&) {
  }
  return 0;
}
