// The module's data (shaders, palettes, presets, images) is found from the module's own folder, the
// way the program finds it from its executable (sim/data_dir.hpp): python3's executable says
// nothing about where physarum is.
#pragma once

#include <string>

namespace physarum::python {

// Sets PHYSARUM_DATA_DIR to share/physarum beside the module (build tree: one level up; installed:
// as many levels up as the install folder is deep) unless it is set already or neither exists.
// Returns the folder PHYSARUM_DATA_DIR names then (physarum.data_dir), or "" when it is not set.
std::string point_data_dir_at_module();

}  // namespace physarum::python
