// The environment from images (docs/MODEL.md, "Environment"): a food map (its brightness is E) and a
// walls map (cells darker than the threshold are walls), resized to the field like the seed image.
// Bad files are refused like a bad seed image: a clear message, nothing changed.
#pragma once

#include <filesystem>
#include <string>

#include "sim/backend.hpp"
#include "sim/environment.hpp"
#include "sim/params.hpp"

namespace physarum::run {

// The sim Environment a preset's [environment] describes, for a field of `size` with `species`
// (the preset's species set: their own food_strength win over [environment] food_strength).
// Relative paths are taken as given (run::resolve makes a preset file's paths relative to it).
// Throws Error for an unreadable or corrupt image, naming the key and the file.
Environment load_environment(const EnvironmentParams& params, const SpeciesSet& species, Size size);

// The per-species strengths of a preset: one value when no species gives its own, else one per species.
std::vector<float> food_strengths(const EnvironmentParams& params, const SpeciesSet& species);

enum class MapKind { Food, Walls };
// Replaces the food map or the walls of a running simulation with an image (what the window's drop
// dialog calls). Returns false, with the reason in `message`, and changes nothing when the image or
// the resulting environment is refused (e.g. walls everywhere).
bool set_map_from_image(Backend& backend, MapKind kind, const std::filesystem::path& file, ImageFit fit,
                        float walls_threshold, std::string* message);

}  // namespace physarum::run
