// The XDG base folders the window keeps its own files in (the thumbnail cache, favourites). A
// variable that is unset, empty or relative is ignored, as the XDG base directory specification
// says; without an absolute $HOME either there is no folder, and nothing is written (never into
// the current directory).
#pragma once

#include <filesystem>

namespace physarum::app {

enum class XdgFolder {
  Cache,  // $XDG_CACHE_HOME, else $HOME/.cache
  Data,   // $XDG_DATA_HOME, else $HOME/.local/share
};

// <base>/physarum/<sub>, or empty when there is no base folder.
std::filesystem::path xdg_folder(XdgFolder which, const std::filesystem::path& sub);

}  // namespace physarum::app
