// How a recipe becomes a preset: preset file (or defaults), then each --set, then size, agents and
// seed. Bad values are usage errors; a bad file is a runtime error.
#include "run/recipe.hpp"

#include "run/preset_library.hpp"
#include "sim/preset.hpp"

namespace physarum::run {

void locate_maps_beside(Preset& p, const std::filesystem::path& file) {
  for (std::string* path : {&p.environment.food, &p.environment.walls}) {
    if (!path->empty() && std::filesystem::path(*path).is_relative()) {
      *path = (file.parent_path() / *path).lexically_normal().string();
    }
  }
}

namespace {

// The dedicated size and agents options, which win over run.size and run.agents of `sets`.
void apply_size_and_agents(const Recipe& r, Preset& p) {
  const auto usage = [](const std::string& option, const std::string& value, const Error& e) {
    return UsageError(option + " " + value + ": " + e.what());
  };
  if (!r.size.empty()) {
    try {
      p.run.size = parse_size(r.size);
      validate(p.run);
    } catch (const Error& e) {
      throw usage("--size", r.size, e);
    }
  }
  if (!r.agents.empty()) {
    try {
      if (r.agents.front() == '-') throw Error("the number of agents cannot be negative");
      p.run.agents = parse_count(r.agents);
      validate(p.run);
    } catch (const Error& e) {
      throw usage("--agents", r.agents, e);
    }
  }
}

}  // namespace

Recipe with_base(Recipe r, const Preset& p) {
  r.preset.clear();
  r.base = p;
  r.size.clear();
  r.agents.clear();
  r.seed.reset();
  r.sets.clear();
  r.species = {};
  r.food.clear();
  r.walls.clear();
  return r;
}

Preset resolve(const Recipe& r) {
  // A missing or malformed preset file is a runtime error (the Error propagates as is).
  Preset p;
  if (r.base) {
    p = *r.base;
  } else if (!r.preset.empty()) {
    const std::filesystem::path file = find_preset(r.preset);
    p = load_preset(file);
    locate_maps_beside(p, file);
  }
  for (const std::string& s : r.sets) {
    try {
      apply_override(p, s);
    } catch (const Error& e) {
      throw UsageError(std::string("--set ") + e.what());
    }
  }
  // The more specific option wins (README and --help say so).
  apply_size_and_agents(r, p);
  if (r.seed) p.run.seed = *r.seed;
  if (!r.food.empty()) p.environment.food = r.food;
  if (!r.walls.empty()) p.environment.walls = r.walls;
  if (!r.species.list.empty()) p.species = r.species;
  try {
    validate(p);
  } catch (const Error& e) {
    throw UsageError(std::string("the resulting parameters are invalid: ") + e.what());
  }
  return p;
}

BackendKind backend_kind(const Recipe& r) {
  try {
    return parse_backend_kind(r.backend);
  } catch (const Error& e) {
    throw UsageError("--backend " + r.backend + ": " + e.what());
  }
}

ImageFit image_fit(const Recipe& r) {
  if (r.image_fit == "fill") return ImageFit::Fill;
  if (r.image_fit == "fit") return ImageFit::Fit;
  throw UsageError("--image-fit " + r.image_fit + ": expected fill or fit");
}

}  // namespace physarum::run
