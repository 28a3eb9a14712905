#include "window/panel_values.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "render/environment_overlay.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

std::string label_of(const registry::Param& p) {
  std::string name(p.name);
  if (name.ends_with("_deg")) name.resize(name.size() - 4);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

namespace {

// Limits made once per parameter; ImGui keeps their names' pointers between frames.
template <class Limit>
const Limit& limit_of(const registry::Param& p) {
  static std::map<const registry::Param*, std::pair<std::string, Limit>> made;
  auto it = made.find(&p);
  if (it == made.end()) {
    if (!(p.ui_hi > p.ui_lo)) throw Error(std::string(p.name) + " has no slider range in the registry");
    it = made.emplace(&p, std::make_pair(label_of(p), Limit{})).first;
    using N = decltype(Limit::lo);
    it->second.second = Limit{it->second.first.c_str(), static_cast<N>(p.ui_lo), static_cast<N>(p.ui_hi)};
  }
  return it->second.second;
}

}  // namespace

const FloatLimit& slider_limit(const registry::Param& p) {
  return limit_of<FloatLimit>(p);
}
const IntLimit& int_slider_limit(const registry::Param& p) {
  return limit_of<IntLimit>(p);
}
const FloatLimit& slider_limit(registry::Section s, std::string_view name) {
  return slider_limit(*registry::find(s, name));
}
const IntLimit& int_slider_limit(registry::Section s, std::string_view name) {
  return int_slider_limit(*registry::find(s, name));
}

std::vector<FloatLimit> registry_float_limits() {
  std::vector<FloatLimit> out;
  for (const registry::Param& p : registry::params()) {
    if ((p.type == registry::Type::Float || p.type == registry::Type::Matrix) && p.ui_hi > p.ui_lo)
      out.push_back(slider_limit(p));
  }
  return out;
}

bool settle(float typed, float& value, const FloatLimit& limit, std::string* refusal) {
  if (std::isnan(typed)) {
    if (refusal) *refusal = std::string(limit.name) + ": not a number; kept the previous value";
    if (!std::isnan(value)) return false;
    typed = limit.lo;  // nothing sensible to keep either
  }
  const float next = std::clamp(typed, limit.lo, limit.hi);
  const bool changed = next != value;
  value = next;
  return changed;
}

bool settle(int typed, int& value, const IntLimit& limit) {
  const int next = std::clamp(typed, limit.lo, limit.hi);
  const bool changed = next != value;
  value = next;
  return changed;
}

// A 0xRRGGBB display colour edited in place; true when it changed.
bool colour_edit(const char* label, uint32_t& rgb) {
  float c[3];
  render::colour_components(rgb, c);
  if (!ImGui::ColorEdit3(label, c, ImGuiColorEditFlags_NoInputs)) return false;
  const auto byte = [](float v) {
    return static_cast<uint32_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
  };
  rgb = (byte(c[0]) << 16) | (byte(c[1]) << 8) | byte(c[2]);
  return true;
}

bool apply_model_edit(WindowCore& core, const ModelParams& edited, Toasts& toasts) {
  try {
    const CommandResult r = core.apply_model(edited);
    if (r) return true;
    toasts.error("model not changed: " + r.error());
  } catch (const std::exception& e) {
    toasts.error(std::string("model not changed: ") + e.what());
  }
  return false;
}

bool apply_species_edit(WindowCore& core, const SpeciesSet& edited, Toasts& toasts) {
  try {
    const CommandResult r = core.apply_species(edited);
    if (r) return true;
    toasts.error("species not changed: " + r.error());
  } catch (const std::exception& e) {
    toasts.error(std::string("species not changed: ") + e.what());
  }
  return false;
}

}  // namespace physarum::app
