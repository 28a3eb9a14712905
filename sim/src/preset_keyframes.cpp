#include "preset_keyframes.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "preset_toml.hpp"
#include "sim/keyframes.hpp"
#include "sim/registry.hpp"

namespace physarum::preset_keyframes {
namespace {

using preset_toml::fail_at;
using Leaves = std::vector<std::pair<std::string, const toml::node*>>;

// The leaves of a keyframe's table as dotted names: "model.decay", "species.1.deposit" (a dotted
// TOML key is a nested table), "interaction.matrix" (an array is one leaf).
void flatten(const toml::table& t, const std::string& prefix, Leaves& out) {
  for (const auto& [k, node] : t) {
    const std::string name = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = node.as_table()) {
      flatten(*sub, name, out);
    } else {
      out.emplace_back(name, &node);
    }
  }
}

std::string keyframable_names(const Preset& p) {
  std::string out;
  for (const std::string& name : keyframable_keys(p)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

uint64_t read_step(const toml::node* step, const toml::node& table, const std::string& prefix,
                   const std::vector<Keyframe>& before, const std::string& source) {
  if (step == nullptr) fail_at(source, table, prefix, "needs 'step = N' (the step it applies at)");
  const auto s = step->as_integer();
  if (!s || s->get() < 0 || static_cast<uint64_t>(s->get()) > kMaxKeyframeStep) {
    fail_at(source, *step, prefix + ".step",
            "must be an integer from 0 to " + std::to_string(kMaxKeyframeStep));
  }
  const auto at = static_cast<uint64_t>(s->get());
  if (!before.empty() && at <= before.back().step) {
    fail_at(source, *step, prefix + ".step",
            "keyframes must come in increasing steps: " + std::to_string(at) + " follows step " +
                std::to_string(before.back().step));
  }
  return at;
}

// One [[keyframe]] table: its step, ease and values, each checked against the preset read so far.
Keyframe read_one(const Preset& p, const toml::table& t, const std::string& prefix,
                  const std::vector<Keyframe>& before, const std::string& source) {
  Keyframe k;
  k.step = read_step(t.get("step"), t, prefix, before, source);
  if (const toml::node* ease = t.get("ease")) {
    try {
      const auto e = ease->as_string();
      if (!e) throw Error("expected a string: linear, smoothstep or hold");
      k.ease = parse_ease(e->get());
    } catch (const Error& err) {
      fail_at(source, *ease, prefix + ".ease", err.what());
    }
  }
  Leaves leaves;
  for (const auto& [key, node] : t) {
    if (key.str() == "step" || key.str() == "ease") continue;
    if (const toml::table* sub = node.as_table()) {
      flatten(*sub, std::string(key.str()), leaves);
    } else {
      leaves.emplace_back(std::string(key.str()), &node);
    }
  }
  for (const auto& [name, node] : leaves) {
    const std::string what = prefix + "." + name;
    registry::Key key;
    try {
      key = registry::resolve(p, name);
    } catch (const Error&) {
      fail_at(source, *node, what,
              "unknown key (a keyframe holds keys of this preset: " + keyframable_names(p) + ")");
    }
    if (!key.param->keyframable)
      fail_at(source, *node, what, "cannot be keyframed: it needs new agents or a new field");
    try {
      Value v = preset_toml::value_of(*key.param, *node, p.species.list.size());
      registry::check(*key.param, v, key.name(), p.species.list.size());
      k.values.push_back(KeyframeValue{key.name(), std::move(v)});
    } catch (const Error& err) {
      fail_at(source, *node, what, err.what());
    }
  }
  if (k.values.empty()) fail_at(source, t, prefix, "sets no keys (e.g. model.decay = 0.02)");
  // TOML tables have no order: keep the registry's, the order capture_keyframe and a preset use.
  const std::vector<std::string> order = keyframable_keys(p);
  const auto rank = [&](const KeyframeValue& v) {
    return std::find(order.begin(), order.end(), v.key) - order.begin();
  };
  std::stable_sort(k.values.begin(), k.values.end(),
                   [&](const KeyframeValue& a, const KeyframeValue& b) { return rank(a) < rank(b); });
  return k;
}

}  // namespace

void read(Preset& p, const toml::node* keyframes, const std::string& source) {
  p.keyframes.clear();
  if (keyframes == nullptr) return;
  const toml::array* list = keyframes->as_array();
  if (list == nullptr || !list->is_array_of_tables()) {
    fail_at(source, *keyframes, "keyframe", "must be written as [[keyframe]] tables");
  }
  if (list->size() > kMaxKeyframes) {
    fail_at(source, (*list)[kMaxKeyframes], "keyframe",
            "allowed at most " + std::to_string(kMaxKeyframes) + " [[keyframe]] tables");
  }
  std::vector<Keyframe> out;
  for (size_t i = 0; i < list->size(); ++i) {
    out.push_back(read_one(p, *(*list)[i].as_table(), "keyframe." + std::to_string(i), out, source));
  }
  p.keyframes = std::move(out);
}

std::string to_toml(const Preset& p) {
  std::string out;
  for (const Keyframe& k : p.keyframes) {
    out += "\n[[keyframe]]\nstep = " + std::to_string(k.step) + "\nease = \"" +
           std::string(to_string(k.ease)) + "\"\n";
    for (const KeyframeValue& v : k.values) {
      out += v.key + " = " + registry::to_toml(*registry::resolve(p, v.key).param, v.value) + "\n";
    }
  }
  return out;
}

}  // namespace physarum::preset_keyframes
