#include "video/disk_watch.hpp"

#include <sys/statvfs.h>

#include <limits>

#include "sim/params.hpp"

namespace physarum::app {

DiskWatch::DiskWatch(std::filesystem::path output, const std::filesystem::path& dir, uint64_t min_free_bytes,
                     std::function<uint64_t()> free_space)
    : output_(std::move(output)), min_free_bytes_(min_free_bytes), free_space_(std::move(free_space)) {
  if (!free_space_) {
    free_space_ = [dir] {
      struct statvfs st {};
      if (::statvfs(dir.c_str(), &st) != 0) return std::numeric_limits<uint64_t>::max();
      return static_cast<uint64_t>(st.f_bavail) * static_cast<uint64_t>(st.f_frsize);
    };
  }
}

uint64_t DiskWatch::free_bytes() const {
  return free_space_();
}

void DiskWatch::check_at_start() const {
  if (const uint64_t free = free_bytes(); free < min_free_bytes_) {
    throw Error("cannot record to " + output_.string() + ": only " + std::to_string(free >> 20) +
                " MB free on its disk (a recording stops at " + std::to_string(min_free_bytes_ >> 20) +
                " MB)");
  }
}

std::string DiskWatch::low_space_problem() const {
  const uint64_t free = free_bytes();
  if (free >= min_free_bytes_) return {};
  return "stopped before the disk is full: " + std::to_string(free >> 20) + " MB left on the disk of " +
         output_.string() + " (a recording stops at " + std::to_string(min_free_bytes_ >> 20) + " MB)";
}

}  // namespace physarum::app
