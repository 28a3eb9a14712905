#include "run/environment_maps.hpp"

#include "sim/image.hpp"

namespace physarum::run {
namespace {

std::vector<float> brightness_of(const std::filesystem::path& file, Size size, ImageFit fit) {
  return image_to_field(load_luma(file), size, 1.0f, fit);  // [0, 1]
}

// The resize filter (Mitchell) overshoots a little at sharp edges: food stays >= 0.
std::vector<float> food_from(std::vector<float> brightness) {
  for (float& v : brightness) v = v > 0.0f ? v : 0.0f;
  return brightness;
}

}  // namespace

std::vector<float> food_strengths(const EnvironmentParams& params, const SpeciesSet& species) {
  bool own = false;
  for (const Species& s : species.list) own = own || s.food_strength.has_value();
  if (!own) return {params.food_strength};
  std::vector<float> out;
  for (const Species& s : species.list) out.push_back(s.food_strength.value_or(params.food_strength));
  return out;
}

Environment load_environment(const EnvironmentParams& params, const SpeciesSet& species, Size size) {
  validate(params);
  Environment e;
  e.boundary = params.boundary;
  e.food_strength = food_strengths(params, species);
  if (!params.food.empty()) {
    try {
      e.food = food_from(brightness_of(params.food, size, params.fit));
    } catch (const Error& err) {
      throw Error(std::string("environment.food: ") + err.what());
    }
  }
  if (!params.walls.empty()) {
    try {
      e.walls = walls_from_brightness(brightness_of(params.walls, size, params.fit), params.walls_threshold);
    } catch (const Error& err) {
      throw Error(std::string("environment.walls: ") + err.what());
    }
  }
  validate(e, size, species.count());
  return e;
}

bool set_map_from_image(Backend& backend, MapKind kind, const std::filesystem::path& file, ImageFit fit,
                        float walls_threshold, std::string* message) {
  const std::string name = file.filename().string();
  const char* what = kind == MapKind::Food ? "food map" : "walls";
  try {
    if (!(walls_threshold >= 0.0f && walls_threshold <= 1.0f)) {
      throw Error("the walls threshold must be in [0, 1]");
    }
    Environment next = backend.environment();
    const std::vector<float> b = brightness_of(file, backend.size(), fit);
    if (kind == MapKind::Food) {
      next.food = food_from(b);
    } else {
      next.walls = walls_from_brightness(b, walls_threshold);
    }
    backend.set_environment(next);  // validates first: a refused map changes nothing
  } catch (const std::exception& e) {
    if (message) *message = std::string("cannot use ") + name + " as the " + what + ": " + e.what();
    return false;
  }
  if (message)
    *message =
        std::string("the ") + what + " now come" + (kind == MapKind::Food ? "s" : "") + " from " + name;
  return true;
}

}  // namespace physarum::run
