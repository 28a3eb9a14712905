#include "sensitivity/parameters.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <string_view>
#include <utility>

#include "sim/preset.hpp"

namespace physarum::app::sensitivity {
namespace {

using ModelMember = float ModelParams::*;
constexpr std::array<std::pair<std::string_view, ModelMember>, 8> kModelKeys{{
    {"sensor_angle_deg", &ModelParams::sensor_angle_deg},
    {"rotation_angle_deg", &ModelParams::rotation_angle_deg},
    {"sensor_distance", &ModelParams::sensor_distance},
    {"step_size", &ModelParams::step_size},
    {"deposit", &ModelParams::deposit},
    {"decay", &ModelParams::decay},
    {"diffuse", &ModelParams::diffuse},
    {"jitter", &ModelParams::jitter},
}};

const ModelMember* model_member(std::string_view name) {
  for (const auto& [n, m] : kModelKeys) {
    if (n == name) return &m;
  }
  return nullptr;
}

std::string known_keys() {
  std::string s;
  for (const auto& [n, m] : kModelKeys) s += "model." + std::string(n) + ", ";
  return s +
         "species.N.<the same or share>, spawn.field_strength, display.exposure, display.gamma, "
         "display.threshold";
}

// The float a key names, or nullptr. `p` is not const so one lookup serves reading and writing.
float* find_number(Preset& p, std::string_view key) {
  if (key.rfind("model.", 0) == 0) {
    const ModelMember* m = model_member(key.substr(6));
    return m ? &(p.model.*(*m)) : nullptr;
  }
  if (key.rfind("species.", 0) == 0) {
    const std::string_view rest = key.substr(8);
    const size_t dot = rest.find('.');
    if (dot == std::string_view::npos || dot == 0) return nullptr;
    size_t index = 0;
    const auto r = std::from_chars(rest.data(), rest.data() + dot, index);
    if (r.ec != std::errc() || r.ptr != rest.data() + dot) return nullptr;
    if (index >= p.species.list.size()) {
      throw Error(std::string(key) + ": " +
                  (p.species.list.empty() ? std::string("this preset has no [[species]] tables")
                                          : "species " + std::to_string(index) + " does not exist (0 to " +
                                                std::to_string(p.species.list.size() - 1) + ")"));
    }
    Species& s = p.species.list[index];
    const std::string_view name = rest.substr(dot + 1);
    if (name == "share") return &s.share;
    const ModelMember* m = model_member(name);
    return m ? &(s.model.*(*m)) : nullptr;
  }
  if (key == "spawn.field_strength") return &p.spawn.field_strength;
  if (key == "display.exposure") return &p.display.exposure;
  if (key == "display.gamma") return &p.display.gamma;
  if (key == "display.threshold") return &p.display.threshold;
  return nullptr;
}

float* require_number(Preset& p, const std::string& key) {
  float* v = find_number(p, key);
  if (!v) throw Error("'" + key + "' is not a numeric parameter (known: " + known_keys() + ")");
  return v;
}

}  // namespace

double parameter_value(const Preset& p, const std::string& key) {
  Preset copy = p;
  return *require_number(copy, key);
}

void set_parameter(Preset& p, const std::string& key, double value) {
  require_number(p, key);
  char text[64];
  // %.9g writes every float exactly, so the preset holds float(value).
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(static_cast<float>(value)));
  apply_override(p, key + "=" + text);
}

double perturb_parameter(Preset& p, const std::string& key, double rel_eps) {
  const float before = *require_number(p, key);
  const double target = before == 0.0f ? rel_eps : static_cast<double>(before) * (1.0 + rel_eps);
  set_parameter(p, key, target);
  return static_cast<double>(*require_number(p, key)) - static_cast<double>(before);
}

std::vector<std::string> model_parameter_keys(const Preset& p) {
  std::vector<std::string> keys;
  if (p.species.list.empty()) {
    for (const auto& [n, m] : kModelKeys) keys.push_back("model." + std::string(n));
    return keys;
  }
  for (size_t i = 0; i < p.species.list.size(); ++i) {
    for (const auto& [n, m] : kModelKeys)
      keys.push_back("species." + std::to_string(i) + "." + std::string(n));
  }
  return keys;
}

}  // namespace physarum::app::sensitivity
