// Where physarum's data lives: shaders, palettes, presets and seed images. One rule for each kind,
// first match wins:
//   1. $PHYSARUM_SHADER_DIR / $PHYSARUM_PALETTE_DIR / $PHYSARUM_PRESET_DIR / $PHYSARUM_IMAGE_DIR
//   2. $PHYSARUM_DATA_DIR/<kind>
//   3. <folder of the executable>/../share/physarum/<kind>
// Nothing is compiled in: an installed program (prefix/bin/physarum) finds prefix/share/physarum,
// and the build tree mirrors that layout (build/share/physarum/<kind> are links into the source
// tree, made at configure time), so a freshly built program finds its data the same way.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace physarum {

enum class DataKind { shaders, palettes, presets, images };

// "shaders", "palettes", ...: the folder name under share/physarum.
const char* data_kind_name(DataKind kind);

// Every place rule 1-3 gives, in order, each with where it came from ("$PHYSARUM_DATA_DIR", ...).
struct DataCandidate {
  std::filesystem::path dir;
  std::string origin;
};
std::vector<DataCandidate> data_dir_candidates(DataKind kind);

// The first candidate that is a directory. Throws Error naming every place it looked.
std::filesystem::path data_dir(DataKind kind);

// The running program's own file (/proc/self/exe); empty if it cannot be read.
std::filesystem::path executable_path();

}  // namespace physarum
