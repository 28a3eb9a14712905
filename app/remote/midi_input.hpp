// MIDI control changes from every MIDI input there is (RtMidi, ALSA's sequencer on Linux), plus a
// virtual input named "physarum" that other programs can connect to. RtMidi calls back on its own
// thread; the messages wait here until the window takes them once a frame.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "remote/midi_map.hpp"

namespace physarum::app {

class MidiInput {
 public:
  // Throws Error saying why when there is no MIDI system to open (no ALSA sequencer).
  MidiInput();
  ~MidiInput();
  MidiInput(const MidiInput&) = delete;
  MidiInput& operator=(const MidiInput&) = delete;

  // The inputs listened to, by name.
  const std::vector<std::string>& ports() const { return names_; }
  // The control changes that arrived since the last call, oldest first.
  std::vector<MidiCc> take();

  struct Shared;

 private:
  std::unique_ptr<Shared> shared_;
  std::vector<std::string> names_;
};

}  // namespace physarum::app
