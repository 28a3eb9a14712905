#include "sensitivity/parameters.hpp"

#include "sim/keyframes.hpp"
#include "sim/registry.hpp"

namespace physarum::app::sensitivity {
namespace {

// A numeric (float) parameter of `p`, or Error naming the kinds that are.
registry::Key number_key(const Preset& p, const std::string& key) {
  registry::Key k;
  try {
    k = registry::resolve(p, key);
  } catch (const Error& e) {
    throw Error("'" + key + "' is not a numeric parameter: " + e.what());
  }
  if (k.param->type != registry::Type::Float) {
    throw Error("'" + key + "' is not a numeric parameter (a " +
                std::string(registry::type_name(k.param->type)) +
                "; numeric: every float key of `physarum params`)");
  }
  return k;
}

}  // namespace

double parameter_value(const Preset& p, const std::string& key) {
  const Value v = registry::get(p, number_key(p, key));
  return std::holds_alternative<float>(v) ? std::get<float>(v) : 0.0;
}

void set_parameter(Preset& p, const std::string& key, double value) {
  const registry::Key k = number_key(p, key);
  // A keyframed key takes its keyframes' values from step 0 on: a changed base value would never
  // be used, and the twins or the sweep would silently measure nothing.
  for (const Keyframe& f : p.keyframes) {
    for (const KeyframeValue& v : f.values) {
      if (v.key == k.name()) {
        throw Error("'" + key + "' is keyframed in this preset (keyframe at step " + std::to_string(f.step) +
                    "), so a changed value would be overwritten; perturb or sweep another key");
      }
    }
  }
  try {
    registry::set(p, k, registry::float_of(value));
  } catch (const Error& e) {
    throw Error(key + ": " + e.what());
  }
}

double perturb_parameter(Preset& p, const std::string& key, double rel_eps) {
  const double before = parameter_value(p, key);
  const double target = before == 0.0 ? rel_eps : before * (1.0 + rel_eps);
  set_parameter(p, key, target);
  return parameter_value(p, key) - before;
}

std::vector<std::string> model_parameter_keys(const Preset& p) {
  std::vector<std::string> keys;
  for (const registry::Key& k : registry::keys_of(p)) {
    if (k.param->section == registry::Section::Model && k.param->type == registry::Type::Float)
      keys.push_back(k.name());
  }
  return keys;
}

}  // namespace physarum::app::sensitivity
