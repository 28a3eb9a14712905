// Seeding a running simulation from an image (a file dropped on the window, or --image): the
// field becomes the image's luminance times spawn.field_strength, resized to the field; with
// spawn.agents_from_image the agents are respawned where the image is bright.
#pragma once

#include <filesystem>
#include <string>

#include "sim/backend.hpp"
#include "sim/image.hpp"
#include "sim/preset.hpp"

namespace physarum::app {

// Returns true when the field (and, if asked, the agents) were replaced. On failure (unreadable,
// corrupt, too large) returns false, changes nothing and says why in `message`; on success
// `message` says what happened. Never throws for a bad file.
bool seed_from_image(Backend& backend, const Preset& preset, const std::filesystem::path& file, ImageFit fit,
                     std::string* message);

}  // namespace physarum::app
