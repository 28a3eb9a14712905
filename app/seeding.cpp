#include "seeding.hpp"

#include "sim/spawn.hpp"

namespace physarum::app {

bool seed_from_image(Backend& backend, const Preset& preset, const std::filesystem::path& file, ImageFit fit,
                     std::string* message) {
  const std::string name = file.filename().string();
  std::vector<float> brightness;
  AgentState agents;
  try {
    // Everything that can fail happens before the backend is touched.
    const LumaImage img = load_luma(file);
    brightness = image_to_field(img, backend.size(), 1.0f, fit);
    if (preset.spawn.agents_from_image) {
      agents = spawn_from_image(brightness, backend.size(), backend.agent_count(), preset.run.seed);
    }
  } catch (const std::exception& e) {
    if (message) *message = "cannot seed from " + name + ": " + e.what();
    return false;
  }
  std::vector<float> field = brightness;
  for (float& v : field) v *= preset.spawn.field_strength;
  backend.set_field(field);
  if (preset.spawn.agents_from_image) backend.set_agents(agents);
  if (message) {
    *message =
        "seeded the field from " + name + (preset.spawn.agents_from_image ? " (agents respawned)" : "");
  }
  return true;
}

}  // namespace physarum::app
