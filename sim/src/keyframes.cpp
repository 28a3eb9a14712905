// Keyframed parameters: interpolation (docs/MODEL.md, "Keyframes"), the preset at a step, and
// stepping a backend with them. Host code only: every backend receives the same floats.
#include "sim/keyframes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "sim/backend.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"

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

uint8_t blend_channel(uint8_t a, uint8_t b, double w) {
  w = std::clamp(w, 0.0, 1.0);
  const double from = a, to = b;
  return static_cast<uint8_t>(std::lround(from + (to - from) * w));
}

uint32_t blend_colour(uint32_t a, uint32_t b, double w) {
  uint32_t out = 0;
  for (const int shift : {16, 8, 0}) {
    const auto channel = [&](uint32_t c) { return static_cast<uint8_t>((c >> shift) & 0xffU); };
    out |= static_cast<uint32_t>(blend_channel(channel(a), channel(b), w)) << shift;
  }
  return out;
}

namespace {

struct Point {
  uint64_t step;
  Ease ease;
  Value value;
};

// A colour (a species' colour too) changes the picture only: the steps between its keyframes still
// run as one call.
bool changes_the_model(const registry::Key& k) {
  using registry::Section;
  if (k.param->type == registry::Type::Colour) return false;
  return k.param->section == Section::Model || k.param->section == Section::Species ||
         k.param->section == Section::Interaction;
}

bool before_point(uint64_t step, const Point& p) {
  return step < p.step;
}

}  // namespace

struct KeyframeTimeline::Track {
  registry::Key key;
  bool model = false;
  std::vector<Point> points;  // in the order of the keyframes (increasing steps)
  size_t next = 0;            // the first point after the step last sought: an upper bound

  // `next` made the first point after `step`, looking next to where it is before searching.
  void seek(uint64_t step) {
    const size_t n = points.size();
    const bool at_or_before = next == 0 || points[next - 1].step <= step;
    if (at_or_before && (next == n || points[next].step > step)) return;
    if (at_or_before && (next + 1 == n || points[next + 1].step > step)) {
      ++next;
      return;
    }
    const auto from = at_or_before ? points.begin() + static_cast<std::ptrdiff_t>(next + 1) : points.begin();
    const auto to = at_or_before ? points.end() : points.begin() + static_cast<std::ptrdiff_t>(next);
    next = static_cast<size_t>(std::upper_bound(from, to, step, before_point) - points.begin());
  }

  // The value at `step` (after seek(step), or any step before the next point): before the first
  // point its value, after the last (or a value that is not a float) the one it holds, else the
  // interpolation, made in `scratch`.
  const Value& value_at(uint64_t step, Value& scratch) const {
    if (next == 0) return points.front().value;
    const Point& a = points[next - 1];
    if (next == points.size()) return a.value;
    const Point& b = points[next];
    if (key.param->type == registry::Type::Colour) {
      const auto colour = [](const Value& v) { return static_cast<uint32_t>(std::get<int64_t>(v)); };
      const double t = static_cast<double>(step - a.step) / static_cast<double>(b.step - a.step);
      scratch = static_cast<int64_t>(blend_colour(colour(a.value), colour(b.value), ease_weight(a.ease, t)));
      return scratch;
    }
    if (!std::holds_alternative<float>(a.value)) return a.value;
    scratch = interpolate(std::get<float>(a.value), std::get<float>(b.value), a.step, b.step, a.ease, step);
    return scratch;
  }
};

KeyframeTimeline::KeyframeTimeline() = default;
KeyframeTimeline::KeyframeTimeline(KeyframeTimeline&&) noexcept = default;
KeyframeTimeline& KeyframeTimeline::operator=(KeyframeTimeline&&) noexcept = default;
KeyframeTimeline::~KeyframeTimeline() = default;

// One pass over the values (keys in the order they first appear); keyframes come in increasing steps.
// Keyframes mostly name the keys of the one before in the same order: that is tried before the map.
KeyframeTimeline::KeyframeTimeline(const Preset& p) {
  std::map<std::string_view, size_t> where;
  std::vector<size_t> before, now;
  const Keyframe* previous = nullptr;
  for (const Keyframe& k : p.keyframes) {
    now.clear();
    for (size_t i = 0; i < k.values.size(); ++i) {
      const KeyframeValue& v = k.values[i];
      size_t t = 0;
      if (previous != nullptr && i < before.size() && previous->values[i].key == v.key) {
        t = before[i];
      } else {
        const auto [it, added] = where.try_emplace(v.key, tracks_.size());
        if (added) {
          const registry::Key key = registry::resolve(p, v.key);
          tracks_.push_back(Track{key, changes_the_model(key), {}});
        }
        t = it->second;
      }
      tracks_[t].points.push_back(Point{k.step, k.ease, v.value});
      now.push_back(t);
    }
    before.swap(now);
    previous = &k;
  }
}

bool KeyframeTimeline::empty() const {
  return tracks_.empty();
}

