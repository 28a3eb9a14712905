#include "preset_keyframes.hpp"

#include "keyframe_keys.hpp"
#include "sim/keyframes.hpp"
#include "sim/preset.hpp"
#include "toml_text.hpp"

namespace physarum::preset_keyframes {
namespace {

[[noreturn]] void fail_at(const std::string& source, const toml::node& n, const std::string& what,
                          const std::string& message) {
  throw Error(source + ":" + std::to_string(n.source().begin.line) + ": " + what + ": " + message);
}

std::string some_keys(const keyframe_keys::PresetKeys& keys) {
  std::string out;
  for (const auto& [name, node] : keys.leaves) {
    if (!keyframe_keys::keyframable(name)) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
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
  const keyframe_keys::PresetKeys keys = keyframe_keys::preset_keys(p);
  std::vector<Keyframe> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::table& t = *(*list)[i].as_table();
    const std::string prefix = "keyframe." + std::to_string(i);
    Keyframe k;
    const toml::node* step = t.get("step");
    if (step == nullptr) fail_at(source, (*list)[i], prefix, "needs 'step = N' (the step it applies at)");
    const auto s = step->as_integer();
    if (!s || s->get() < 0 || static_cast<uint64_t>(s->get()) > kMaxKeyframeStep) {
      fail_at(source, *step, prefix + ".step",
              "must be an integer from 0 to " + std::to_string(kMaxKeyframeStep));
    }
    k.step = static_cast<uint64_t>(s->get());
    if (!out.empty() && k.step <= out.back().step) {
      fail_at(source, *step, prefix + ".step",
              "keyframes must come in increasing steps: " + std::to_string(k.step) + " follows step " +
                  std::to_string(out.back().step));
    }
    if (const toml::node* ease = t.get("ease")) {
      const auto e = ease->as_string();
      try {
        if (!e) throw Error("expected a string: linear, smoothstep or hold");
        k.ease = parse_ease(e->get());
      } catch (const Error& err) {
        fail_at(source, *ease, prefix + ".ease", err.what());
      }
    }
    keyframe_keys::Leaves leaves;
    for (const auto& [key, node] : t) {
      if (key.str() == "step" || key.str() == "ease") continue;
      if (const toml::table* sub = node.as_table()) {
        keyframe_keys::flatten(*sub, std::string(key.str()), leaves);
      } else {
        leaves.emplace_back(std::string(key.str()), &node);
      }
    }
    for (const auto& [name, node] : leaves) {
      const std::string what = prefix + "." + name;
      const toml::node* like = keys.find(name);
      if (like == nullptr) {
        fail_at(source, *node, what,
                "unknown key (a keyframe holds keys of this preset: " + some_keys(keys) + ")");
      }
      if (!keyframe_keys::keyframable(name)) {
        fail_at(source, *node, what, "cannot be keyframed: it needs new agents or a new field");
      }
      try {
        KeyframeValue v = keyframe_keys::value_of(name, *node, *like);
        Preset check = p;
        apply_override(check, name + "=" + (v.number ? toml_float(v.value) : v.text));
        k.values.push_back(std::move(v));
      } catch (const Error& err) {
        // apply_override names the assignment first; the location and key say it already.
        std::string msg = err.what();
        for (const std::string& lead : {name + "=", name + ":"}) {
          if (msg.rfind(lead, 0) == 0 && msg.find(": ") != std::string::npos)
            msg = msg.substr(msg.find(": ") + 2);
        }
        fail_at(source, *node, what, msg);
      }
    }
    if (k.values.empty()) fail_at(source, (*list)[i], prefix, "sets no keys (e.g. model.decay = 0.02)");
    out.push_back(std::move(k));
  }
  p.keyframes = std::move(out);
}

std::string to_toml(const Preset& p) {
  std::string out;
  for (const Keyframe& k : p.keyframes) {
    out += "\n[[keyframe]]\nstep = " + std::to_string(k.step) +
           "\nease = " + toml_quote(std::string(to_string(k.ease))) + "\n";
    for (const KeyframeValue& v : k.values)
      out += v.key + " = " + (v.number ? toml_float(v.value) : v.toml) + "\n";
  }
  return out;
}

}  // namespace physarum::preset_keyframes
