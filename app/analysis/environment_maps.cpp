#include "analysis/environment_maps.hpp"

#include <toml++/toml.h>

namespace physarum::app::analysis {

EnvironmentFiles environment_files_in(const std::filesystem::path& preset_file) {
  EnvironmentFiles files;
  std::error_code ec;
  if (preset_file.empty() || !std::filesystem::is_regular_file(preset_file, ec)) return files;
  toml::table t;
  try {
    t = toml::parse_file(preset_file.string());
  } catch (const toml::parse_error& e) {
    throw Error(preset_file.string() + ": " + std::string(e.description()));
  }
  const toml::table* env = t["environment"].as_table();
  if (!env) return files;
  const auto path_of = [&](const char* key) -> std::filesystem::path {
    const toml::node* n = env->get(key);
    if (!n) return {};
    const auto s = n->value<std::string>();
    if (!s || !n->is_string())
      throw Error(preset_file.string() + ": environment." + key + ": expected a string");
    if (s->empty()) return {};
    const std::filesystem::path p(*s);
    return p.is_absolute() ? p : preset_file.parent_path() / p;
  };
  files.food = path_of("food");
  files.walls = path_of("walls");
  if (const toml::node* n = env->get("walls_threshold")) {
    const auto v = n->value<double>();
    if (!v || !(*v >= 0 && *v <= 1))
      throw Error(preset_file.string() + ": environment.walls_threshold: expected a number in 0..1");
    files.walls_threshold = static_cast<float>(*v);
  }
  return files;
}

EnvironmentMaps load_environment_maps(const EnvironmentFiles& files, Size field, ImageFit fit) {
  EnvironmentMaps maps;
  const size_t n = static_cast<size_t>(field.width) * static_cast<size_t>(field.height);
  if (!files.food.empty()) {
    Grid g{field.width, field.height, image_to_field(load_luma(files.food), field, 1.0f, fit)};
    // The resize filter rings a little around each dot; that is not food.
    for (float& v : g.values) v = v >= 0.5f / 255.0f ? v : 0.0f;
    maps.food = std::move(g);
  }
  if (!files.walls.empty()) {
    const std::vector<float> luma = image_to_field(load_luma(files.walls), field, 1.0f, fit);
    Mask m{field.width, field.height, std::vector<uint8_t>(n, 0)};
    for (size_t i = 0; i < n; ++i) m.cells[i] = luma[i] < files.walls_threshold ? 1 : 0;
    maps.walls = std::move(m);
  }
  return maps;
}

}  // namespace physarum::app::analysis
