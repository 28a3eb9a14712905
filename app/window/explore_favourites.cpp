#include "window/explore_favourites.hpp"

#include <system_error>

#include "run/preset_library.hpp"
#include "sim/preset.hpp"
#include "window/xdg_folders.hpp"

namespace physarum::app {

std::filesystem::path save_unique_preset(const Preset& p, const std::filesystem::path& dir,
                                         const std::string& stem) {
  try {
    run::check_preset_name(stem);
  } catch (const Error& e) {
    throw Error("preset name '" + stem + "': " + e.what());
  }
  constexpr int kTries = 10000;
  for (int n = 1; n <= kTries; ++n) {
    const std::string name = n == 1 ? stem : stem + "-" + std::to_string(n);
    std::error_code ec;
    if (std::filesystem::exists(dir / (name + ".toml"), ec) || ec) continue;
    return run::save_user_preset(p, dir, name);
  }
  throw Error("cannot save '" + stem + "': " + std::to_string(kTries) + " presets of that name exist in " +
              dir.string());
}

std::filesystem::path favourites_dir() {
  return xdg_folder(XdgFolder::Data, "favourites");
}

std::vector<Favourite> load_favourites(const std::filesystem::path& dir) {
  std::vector<Favourite> out;
  if (dir.empty()) return out;
  for (const run::PresetEntry& e : run::list_presets({}, dir)) {
    try {
      out.push_back({e.file, load_preset(e.file)});
    } catch (const Error&) {
      // A favourite edited into something unreadable is left alone on disk and not shown.
    }
  }
  return out;
}

}  // namespace physarum::app
