// Keyframed parameters: interpolation (docs/MODEL.md, "Keyframes"), the preset at a step, and
// stepping a backend with them. Host code only: every backend receives the same floats.
#include "sim/keyframes.hpp"

#include <cmath>
#include <limits>

#include "keyframe_keys.hpp"
#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "toml_text.hpp"

namespace physarum {

std::string_view to_string(Ease e) {
  switch (e) {
    case Ease::Smoothstep: return "smoothstep";
    case Ease::Hold: return "hold";
    default: return "linear";
  }
}

Ease parse_ease(std::string_view s) {
  if (s == "linear") return Ease::Linear;
  if (s == "smoothstep") return Ease::Smoothstep;
  if (s == "hold") return Ease::Hold;
  throw Error("ease '" + std::string(s) + "' is not one of: linear, smoothstep, hold");
}

double ease_weight(Ease e, double t) {
  switch (e) {
    case Ease::Linear: return t;
    case Ease::Smoothstep: return t * t * (3.0 - 2.0 * t);
    case Ease::Hold: return 0.0;
  }
  return 0.0;
}

float interpolate(float a, float b, uint64_t sa, uint64_t sb, Ease e, uint64_t step) {
  const double t = static_cast<double>(step - sa) / static_cast<double>(sb - sa);
  const double w = ease_weight(e, t);
  const double da = a, db = b;
  const auto f = static_cast<float>(da + (db - da) * w);
  return std::fabs(f) < std::numeric_limits<float>::min() ? 0.0f : f;
}

namespace {

// The keys the keyframes name, in the order they first appear.
std::vector<std::string> keyed(const std::vector<Keyframe>& ks) {
  std::vector<std::string> keys;
  for (const Keyframe& k : ks) {
    for (const KeyframeValue& v : k.values) {
      bool seen = false;
      for (const std::string& have : keys) seen = seen || have == v.key;
      if (!seen) keys.push_back(v.key);
    }
  }
  return keys;
}

const KeyframeValue* value_in(const Keyframe& k, const std::string& key) {
  for (const KeyframeValue& v : k.values) {
    if (v.key == key) return &v;
  }
  return nullptr;
}

void set_value(Preset& p, const std::string& key, const KeyframeValue& v, float number) {
  apply_override(p, key + "=" + (v.number ? toml_float(number) : v.text));
}

}  // namespace

Preset preset_at(const Preset& p, uint64_t step) {
  if (p.keyframes.empty()) return p;
  Preset out = p;
  const std::vector<Keyframe>& ks = p.keyframes;
  for (const std::string& key : keyed(ks)) {
    // The last keyframe at or before `step` naming the key, and the next one after it.
    const Keyframe* at = nullptr;
    const KeyframeValue* va = nullptr;
    const Keyframe* next = nullptr;
    const KeyframeValue* vb = nullptr;
    for (const Keyframe& k : ks) {
      const KeyframeValue* v = value_in(k, key);
      if (v == nullptr) continue;
      if (k.step <= step) {
        at = &k;
        va = v;
      } else {
        next = &k;
        vb = v;
        break;
      }
    }
    if (va == nullptr) {  // before the first keyframe naming it: its first value
      set_value(out, key, *vb, vb->value);
    } else if (vb == nullptr || !va->number) {  // after the last, or a held key
      set_value(out, key, *va, va->value);
    } else {
      set_value(out, key, *va, interpolate(va->value, vb->value, at->step, next->step, at->ease, step));
    }
  }
  return out;
}

std::vector<std::string> keyframable_keys(const Preset& p) {
  std::vector<std::string> out;
  for (const auto& [name, node] : keyframe_keys::preset_keys(p).leaves) {
    if (keyframe_keys::keyframable(name)) out.push_back(name);
  }
  return out;
}

KeyframeValue keyframe_value_of(const Preset& p, std::string_view key) {
  const keyframe_keys::PresetKeys keys = keyframe_keys::preset_keys(p);
  const toml::node* node = keys.find(key);
  if (node == nullptr || !keyframe_keys::keyframable(key)) {
    throw Error(std::string(key) + ": not a key a keyframe of this preset can hold");
  }
  return keyframe_keys::value_of(key, *node, *node);
}

Keyframe capture_keyframe(const Preset& p, uint64_t step, Ease ease) {
  Keyframe k;
  k.step = step;
  k.ease = ease;
  const keyframe_keys::PresetKeys keys = keyframe_keys::preset_keys(p);
  for (const auto& [name, node] : keys.leaves) {
    if (keyframe_keys::keyframable(name)) k.values.push_back(keyframe_keys::value_of(name, *node, *node));
  }
  return k;
}

void validate_keyframes(const Preset& p) {
  if (p.keyframes.size() > kMaxKeyframes) {
    throw Error("keyframe: at most " + std::to_string(kMaxKeyframes) + " keyframes");
  }
  const keyframe_keys::PresetKeys keys = keyframe_keys::preset_keys(p);
  for (size_t i = 0; i < p.keyframes.size(); ++i) {
    const Keyframe& k = p.keyframes[i];
    const std::string prefix = "keyframe." + std::to_string(i);
    if (k.step > kMaxKeyframeStep) {
      throw Error(prefix + ".step = " + std::to_string(k.step) + " is out of range: allowed 0 to " +
                  std::to_string(kMaxKeyframeStep));
    }
    if (i > 0 && k.step <= p.keyframes[i - 1].step) {
      throw Error(prefix + ".step: keyframes must come in increasing steps");
    }
    for (const KeyframeValue& v : k.values) {
      const toml::node* like = keys.find(v.key);
      if (like == nullptr || !keyframe_keys::keyframable(v.key)) {
        throw Error(prefix + "." + v.key + ": not a key a keyframe of this preset can hold");
      }
      if (v.number != like->is_floating_point()) throw Error(prefix + "." + v.key + ": the wrong type");
      Preset check = p;
      check.keyframes.clear();
      try {
        set_value(check, v.key, v, v.value);
      } catch (const Error& e) {
        throw Error(prefix + ": " + e.what());
      }
    }
  }
}

void set_live_parameters(Backend& b, const Preset& p) {
  if (p.species.list.empty()) {
    if (!(b.model() == p.model)) b.set_model(p.model);
  } else {
    const SpeciesSet s = resolve_species(p.species, p.model, p.spawn.mode);
    if (!(b.species() == s)) b.set_species(s);
  }
}

void step_with_keyframes(Backend& b, Preset& live, uint64_t n) {
  if (live.keyframes.empty()) {
    if (n > 0) b.step(static_cast<int>(n));
    return;
  }
  uint64_t left = n;
  while (left > 0) {
    const uint64_t s = b.steps_done();
    live = preset_at(live, s);
    set_live_parameters(b, live);
    // The steps that share these parameters run as one call (a hold, or the time between keyframes
    // of display keys only), up to 64 so a caller's progress stays responsive.
    uint64_t run = 1;
    while (run < left && run < 64) {
      const Preset later = preset_at(live, s + run);
      if (!(later.model == live.model) || !(later.species == live.species)) break;
      ++run;
    }
    b.step(static_cast<int>(run));
    left -= run;
  }
  live = preset_at(live, b.steps_done());  // what the next step will use, for whoever draws now
}

}  // namespace physarum
