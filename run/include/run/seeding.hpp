// Seeding a running simulation from an image (a file dropped on the window, or --image): the
// field becomes the image's luminance times spawn.field_strength, resized to the field; with
// spawn.agents_from_image the agents are respawned where the image is bright.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/image.hpp"
#include "sim/preset.hpp"

namespace physarum::run {

// What an image seed puts into a simulation, computed before the backend is touched.
struct ImageSeed {
  std::vector<float> field;  // luminance * spawn.field_strength, resized; several species and a colour image:
                             // S planes (R, G, B)
  AgentState agents;         // respawned agents when spawn.agents_from_image, else empty
};
// Loads and resizes the image and (if asked) spawns agents from it. Throws Error for a bad file
// or a spawn.field_strength that sim's validate() refuses.
ImageSeed prepare_image_seed(const std::filesystem::path& file, const Preset& preset, Size field,
                             uint64_t agent_count, ImageFit fit);
// The same from an image already in memory (the Python module's arrays); `img.rgb` may be empty.
ImageSeed prepare_image_seed(const LumaImage& img, const Preset& preset, Size field, uint64_t agent_count,
                             ImageFit fit);
void apply_image_seed(Backend& backend, const ImageSeed& seed);

// Returns true when the field (and, if asked, the agents) were replaced. On failure (unreadable,
// corrupt, too large) returns false, changes nothing and says why in `message`; on success
// `message` says what happened, and `applied` (when given) takes the seed. Never throws for a bad
// file or a bad spawn.field_strength.
bool seed_from_image(Backend& backend, const Preset& preset, const std::filesystem::path& file, ImageFit fit,
                     std::string* message, ImageSeed* applied = nullptr);

}  // namespace physarum::run
