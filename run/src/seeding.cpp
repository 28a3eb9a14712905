#include "run/seeding.hpp"

#include <utility>

#include "sim/spawn.hpp"

namespace physarum::run {

ImageSeed prepare_image_seed(const std::filesystem::path& file, const Preset& preset, Size field,
                             uint64_t agent_count, ImageFit fit) {
  validate(preset.spawn);  // the strength may have been typed into the panel: refuse NaN, inf, < 0
  // Several species: a colour image seeds channels 0, 1, 2 from its red, green, blue (sim/image.hpp).
  const LumaImage img = preset.species.count() > 1 ? load_colour(file) : load_luma(file);
  return prepare_image_seed(img, preset, field, agent_count, fit);
}

ImageSeed prepare_image_seed(const LumaImage& img, const Preset& preset, Size field, uint64_t agent_count,
                             ImageFit fit) {
  validate(preset.spawn);
  const int channels = preset.species.count();
  ImageSeed seed;
  seed.field = image_to_field(img, field, 1.0f, fit);  // brightness in [0, 1]
  if (preset.spawn.agents_from_image) {
    seed.agents = spawn_from_image(seed.field, field, agent_count, preset.run.seed);
  }
  if (channels > 1) seed.field = image_to_channels(img, field, 1.0f, fit, channels);
  for (float& v : seed.field) v *= preset.spawn.field_strength;
  return seed;
}

void apply_image_seed(Backend& backend, const ImageSeed& seed) {
  backend.set_field(seed.field);
  if (seed.agents.size() > 0) backend.set_agents(seed.agents);
}

bool seed_from_image(Backend& backend, const Preset& preset, const std::filesystem::path& file, ImageFit fit,
                     std::string* message, ImageSeed* applied) {
  const std::string name = file.filename().string();
  ImageSeed seed;
  try {
    // Everything that can fail happens before the backend is touched.
    seed = prepare_image_seed(file, preset, backend.size(), backend.agent_count(), fit);
  } catch (const std::exception& e) {
    if (message) *message = "cannot seed from " + name + ": " + e.what();
    return false;
  }
  try {
    apply_image_seed(backend, seed);  // the backend checks the values again (finite, <= 1e30)
  } catch (const std::exception& e) {
    if (message) *message = "cannot seed from " + name + ": " + e.what();
    return false;
  }
  if (message) {
    *message =
        "seeded the field from " + name + (preset.spawn.agents_from_image ? " (agents respawned)" : "");
  }
  if (applied) *applied = std::move(seed);
  return true;
}

}  // namespace physarum::run
