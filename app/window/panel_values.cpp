#include "window/panel_values.hpp"

#include <algorithm>
#include <cmath>

#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

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
