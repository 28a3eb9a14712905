// The presets the window offers: the shipped ones (share/physarum/presets, see sim/data_dir.hpp) and the
// user's own (~/.config/physarum/presets, or $XDG_CONFIG_HOME/physarum/presets), where the panel
// saves new ones.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sim/params.hpp"

namespace physarum::run {

struct PresetEntry {
  std::string name;  // file stem
  std::filesystem::path file;
  bool user = false;  // from the user's directory
};

std::filesystem::path shipped_preset_dir();
std::filesystem::path user_preset_dir();
// The user's physarum config folder: $XDG_CONFIG_HOME/physarum, else ~/.config/physarum; empty when
// neither variable is set.
std::filesystem::path user_config_dir();

// The *.toml files of each directory (missing directories are skipped), sorted by name within
// each; shipped ones first.
std::vector<PresetEntry> list_presets(const std::filesystem::path& shipped,
                                      const std::filesystem::path& user);

// What --preset takes: a file (anything with a '/' or ending in .toml, used as given) or the name of
// a user or shipped preset (the user's own first, as on a PATH). An unknown name throws UsageError
// naming the folders it looked in and at most a few close names.
std::filesystem::path find_preset(const std::string& name_or_file);

// A preset's whole leading comment (the `#` lines before its first key or table), as paragraphs
// (an empty comment line parts them), each paragraph's lines joined into one line of words: what
// `physarum presets` shows. Empty when the file has none or cannot be read.
std::vector<std::string> preset_description(const std::filesystem::path& file);

// The first sentence of a preset's leading comment, cut to about `width` characters: what
// `physarum presets` shows. Empty when the file has no leading comment or cannot be read.
std::string preset_summary(const std::filesystem::path& file, size_t width = 72);

// Checks a name for a new preset: letters, digits, '-', '_', '.', ' ' only, 1..64 characters, not
// starting with '.'. Throws Error saying what is wrong.
void check_preset_name(const std::string& name);

// Saves `p` as dir/name.toml (creating dir), atomically. Throws Error. Returns the file written.
std::filesystem::path save_user_preset(const Preset& p, const std::filesystem::path& dir,
                                       const std::string& name);

}  // namespace physarum::run
