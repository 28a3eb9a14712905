// Palettes: colour stops read from text files in assets/palettes (format in its README.md),
// turned into a 256-entry RGBA8 lookup table that the shader and the CPU colouring share.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace physarum::render {

struct ColorStop {
  float pos = 0;  // [0, 1]
  uint8_t r = 0, g = 0, b = 0;
};

inline constexpr int kLutSize = 256;

struct Palette {
  std::string name;
  bool discrete = false;  // bands of flat colour (terrain, caves) instead of a smooth ramp
  std::vector<ColorStop> stops;
  std::array<uint8_t, kLutSize * 4> lut{};  // RGBA8, entry 0 = low end
};

// Throws Error "<source>:<line>: <what is wrong>". Stops must be in increasing order in [0, 1].
Palette parse_palette(std::string_view text, const std::string& name, const std::string& source);
Palette load_palette(const std::filesystem::path& file);  // name = file stem
void build_lut(Palette& p);                               // fills lut from stops
Palette greyscale_palette();                              // built in: the fallback

inline constexpr std::string_view kPaletteExtension = ".palette";
// The folder palettes are read from (sim/data_dir.hpp: $PHYSARUM_PALETTE_DIR, $PHYSARUM_DATA_DIR, or
// next to the program).
std::filesystem::path palette_dir();

struct PaletteSet {
  std::vector<Palette> palettes;    // sorted by name; never empty (greyscale when none load)
  std::vector<std::string> errors;  // one line per file that could not be read
  // Index of the palette called `name`, or of the first one when there is none by that name.
  size_t index_of(std::string_view name) const;
};
PaletteSet load_palettes(const std::filesystem::path& dir);

// The palette called `name` in `palettes` (read from palette_dir()); Error naming the ones there
// are otherwise. Where a name must exist (a preset's display, a keyframe, a drawing asked for by
// name), unlike index_of's fallback for the window's list.
const Palette& palette_named(const PaletteSet& palettes, const std::string& name);

}  // namespace physarum::render
