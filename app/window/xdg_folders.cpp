#include "window/xdg_folders.hpp"

#include <cstdlib>

namespace physarum::app {
namespace {

std::filesystem::path absolute_env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return {};
  std::filesystem::path p(v);
  return p.is_absolute() ? p : std::filesystem::path();
}

}  // namespace

std::filesystem::path xdg_folder(XdgFolder which, const std::filesystem::path& sub) {
  const bool cache = which == XdgFolder::Cache;
  std::filesystem::path base = absolute_env(cache ? "XDG_CACHE_HOME" : "XDG_DATA_HOME");
  if (base.empty()) {
    const std::filesystem::path home = absolute_env("HOME");
    if (home.empty()) return {};
    base = cache ? home / ".cache" : home / ".local" / "share";
  }
  return base / "physarum" / sub;
}

}  // namespace physarum::app
