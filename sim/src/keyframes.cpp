// Keyframed parameters: interpolation (docs/MODEL.md, "Keyframes"), the preset at a step, and
// stepping a backend with them. Host code only: every backend receives the same floats.
#include "sim/keyframes.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <tuple>
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

// For one key, the keyframes around a step: the last at or before it naming the key, the next after.
struct Segment {
  std::string_view key;
  const Keyframe* at = nullptr;
  const Value* va = nullptr;
  const Keyframe* next = nullptr;
  const Value* vb = nullptr;
};

// Every keyframe value of one key, in increasing steps, so the segment around a step is a binary
// search: scanning every value of every keyframe per step made a preset of thousands of keyframes
// slow to step.
struct Track {
  std::string_view key;
  std::vector<std::pair<const Keyframe*, const Value*>> points;
};

// One pass over the values (keys in the order they first appear); keyframes come in increasing steps.
// Keyframes mostly name the keys of the one before in the same order: that is tried before the map.
std::vector<Track> tracks_of(const std::vector<Keyframe>& ks) {
  std::vector<Track> out;
  std::map<std::string_view, size_t> where;
  std::vector<size_t> before, now;
  const Keyframe* previous = nullptr;
  for (const Keyframe& k : ks) {
    now.clear();
    for (size_t i = 0; i < k.values.size(); ++i) {
      const KeyframeValue& v = k.values[i];
      size_t t = 0;
      if (previous != nullptr && i < before.size() && previous->values[i].key == v.key) {
        t = before[i];
      } else {
        const auto [it, added] = where.try_emplace(v.key, out.size());
        if (added) out.push_back(Track{v.key, {}});
        t = it->second;
      }
      out[t].points.emplace_back(&k, &v.value);
      now.push_back(t);
    }
    before.swap(now);
    previous = &k;
  }
  return out;
}

Segment segment_at(const Track& t, uint64_t step) {
  const auto after = std::upper_bound(t.points.begin(), t.points.end(), step,
                                      [](uint64_t s, const auto& point) { return s < point.first->step; });
  Segment out{t.key};
  if (after != t.points.begin()) std::tie(out.at, out.va) = *std::prev(after);
  if (after != t.points.end()) std::tie(out.next, out.vb) = *after;
  return out;
}

std::vector<Segment> segments_at(const std::vector<Track>& tracks, uint64_t step) {
  std::vector<Segment> out;
  out.reserve(tracks.size());
  for (const Track& t : tracks) out.push_back(segment_at(t, step));
  return out;
}

// The weight of the next keyframe's value at `step` inside a segment with both ends.
double weight_at(const Segment& s, uint64_t step) {
  const double t = static_cast<double>(step - s.at->step) / static_cast<double>(s.next->step - s.at->step);
  return ease_weight(s.at->ease, t);
}

// The value of a segment at `step`: before the first keyframe its first value, after the last (or
// a value that is neither a float nor a colour) the one it holds, else the interpolation.
Value value_at(const Segment& s, uint64_t step, registry::Type type) {
  if (s.va == nullptr) return *s.vb;
  if (s.vb == nullptr) return *s.va;
  if (type == registry::Type::Colour) {
    const auto colour = [](const Value& v) { return static_cast<uint32_t>(std::get<int64_t>(v)); };
    return static_cast<int64_t>(blend_colour(colour(*s.va), colour(*s.vb), weight_at(s, step)));
  }
  if (!std::holds_alternative<float>(*s.va)) return *s.va;
  return interpolate(std::get<float>(*s.va), std::get<float>(*s.vb), s.at->step, s.next->step, s.at->ease,
                     step);
}

// A colour (a species' colour too) changes the picture only: the steps between its keyframes still
// run as one call.
bool changes_the_model(const registry::Key& k) {
  using registry::Section;
  if (k.param->type == registry::Type::Colour) return false;
  return k.param->section == Section::Model || k.param->section == Section::Species ||
         k.param->section == Section::Interaction;
}

void apply_segments(Preset& p, const std::vector<Segment>& segments, uint64_t step) {
  for (const Segment& s : segments) {
    const registry::Key k = registry::resolve(p, s.key);
    registry::set(p, k, value_at(s, step, k.param->type));
  }
}

// How many of the next `most` steps from `step` share the model parameters of `step`: the run ends
// where a keyframe of a model key is reached or a model key's value changes (display keys may change).
uint64_t steps_sharing_the_model(const Preset& live, const std::vector<Segment>& segments, uint64_t step,
                                 uint64_t most) {
  std::vector<std::tuple<const Segment*, registry::Type, Value>> model;
  uint64_t end = step + most;
  for (const Segment& seg : segments) {
    const registry::Key k = registry::resolve(live, seg.key);
    if (!changes_the_model(k)) continue;
    model.emplace_back(&seg, k.param->type, registry::get(live, k));
    if (seg.next != nullptr) end = std::min(end, seg.next->step);
  }
  uint64_t run = 1;
  while (step + run < end) {
    for (const auto& [seg, type, now] : model)
      if (!(value_at(*seg, step + run, type) == now)) return run;
    ++run;
  }
  return std::max<uint64_t>(run, 1);
}

}  // namespace

void apply_keyframes_at(Preset& p, uint64_t step) {
  apply_segments(p, segments_at(tracks_of(p.keyframes), step), step);
}

Preset preset_at(const Preset& p, uint64_t step) {
  Preset out = p;
  apply_keyframes_at(out, step);
  return out;
}

std::optional<KeyBlend> blend_at(const Preset& p, std::string_view key, uint64_t step) {
  Track t{key, {}};
  for (const Keyframe& k : p.keyframes) {
    for (const KeyframeValue& v : k.values) {
      if (v.key == key) t.points.emplace_back(&k, &v.value);
    }
  }
  if (t.points.empty()) return std::nullopt;
  const Segment s = segment_at(t, step);
  if (s.va == nullptr) return KeyBlend{*s.vb, *s.vb, 0.0};
  if (s.vb == nullptr) return KeyBlend{*s.va, *s.va, 0.0};
  return KeyBlend{*s.va, *s.vb, weight_at(s, step)};
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
  if (live.keyframes.empty()) {
    if (n > 0) b.step(static_cast<int>(n));
    return;
  }
  const std::vector<Track> tracks = tracks_of(live.keyframes);
  uint64_t left = n;
  while (left > 0) {
    const uint64_t s = b.steps_done();
    const std::vector<Segment> segments = segments_at(tracks, s);
    apply_segments(live, segments, s);
    set_live_parameters(b, live);
    // The steps that share these parameters run as one call (a hold, or the time between keyframes
    // of display keys only), up to 64 so a caller's progress stays responsive.
    const uint64_t run = steps_sharing_the_model(live, segments, s, std::min<uint64_t>(left, 64));
    b.step(static_cast<int>(run));
    left -= run;
  }
  // For whoever draws now: the display keys, and the species' colours, which the renderer reads from
  // the backend (its model stays that of the last step run).
  apply_segments(live, segments_at(tracks, b.steps_done()), b.steps_done());
  set_live_colours(b, live);
}

}  // namespace physarum
