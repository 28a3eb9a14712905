// The free space on a recording's disk: refused at the start when it is already short, and watched
// while recording so the recording stops cleanly before the disk is full.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace physarum::app {

class DiskWatch {
 public:
  // `free_space` reports the free bytes (a seam for tests); empty: statvfs of `dir`. `output` is
  // only named in messages.
  DiskWatch(std::filesystem::path output, const std::filesystem::path& dir, uint64_t min_free_bytes,
            std::function<uint64_t()> free_space);

  // Throws Error when the disk is already below the limit.
  void check_at_start() const;
  // Empty while the disk has room; else why the recording stops.
  std::string low_space_problem() const;
  uint64_t free_bytes() const;

 private:
  std::filesystem::path output_;
  uint64_t min_free_bytes_ = 0;
  std::function<uint64_t()> free_space_;
};

}  // namespace physarum::app
