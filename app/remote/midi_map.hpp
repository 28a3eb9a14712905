// MIDI control changes (knobs, faders) bound to registry keys, and the learn mode that binds them:
// arm it, move a slider in the panel, turn a knob. The bindings are a small TOML file; the window
// keeps it in the user's config folder (window/midi_control.hpp). No MIDI device here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/registry.hpp"

namespace physarum::app {

struct MidiCc {
  int channel = 0;     // 0..15 (people count them 1..16)
  int controller = 0;  // 0..127
  int value = 0;       // 0..127
};

struct MidiBinding {
  int channel = 0;
  int controller = 0;
  std::string key;  // as --set names it: "model.decay", "species.1.deposit"
  friend bool operator==(const MidiBinding&, const MidiBinding&) = default;
};

// The value a knob at `cc` (0..127) gives `param`: 0 is the low end of its slider's range and 127 the
// high end (along a logarithmic slider's curve when it has one); a switch is on from 64; a choice
// splits the knob's travel evenly. Throws Error for a parameter without a slider or choices.
Value value_for_cc(const registry::Param& param, int cc);

class MidiMap {
 public:
  const std::vector<MidiBinding>& bindings() const { return bindings_; }
  // A knob drives one key and a key follows one knob: an older binding of either goes.
  void bind(MidiBinding b);
  void unbind(size_t index);
  const MidiBinding* find(int channel, int controller) const;

  void learn(bool on);
  bool learning() const { return learning_; }
  // While learning: the key edited last and the knob turned last, in either order; when both are
  // known they are bound (returned) and learning ends.
  std::optional<MidiBinding> learn_key(const std::string& key);
  std::optional<MidiBinding> learn_control(int channel, int controller);

  // [[binding]] tables: channel (1..16), controller (0..127), key.
  std::string to_toml() const;
  // Throws Error naming `source` and what is wrong; a key is checked when it is used, not here
  // (it may name a species the current preset lacks).
  static MidiMap from_toml(std::string_view text, const std::string& source);

 private:
  std::optional<MidiBinding> learned();
  std::vector<MidiBinding> bindings_;
  bool learning_ = false;
  std::optional<std::string> key_;
  std::optional<std::pair<int, int>> control_;
};

}  // namespace physarum::app
