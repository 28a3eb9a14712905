// Keeping what Explore found: a result saved as a preset under a name chosen for it, and the
// favourites, which are presets too, in $XDG_DATA_HOME/physarum/favourites (else
// ~/.local/share/physarum/favourites), so they outlive the session.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sim/params.hpp"

namespace physarum::app {

// dir/stem.toml, or the first of dir/stem-2.toml, dir/stem-3.toml, ... that does not exist,
// written with `p` (run::save_user_preset: the folder is made, the write is atomic). Throws Error
// naming the stem when it is not a valid preset name, or when the file cannot be written.
std::filesystem::path save_unique_preset(const Preset& p, const std::filesystem::path& dir,
                                         const std::string& stem);

// The favourites' folder; empty when there is no data folder (then favourites last the session).
std::filesystem::path favourites_dir();

struct Favourite {
  std::filesystem::path file;  // empty: not saved
  Preset preset;
};
// The presets of `dir` (run::list_presets order); files that cannot be read are skipped.
std::vector<Favourite> load_favourites(const std::filesystem::path& dir);

}  // namespace physarum::app
