#include "window/explore_morph.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "sim/keyframes.hpp"
#include "sim/registry.hpp"

namespace physarum::app {
namespace {

double lerp(double a, double b, double t) {
  return (1 - t) * a + t * b;  // exact at both ends, unlike a + (b - a) * t
}

// The value between va and vb, or monostate where the key is not numeric (or optional and unset on
// one side): the caller keeps the nearer side's value then.
Value between(const registry::Param& p, const Value& va, const Value& vb, double t) {
  if (p.type == registry::Type::Float && std::holds_alternative<float>(va) &&
      std::holds_alternative<float>(vb)) {
    return static_cast<float>(lerp(std::get<float>(va), std::get<float>(vb), t));
  }
  const bool integer = p.type == registry::Type::Int || p.type == registry::Type::Count;
  if (integer && std::holds_alternative<int64_t>(va) && std::holds_alternative<int64_t>(vb)) {
    return static_cast<int64_t>(std::llround(
        lerp(static_cast<double>(std::get<int64_t>(va)), static_cast<double>(std::get<int64_t>(vb)), t)));
  }
  if (p.type == registry::Type::Matrix && std::holds_alternative<std::vector<float>>(va) &&
      std::holds_alternative<std::vector<float>>(vb)) {
    const auto& ma = std::get<std::vector<float>>(va);
    const auto& mb = std::get<std::vector<float>>(vb);
    if (ma.size() != mb.size()) return {};
    std::vector<float> m(ma.size());
    for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(lerp(ma[i], mb[i], t));
    return m;
  }
  return {};
}

}  // namespace

Preset morph(const Preset& a, const Preset& b, double t) {
  if (!(t >= 0 && t <= 1)) {
    std::ostringstream text;
    text << "morph position " << t << " is outside 0 to 1";
    throw Error(text.str());
  }
  Preset out = t < 0.5 ? a : b;
  const std::vector<registry::Key> keys = registry::keys_of(a);
  if (keys != registry::keys_of(b)) return out;
  for (const registry::Key& k : keys) {
    Value v = between(*k.param, registry::get(a, k), registry::get(b, k), t);
    if (!std::holds_alternative<std::monostate>(v)) registry::put(out, k, v);
  }
  validate(out);
  return out;
}

void morph_story(Preset& live, const Preset& a, const Preset& b, uint64_t from, uint64_t steps) {
  if (steps == 0) throw Error("a story from A to B needs at least 1 step between them");
  const std::vector<registry::Key> keys = registry::keys_of(live);
  if (registry::keys_of(a) != keys || registry::keys_of(b) != keys) {
    throw Error("A and B must have as many species as the running preset (" +
                std::to_string(live.species.count()) + ") to become its keyframes");
  }
  Preset plain_a = a, plain_b = b;
  plain_a.keyframes.clear();
  plain_b.keyframes.clear();
  Preset next = live;
  next.keyframes = {capture_keyframe(plain_a, from, Ease::Smoothstep),
                    capture_keyframe(plain_b, from + steps, Ease::Smoothstep)};
  validate_keyframes(next);
  live = std::move(next);
}

}  // namespace physarum::app
