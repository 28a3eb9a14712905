// A recipe: everything that makes a run (preset, overrides, size, agents, seed, seed image,
// environment maps, backend), as the command line, the window and Python give it. resolve() turns
// it into the preset it means; run/run.hpp turns it into a running simulation.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/image.hpp"
#include "sim/params.hpp"

namespace physarum::run {

// A bad value given by the caller (e.g. "--size 0x5"), not a failure of a file or a device: the
// command line exits with code 2, Python raises ValueError.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Exit codes of the program: UsageError is kExitUsage, any other failure kExitRuntime.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

// A file the recipe names that cannot be used (an unreadable seed image, a food map that is not a
// regular file). The command line reports it as any runtime failure; Python, which took the name as
// an argument, raises ValueError.
class InputError : public Error {
 public:
  using Error::Error;
};

struct Recipe {
  std::string preset;          // a preset's name or file; empty: the built-in defaults
  std::optional<Preset> base;  // a preset already in memory (the window's live one): wins over `preset`
  std::string size;            // "WxH"; empty: the preset's
  std::string agents;          // "1000", "250K", "4M"; empty: the preset's
  std::optional<uint32_t> seed;
  int scale =
      0;  // --scale K, 1 to kMaxScale: the detail, the sides K times and K^2 the agents; 0: the preset's
  std::string image;                 // seed image file
  std::optional<LumaImage> picture;  // seed image in memory (Python's arrays); wins over `image`
  std::string image_fit = "fill";    // fill (cover, cropped) | fit (letterboxed)
  std::string food;                  // food map image (overrides environment.food)
  std::string walls;                 // walls image (overrides environment.walls)
  std::string points;                // a volume's point data (overrides environment.points)
  std::string points_box;            // "xmin:xmax,ymin:ymax,zmin:zmax" (overrides environment.points_box)
  std::string backend = "auto";      // auto | cpu | cuda
  int threads = 0;                   // CPU backend threads, 0 = all
  std::vector<std::string> sets;     // "section.key=value", applied in order after the preset
  SpeciesSet species;                // non-empty: replaces the preset's species (the window's loaded preset)
};

// Preset file (or defaults), then each `sets`, then size, agents and seed (the more specific wins),
// maps and species, validated. Throws UsageError naming the offending value (a preset file that
// cannot be read is an Error).
// The agent count: one given (--agents, run.agents in `sets`) is kept; else run.density decides it;
// else, at another size than the preset's, it follows the area (the preset's agents per cell). Then
// a scale K (--scale, or run.scale in `sets`) other than the preset's K0 multiplies the sides by
// K / K0 and the agents by (K / K0)^2 (docs/MODEL.md, "Scale"). `chosen` (if given) receives what
// was chosen for the user, "640x360 with 60K agents (...)", or "" when the preset's own run is kept.
// A recipe naming no preset starts from the built-in defaults, made for a plane; one whose size has
// a depth starts from kVolumeDefaults, a volume's preset (Jones in 3D, food outweighing a light
// deposit, so point data is joined by tubes).
inline constexpr const char* kVolumeDefaults = "web-3d";
Preset resolve(const Recipe& r, std::string* chosen = nullptr);

// A preset's map images are found beside the preset file it came from (a preset names "towns.png",
// not a path from wherever the program runs): relative map paths of `p` become relative to `file`.
void locate_maps_beside(Preset& p, const std::filesystem::path& file);

// `r` with `p` as the whole of its preset (the preset file, overrides, size, agents, seed, maps and
// species are p's, typed), keeping r's backend, threads and seed image: a run rebuilt from a
// preset in memory, or a twin that differs by a value.
Recipe with_base(Recipe r, const Preset& p);

// The recipe's backend kind and image fit; throw UsageError naming the value.
BackendKind backend_kind(const Recipe& r);
ImageFit image_fit(const Recipe& r);

}  // namespace physarum::run
