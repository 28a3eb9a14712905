// Presets: the parameters as TOML (schema: assets/presets/README.md). Reading refuses unknown keys,
// wrong types and out-of-range values with "file:line: key: message"; writing is atomic.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "sim/params.hpp"

namespace physarum {

Preset parse_preset(std::string_view toml_text, const std::string& source_name = "preset");
Preset load_preset(const std::filesystem::path& file);
std::string preset_to_toml(const Preset& p);
// Writes to a temporary file beside `file`, then renames it over `file`. Throws Error (disk full,
// no permission) and leaves any existing file untouched.
void save_preset(const Preset& p, const std::filesystem::path& file);
// "section.key=value" (as on the command line's --set), validated like a preset line.
void apply_override(Preset& p, std::string_view assignment);

}  // namespace physarum
