// The food and walls maps a network report measures against (issue 11), as grids of the field's
// size. Until the simulation carries an environment itself, they are read from the [environment]
// table of the preset file, resized to the field as a seed image is.
#pragma once

#include <filesystem>
#include <optional>

#include "analysis/network.hpp"
#include "sim/image.hpp"
#include "sim/params.hpp"

namespace physarum::app::analysis {

struct EnvironmentFiles {
  std::filesystem::path food;    // empty: none
  std::filesystem::path walls;   // empty: none
  float walls_threshold = 0.5f;  // walls image pixels with luma below this are walls
};

// The [environment] table's food, walls and walls_threshold keys of a preset file, paths taken
// relative to the file's folder; no table (or no file) gives no maps. Only these keys are read: the
// table's other keys belong to the simulation. Throws Error for a file that is not TOML or a key of
// the wrong type. Call it on a file load_preset has accepted (which checks size and nesting first).
EnvironmentFiles environment_files_in(const std::filesystem::path& preset_file);

struct EnvironmentMaps {
  std::optional<Grid> food;   // luma in [0, 1]; below half an 8-bit grey level is no food
  std::optional<Mask> walls;  // 1 = wall
};

// Loads and resizes the images (sim/image.hpp: luma, Mitchell filter, fill or fit). Throws Error for
// a bad image, naming it.
EnvironmentMaps load_environment_maps(const EnvironmentFiles& files, Size field, ImageFit fit);

}  // namespace physarum::app::analysis