void KeyframeTimeline::apply(Preset& p, uint64_t step) {
  Value scratch;
  for (Track& t : tracks_) {
    t.seek(step);
    registry::set(p, t.key, t.value_at(step, scratch));
  }
}

uint64_t KeyframeTimeline::steps_sharing_the_model(uint64_t step, uint64_t most) const {
  // Until the first next point of a model key every model track stays in its segment, so value_at
  // needs no seek there.
  uint64_t end = step + most;
  for (const Track& t : tracks_) {
    if (t.model && t.next < t.points.size()) end = std::min(end, t.points[t.next].step);
  }
  Value now, then;
  uint64_t run = 1;
  for (; step + run < end; ++run) {
    for (const Track& t : tracks_) {
      if (t.model && !(t.value_at(step + run, then) == t.value_at(step, now))) return run;
    }
  }
  return run;
}

void apply_keyframes_at(Preset& p, uint64_t step) {
  KeyframeTimeline(p).apply(p, step);
}

Preset preset_at(const Preset& p, uint64_t step) {
  Preset out = p;
  apply_keyframes_at(out, step);
  return out;
}

std::optional<KeyBlend> blend_at(const Preset& p, std::string_view key, uint64_t step) {
  std::vector<Point> points;
  for (const Keyframe& k : p.keyframes) {
    for (const KeyframeValue& v : k.values) {
      if (v.key == key) points.push_back(Point{k.step, k.ease, v.value});
    }
  }
  if (points.empty()) return std::nullopt;
  const auto after = std::upper_bound(points.begin(), points.end(), step, before_point);
  if (after == points.begin()) return KeyBlend{after->value, after->value, 0.0};
  const Point& a = *std::prev(after);
  if (after == points.end()) return KeyBlend{a.value, a.value, 0.0};
  const double t = static_cast<double>(step - a.step) / static_cast<double>(after->step - a.step);
  return KeyBlend{a.value, after->value, ease_weight(a.ease, t)};
}

std::vector<std::string> keyframable_keys(const Preset& p) {
  std::vector<std::string> out;
  for (const registry::Key& k : registry::keys_of(p)) {
    if (k.param->keyframable) out.push_back(k.name());
  }
  return out;
}

Keyframe capture_keyframe(const Preset& p, uint64_t step, Ease ease) {
  Keyframe out;
  out.step = step;
  out.ease = ease;
  for (const registry::Key& k : registry::keys_of(p)) {
    if (k.param->keyframable) out.values.push_back(KeyframeValue{k.name(), registry::get(p, k)});
  }
  return out;
}

void validate_keyframes(const Preset& p) {
  if (p.keyframes.size() > kMaxKeyframes) {
    throw Error("keyframe: at most " + std::to_string(kMaxKeyframes) + " keyframes");
  }
  // Each value stored in turn as the run will hold it, so what it breaks elsewhere in the preset (a
  // cave channel beyond the species) is found here, not when its step is reached.
  Preset held = p;
  held.keyframes.clear();
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
      try {
        const registry::Key key = registry::resolve(p, v.key);
        if (!key.param->keyframable) throw Error("cannot be keyframed: it needs new agents or a new field");
        registry::check(*key.param, v.value, key.name(), p.species.list.size());
        registry::set(held, key, v.value);
      } catch (const Error& e) {
        throw Error(prefix + "." + v.key + ": " + e.what());
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

void set_live_colours(Backend& b, const Preset& p) {
  SpeciesSet s = b.species();
  if (s.list.size() != p.species.list.size()) return;  // one species: the palette colours it
  bool changed = false;
  for (size_t i = 0; i < s.list.size(); ++i) {
    changed |= s.list[i].colour != p.species.list[i].colour;
    s.list[i].colour = p.species.list[i].colour;
  }
  if (changed) b.set_species(s);
}

void step_with_keyframes(Backend& b, Preset& live, uint64_t n) {
  KeyframeTimeline timeline(live);
  step_with_keyframes(b, live, timeline, n);
}

void step_with_keyframes(Backend& b, Preset& live, KeyframeTimeline& timeline, uint64_t n) {
  if (live.keyframes.empty()) {
    if (n > 0) b.step(static_cast<int>(n));
    return;
  }
  uint64_t left = n;
  while (left > 0) {
    const uint64_t s = b.steps_done();
    timeline.apply(live, s);
    set_live_parameters(b, live);
    // The steps that share these parameters run as one call (a hold, or the time between keyframes
    // of display keys only), up to 64 so a caller's progress stays responsive.
    const uint64_t run = timeline.steps_sharing_the_model(s, std::min<uint64_t>(left, 64));
    b.step(static_cast<int>(run));
    left -= run;
  }
  // For whoever draws now: the display keys, and the species' colours, which the renderer reads from
  // the backend (its model stays that of the last step run).
  timeline.apply(live, b.steps_done());
  set_live_colours(b, live);
}

}  // namespace physarum
