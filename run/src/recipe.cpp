// How a recipe becomes a preset: preset file (or defaults), then each --set, then size, agents and
// seed. Bad values are usage errors; a bad file is a runtime error.
#include "run/recipe.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "run/area_fit.hpp"
#include "run/preset_library.hpp"
#include "sim/preset.hpp"
#include "sim/text.hpp"

namespace physarum::run {

void locate_maps_beside(Preset& p, const std::filesystem::path& file) {
  for (std::string* path : {&p.environment.food, &p.environment.walls, &p.environment.points}) {
    if (!path->empty() && std::filesystem::path(*path).is_relative()) {
      *path = (file.parent_path() / *path).lexically_normal().string();
    }
  }
}

namespace {

// The ranges of `run` alone: whether its agents agree with a density is settled later.
void check_ranges(RunParams run) {
  run.density.reset();
  validate(run);
}

// The dedicated size and agents options, which win over run.size and run.agents of `sets`.
void apply_size_and_agents(const Recipe& r, Preset& p) {
  const auto usage = [](const std::string& option, const std::string& value, const Error& e) {
    return UsageError(option + " " + value + ": " + e.what());
  };
  if (!r.size.empty()) {
    try {
      p.run.size = parse_size(r.size);
      check_ranges(p.run);
    } catch (const Error& e) {
      throw usage("--size", r.size, e);
    }
  }
  if (!r.agents.empty()) {
    try {
      if (r.agents.front() == '-') throw Error("the number of agents cannot be negative");
      p.run.agents = parse_count(r.agents);
      check_ranges(p.run);
    } catch (const Error& e) {
      throw usage("--agents", r.agents, e);
    }
  }
}

// Whether one of `sets` assigns `key` ("run.agents=...", spaces allowed around the name).
bool sets_key(const std::vector<std::string>& sets, std::string_view key) {
  for (const std::string& s : sets) {
    const std::string_view name = trim(std::string_view(s).substr(0, s.find('=')));
    if (name == key) return true;
  }
  return false;
}

// The agent count for the size asked (the rule of resolve(), recipe.hpp). `designed` is the run as
// the preset states it, before the recipe.
void settle_agents(const Recipe& r, const RunParams& designed, Preset& p) {
  const bool agents_given = !r.agents.empty() || sets_key(r.sets, "run.agents");
  const bool density_given = sets_key(r.sets, "run.density");
  if (agents_given && !density_given) {
    p.run.density.reset();  // a count given wins over the preset's density
  } else if (p.run.density && !agents_given) {
    p.run.agents = agents_for_density(*p.run.density, p.run.size);
  } else if (!agents_given && p.run.size != designed.size) {
    p.run.agents = agents_for_density(density_of(designed), p.run.size);
  }
  // Both given: validate() refuses them when they disagree.
}

// The scale asked (--scale, else run.scale of `sets`) relative to the preset's `preset_scale`
// (at_scale: sides times K / K0, agents times (K / K0)^2).
void apply_scale(const Recipe& r, Preset& p, int preset_scale) {
  if (r.scale != 0 && (r.scale < 1 || r.scale > kMaxScale)) {
    throw UsageError("--scale " + std::to_string(r.scale) + " is out of range: allowed 1 to " +
                     std::to_string(kMaxScale));
  }
  const int target = r.scale != 0 ? r.scale : p.run.scale;
  p.run.scale = preset_scale;
  p.run = at_scale(p.run, target);
}

// `preset`: whether a preset gave the designed run (else the built-in defaults did).
// `made_by`: what `designed` comes from, "the preset is made at", "the defaults are".
std::string describe_choice(const RunParams& designed, const RunParams& run, const std::string& made_by) {
  const auto both = [](const RunParams& x) {
    return format_size(x.size) + " with " + format_count(x.agents) + " agents";
  };
  std::string out = both(run) + " (" + made_by + " " + both(designed);
  if (run.scale != designed.scale)
    out += ", detail " + std::to_string(run.scale) + " of its " + std::to_string(designed.scale);
  const double asked = density_of(RunParams{run.size, run.agents, run.seed, std::nullopt, 1});
  const double made = density_of(designed);
  out += std::fabs(asked / made - 1.0) <= 0.05 ? "; same agents per cell)" : "; agents given)";
  return out;
}

// Whether the recipe's size (--size, else a run.size of `sets`) has a depth.
bool names_a_volume(const Recipe& r) {
  try {
    if (!r.size.empty()) return parse_size(r.size).volume();
    Preset probe;
    for (const std::string& s : r.sets) {
      if (sets_key({s}, "run.size")) apply_override(probe, s);
    }
    return probe.run.size.volume();
  } catch (const Error&) {
    return false;  // resolve() refuses it, naming it
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
  r.points.clear();
  r.points_box.clear();
  r.scale = 0;  // the base holds its detail already
  return r;
}

Preset resolve(const Recipe& r, std::string* chosen) {
  // A missing or malformed preset file is a runtime error (the Error propagates as is).
  Preset p;
  const std::string preset = r.preset.empty() && !r.base && names_a_volume(r) ? kVolumeDefaults : r.preset;
  if (r.base) {
    p = *r.base;
  } else if (!preset.empty()) {
    const std::filesystem::path file = find_preset(preset);
    p = load_preset(file);
    locate_maps_beside(p, file);
  }
  const RunParams designed = p.run;
  for (const std::string& s : r.sets) {
    try {
      apply_override(p, s);
    } catch (const Error& e) {
      throw UsageError(std::string("--set ") + e.what());
    }
  }
  // The more specific option wins (README and --help say so).
  apply_size_and_agents(r, p);
  settle_agents(r, designed, p);
  apply_scale(r, p, designed.scale);
  if (r.seed) p.run.seed = *r.seed;
  if (!r.food.empty()) p.environment.food = r.food;
  if (!r.walls.empty()) p.environment.walls = r.walls;
  if (!r.points.empty()) p.environment.points = r.points;
  if (!r.points_box.empty()) p.environment.points_box = r.points_box;
  if (!r.species.list.empty()) p.species = r.species;
  try {
    validate(p);
  } catch (const Error& e) {
    throw UsageError(std::string("the resulting parameters are invalid: ") + e.what());
  }
  if (chosen != nullptr) {
    const bool same =
        p.run.size == designed.size && p.run.agents == designed.agents && p.run.scale == designed.scale;
    const std::string made_by = r.base || !r.preset.empty() ? "the preset is made at"
                                : preset.empty()            ? "the defaults are"
                                                 : "a volume's defaults, preset " + preset + ", are";
    *chosen = same ? std::string() : describe_choice(designed, p.run, made_by);
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
