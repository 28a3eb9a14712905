// Every file one command writes, gathered and checked together before any work is done: each one
// can be written (check_writable_target) and no two of them are the same file, so one output never
// silently replaces another.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/atomic_file.hpp"

namespace physarum::app {

class OutputPaths {
 public:
  // `what` names the file in messages as the user gave it ("--out", "--report", or "the tileset of
  // --out map.tmj" for a file written without being named). Throws UsageError naming `what` and
  // the path.
  void add(std::string_view what, const std::filesystem::path& file,
           WritableTarget kind = WritableTarget::RegularFile);

 private:
  struct Entry {
    std::string what;
    std::filesystem::path file;
    std::filesystem::path same;  // the file as the system finds it, for comparing
  };
  std::vector<Entry> entries_;
};

}  // namespace physarum::app
