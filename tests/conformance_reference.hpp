// The conformance recipes (tests/data/conformance/recipes.toml) and their reference runs. The
// reference is built from the simulation library alone (preset, environment maps, image seed,
// backend, step_with_keyframes), never through a surface's own set-up, so that every surface (the
// command line, the window's core, the sensitivity twins, the Python module) is compared with
// something none of them shares beyond the model itself.
#pragma once

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/environment.hpp"
#include "sim/image.hpp"
#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "sim/spawn.hpp"

namespace physarum::test::conformance {

struct Recipe {
  std::string name;
  std::filesystem::path preset;   // absolute
  std::filesystem::path image;    // the seed image (as --image), absolute; empty: none
  int before = 0;                 // steps before the live edits
  int after = 0;                  // steps after them
  BrushStroke brush;              // a trail stroke painted after `before` steps
  std::vector<std::string> sets;  // "section.key=value", applied after the brush
  int steps() const { return before + after; }
};

inline std::filesystem::path recipes_file(const std::filesystem::path& data_dir) {
  return data_dir / "conformance" / "recipes.toml";
}

inline std::vector<Recipe> load_recipes(const std::filesystem::path& file) {
  const toml::table doc = toml::parse_file(file.string());
  const std::filesystem::path dir = file.parent_path();
  const auto need = [&](auto value, const std::string& what) {
    if (!value) throw std::runtime_error(file.string() + ": a recipe lacks " + what);
    return *value;
  };
  std::vector<Recipe> out;
  const toml::array* list = doc["recipe"].as_array();
  if (list == nullptr) throw std::runtime_error(file.string() + ": no [[recipe]] tables");
  for (const toml::node& n : *list) {
    const toml::table& t = *n.as_table();
    Recipe r;
    r.name = need(t["name"].value<std::string>(), "a name");
    r.preset = dir / need(t["preset"].value<std::string>(), "a preset");
    if (const auto image = t["image"].value<std::string>()) r.image = dir / *image;
    r.before = need(t["before"].value<int>(), "before");
    r.after = need(t["after"].value<int>(), "after");
    const toml::node_view<const toml::node> b = t["brush"];
    r.brush.x = need(b["x"].value<float>(), "brush.x");
    r.brush.y = need(b["y"].value<float>(), "brush.y");
    r.brush.radius = need(b["radius"].value<float>(), "brush.radius");
    r.brush.amount = need(b["amount"].value<float>(), "brush.amount");
    r.brush.channel = need(b["channel"].value<int>(), "brush.channel");
    if (const toml::array* sets = t["set"].as_array()) {
      for (const toml::node& s : *sets) r.sets.push_back(need(s.value<std::string>(), "set strings"));
    }
    out.push_back(r);
  }
  return out;
}

// The recipe's preset, its map images found beside it.
inline Preset reference_preset(const Recipe& r) {
  Preset p = load_preset(r.preset);
  for (std::string* path : {&p.environment.food, &p.environment.walls}) {
    if (!path->empty()) *path = (r.preset.parent_path() / *path).string();
  }
  return p;
}

// docs/MODEL.md, "Environment": food is the map's brightness (never below 0), walls are cells darker
// than the threshold; a species' own food strength wins over the preset's.
inline Environment reference_environment(const Preset& p) {
  const EnvironmentParams& e = p.environment;
  Environment env;
  env.boundary = e.boundary;
  const auto brightness = [&](const std::string& file) {
    return image_to_field(load_luma(file), p.run.size, 1.0f, e.fit);
  };
  if (!e.food.empty()) {
    env.food = brightness(e.food);
    for (float& v : env.food) v = std::max(v, 0.0f);
  }
  if (!e.walls.empty()) env.walls = walls_from_brightness(brightness(e.walls), e.walls_threshold);
  const bool own = std::any_of(p.species.list.begin(), p.species.list.end(),
                               [](const Species& s) { return s.food_strength.has_value(); });
  env.food_strength = {e.food_strength};
  if (own) {
    env.food_strength.clear();
    for (const Species& s : p.species.list)
      env.food_strength.push_back(s.food_strength.value_or(e.food_strength));
  }
  return env;
}

// docs/MODEL.md, "Starting states and edits": the field is the image's brightness times
// field_strength (several species: its red, green, blue), agents respawned where it is bright.
inline void reference_image_seed(Backend& b, const Preset& p, const std::filesystem::path& image) {
  const Size size = b.size();
  const int species = b.species_count();
  const LumaImage img = species > 1 ? load_colour(image) : load_luma(image);
  const std::vector<float> brightness = image_to_field(img, size, 1.0f, ImageFit::Fill);
  std::vector<float> field =
      species > 1 ? image_to_channels(img, size, 1.0f, ImageFit::Fill, species) : brightness;
  for (float& v : field) v *= p.spawn.field_strength;
  b.set_field(field);
  if (p.spawn.agents_from_image)
    b.set_agents(spawn_from_image(brightness, size, b.agent_count(), p.run.seed));
}

// The recipe grown by the library: before + after steps, with the live edits between them when
// `live_edits` is true. Returns the field as read_field gives it ((S, H, W) planar).
inline std::vector<float> reference_field(const Recipe& r, bool live_edits) {
  Preset p = reference_preset(r);
  SimConfig config = config_from(p, 1);
  config.environment = reference_environment(p);
  const std::unique_ptr<Backend> b = create_backend(BackendKind::Cpu, config);
  if (!r.image.empty()) reference_image_seed(*b, p, r.image);
  if (live_edits) {
    step_with_keyframes(*b, p, static_cast<uint64_t>(r.before));
    b->brush(r.brush);
    for (const std::string& s : r.sets) apply_override(p, s);
    set_live_parameters(*b, p);
    step_with_keyframes(*b, p, static_cast<uint64_t>(r.after));
  } else {
    step_with_keyframes(*b, p, static_cast<uint64_t>(r.steps()));
  }
  std::vector<float> field;
  b->read_field(field);
  return field;
}

}  // namespace physarum::test::conformance
