// Keyframed parameters (docs/MODEL.md, "Keyframes"): a preset's [[keyframe]] tables set keys at
// given steps, and the values between them are interpolated on the host in double precision,
// then rounded once to float. Keys are the --set names ("model.decay", "species.1.deposit",
// "display.exposure"): every key a preset writes can be keyframed, except what needs new agents
// or a new field (the parameter registry's keyframable flag, sim/registry.hpp). Values are typed:
// a key's type is its registry entry's, and values are set through the registry, never as text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/value.hpp"

namespace physarum {

struct Preset;
class Backend;

enum class Ease { Linear, Smoothstep, Hold };
std::string_view to_string(Ease e);
Ease parse_ease(std::string_view s);  // throws Error listing the choices

// The largest step a keyframe may name: far beyond any run, and exact in a double.
inline constexpr uint64_t kMaxKeyframeStep = 1'000'000'000'000ULL;
inline constexpr size_t kMaxKeyframes = 4096;

// One key's value in a keyframe. Float keys are interpolated and colour keys blended channel by
// channel (both with the keyframe's ease); any other key (a string, an integer, true/false, the
// interaction matrix) holds its value until the next keyframe that names it.
struct KeyframeValue {
  std::string key;  // as for --set: "model.decay"
  Value value;      // of the key's type (sim/registry.hpp); a float key holds float
  friend bool operator==(const KeyframeValue&, const KeyframeValue&) = default;
};

struct Keyframe {
  uint64_t step = 0;
  Ease ease = Ease::Linear;  // how the values leave this keyframe toward the next one naming each key
  std::vector<KeyframeValue> values;
  friend bool operator==(const Keyframe&, const Keyframe&) = default;
};

// The weight of the next keyframe's value at fraction t in [0, 1) of a segment:
// linear t, smoothstep t*t*(3-2t), hold 0.
double ease_weight(Ease e, double t);

// The float a key takes at `step` between keyframe values a (at step sa, with ease e) and b (at
// sb > sa), for sa <= step < sb: float(a + (b - a) * w) in double, w = ease_weight(e, (step - sa) /
// (sb - sa)); a result below the smallest normal float becomes 0.
float interpolate(float a, float b, uint64_t sa, uint64_t sb, Ease e, uint64_t step);

// The keyframes of a preset grouped per key, in increasing steps, each key resolved once, with a
// cursor per key: finding every key's segment at a step costs O(keys) when steps go forward (a
// step at a time, or a jump within a key's current or next segment) and O(keys * log keyframes)
// for any other jump, forward or back, so a step costs the same with 2 keyframes or 4096.
// It holds copies of the values: the preset it was made from may change or go.
class KeyframeTimeline {
 public:
  KeyframeTimeline();
  // Throws Error when a key does not name a key of `p` (validate_keyframes catches that earlier).
  explicit KeyframeTimeline(const Preset& p);
  KeyframeTimeline(KeyframeTimeline&&) noexcept;
  KeyframeTimeline& operator=(KeyframeTimeline&&) noexcept;
  ~KeyframeTimeline();

  bool empty() const;
  // Every keyframed key of `p` (a preset with the keys, and species, of the one it was made from)
  // set to its value at `step`, through the registry. Throws Error when a value does not apply.
  void apply(Preset& p, uint64_t step);
  // How many of the next `most` (>= 1) steps from `step` share the model parameters that apply()
  // set at `step`: the run ends at a keyframe of a model key or where a model key's value changes
  // (display keys may change). Call it after apply(p, step).
  uint64_t steps_sharing_the_model(uint64_t step, uint64_t most) const;

 private:
  struct Track;  // sim/src/keyframes.cpp: params.hpp includes this header, so no registry types here
  std::vector<Track> tracks_;
};

// One 8-bit channel at weight w of the way from a to b: round(a + (b - a) * w), half away from zero,
// w clamped into [0, 1]. Colour keys and palette tables both blend through it, so the picture of a
// keyframed colour and of a keyframed palette follow one rule.
uint8_t blend_channel(uint8_t a, uint8_t b, double w);
// 0xRRGGBB colours blended channel by channel with blend_channel.
uint32_t blend_colour(uint32_t a, uint32_t b, double w);

// A key that is not interpolated as a float (a palette's name) seen as a blend at `step`: the value
// the last keyframe naming it holds, the next one's value, and the weight of the next one by the
// held keyframe's ease, as interpolate() weighs a float. Before the first keyframe naming the key
// and from the last one on, both values are the one in force and the weight is 0. nullopt when no
// keyframe names the key. Display code blends what it can (render/palette_blend.hpp).
struct KeyBlend {
  Value from, to;
  double weight = 0;
};
std::optional<KeyBlend> blend_at(const Preset& p, std::string_view key, uint64_t step);

// `p` with every keyframed key set to its value at `step` (p.keyframes kept). Without keyframes p
// itself. Throws Error when a value does not apply (validate_keyframes catches that earlier).
Preset preset_at(const Preset& p, uint64_t step);
// The same in place, without copying the preset.
void apply_keyframes_at(Preset& p, uint64_t step);

// The keys a keyframe of `p` may name, in the order a preset writes them.
std::vector<std::string> keyframable_keys(const Preset& p);
// A keyframe at `step` holding every keyframable key of `p` with p's values.
Keyframe capture_keyframe(const Preset& p, uint64_t step, Ease ease);

// Steps strictly increasing and at most kMaxKeyframeStep, at most kMaxKeyframes, every key
// keyframable and each value valid on `p`. Messages name "keyframe.N.key".
void validate_keyframes(const Preset& p);

// The backend's live parameters made those of `p`: its model, or with [[species]] every species'
// parameters, shares and matrix; each only where it differs (a change may cost the backend a
// rebuild of its launch plan).
void set_live_parameters(Backend& b, const Preset& p);

// The species' colours of `p` on the backend, nothing else: the renderer reads them from there.
void set_live_colours(Backend& b, const Preset& p);

// Runs n steps of `b`, setting the keyframed values of `live` before each step (step number
// b.steps_done()) through the backend's live parameters (set_model, or set_species with several
// species), only when they change. `live` follows: the display keys are read from it by whoever
// draws. Without keyframes this is b.step(n).
void step_with_keyframes(Backend& b, Preset& live, uint64_t n);
// The same with the timeline of live's keyframes made once (KeyframeTimeline(live)) and kept
// between calls, so a call costs O(keyed parameters) per step and nothing per keyframe.
void step_with_keyframes(Backend& b, Preset& live, KeyframeTimeline& timeline, uint64_t n);

}  // namespace physarum
