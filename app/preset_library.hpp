// The presets the window offers: the shipped ones (assets/presets, or $PHYSARUM_PRESET_DIR) and the
// user's own (~/.config/physarum/presets, or $XDG_CONFIG_HOME/physarum/presets), where the panel
// saves new ones.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sim/params.hpp"

namespace physarum::app {

struct PresetEntry {
  std::string name;  // file stem
  std::filesystem::path file;
  bool user = false;  // from the user's directory
};

std::filesystem::path shipped_preset_dir();
std::filesystem::path user_preset_dir();

// The *.toml files of each directory (missing directories are skipped), sorted by name within
// each; shipped ones first.
std::vector<PresetEntry> list_presets(const std::filesystem::path& shipped,
                                      const std::filesystem::path& user);

// Checks a name for a new preset: letters, digits, '-', '_', '.', ' ' only, 1..64 characters, not
// starting with '.'. Throws Error saying what is wrong.
void check_preset_name(const std::string& name);

// Saves `p` as dir/name.toml (creating dir), atomically. Throws Error. Returns the file written.
std::filesystem::path save_user_preset(const Preset& p, const std::filesystem::path& dir,
                                       const std::string& name);

}  // namespace physarum::app
