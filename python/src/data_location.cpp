#include "data_location.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace physarum::python {

namespace fs = std::filesystem;

std::string point_data_dir_at_module() {
  if (const char* set = std::getenv("PHYSARUM_DATA_DIR"); set != nullptr && *set != '\0') return set;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&point_data_dir_at_module), &info) == 0 || info.dli_fname == nullptr)
    return "";
  std::error_code ec;
  const fs::path folder = fs::absolute(info.dli_fname, ec).parent_path();
  fs::path installed = folder;
  for (int i = 0; i < PHYSARUM_PYTHON_INSTALL_DEPTH; ++i) installed = installed.parent_path();
  for (const fs::path& root : {folder.parent_path(), installed}) {
    const fs::path share = root / "share" / "physarum";
    if (fs::is_directory(share / "presets", ec)) {
      setenv("PHYSARUM_DATA_DIR", share.c_str(), 0);
      return share.string();
    }
  }
  return "";
}

}  // namespace physarum::python
