// MIDI knobs in the window (--midi): bound control changes move their keys through the same
// commands as OSC (window/remote_control.hpp), so they are checked and undone like panel edits; the
// MIDI window arms learn mode and lists the bindings, which live in the user's config folder
// (~/.config/physarum/midi.toml, or under $XDG_CONFIG_HOME).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "remote/midi_input.hpp"
#include "remote/midi_map.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

// Where the bindings are kept: beside the user's presets, in physarum's config folder.
std::filesystem::path midi_bindings_file();

// The registry key `after` holds with a value other than in `before` (the first in the preset's
// order), or empty: what learn mode binds a knob to. Presets of different species counts: empty.
std::string edited_key(const Preset& before, const Preset& after);

class MidiControl {
 public:
  using Clock = std::chrono::steady_clock;

  // Reads the bindings from `file` (a bad or missing file: none, and a notice says why) and opens
  // the MIDI inputs when `open_inputs` (none: the notice says why; learn and bindings still work
  // with control changes handed to apply()).
  MidiControl(std::filesystem::path file, bool open_inputs);

  // What the inputs sent since the last frame.
  std::vector<MidiCc> take();
  // Control changes: a bound one moves its key; while learning, one completes the binding. A
  // refusal (a key the preset lacks) is a toast. Returns true when the preset changed.
  bool apply(const std::vector<MidiCc>& ccs, WindowCore& core, Toasts& toasts);
  // The panel's edit of this frame (before and after it drew), for learn mode.
  void observe(const Preset& before, const Preset& after, Toasts& toasts);
  // Changes still arriving (a knob being turned): the undo history waits, as for a held slider.
  bool editing(Clock::time_point now = Clock::now()) const;

  // The MIDI window (between ImGui::NewFrame and Render).
  void draw(Toasts& toasts);
  // A frame's share, after the panel drew (`before_ui`: the preset before it did): learn from the
  // panel's edit, apply what the inputs sent, draw the window.
  void frame(const Preset& before_ui, WindowCore& core, Toasts& toasts);

  MidiMap& map() { return map_; }
  const std::string& notice() const { return notice_; }

 private:
  void learned(const MidiBinding& b, Toasts& toasts);
  void save(Toasts& toasts);

  std::filesystem::path file_;
  MidiMap map_;
  std::unique_ptr<MidiInput> input_;
  std::string notice_;
  Clock::time_point last_change_{};
};

}  // namespace physarum::app
