#include "remote/midi_input.hpp"

#include <rtmidi/RtMidi.h>

#include <deque>
#include <mutex>

namespace physarum::app {

struct MidiInput::Shared {
  std::mutex mutex;
  std::deque<MidiCc> queue;
  std::vector<std::unique_ptr<RtMidiIn>> inputs;
};

namespace {

constexpr size_t kQueueLimit = 4096;  // knobs send a few hundred a second at most

void on_midi(double, std::vector<unsigned char>* message, void* user) {
  if (!message || message->size() != 3 || ((*message)[0] & 0xf0) != 0xb0) return;  // control change only
  auto* shared = static_cast<MidiInput::Shared*>(user);
  const std::lock_guard lock(shared->mutex);
  if (shared->queue.size() < kQueueLimit) {
    shared->queue.push_back({(*message)[0] & 0x0f, (*message)[1] & 0x7f, (*message)[2] & 0x7f});
  }
}

}  // namespace

MidiInput::MidiInput() : shared_(std::make_unique<Shared>()) {
  try {
    auto virtual_in = std::make_unique<RtMidiIn>(RtMidi::UNSPECIFIED, "physarum");
    const unsigned int n = virtual_in->getPortCount();
    for (unsigned int i = 0; i < n; ++i) {
      auto in = std::make_unique<RtMidiIn>(RtMidi::UNSPECIFIED, "physarum");
      names_.push_back(in->getPortName(i));
      in->setCallback(on_midi, shared_.get());
      in->openPort(i, "physarum in");
      shared_->inputs.push_back(std::move(in));
    }
    virtual_in->setCallback(on_midi, shared_.get());
    virtual_in->openVirtualPort("physarum");
    names_.push_back("physarum (virtual)");
    shared_->inputs.push_back(std::move(virtual_in));
  } catch (const RtMidiError& e) {
    shared_->inputs.clear();
    throw Error("no MIDI input: " + e.getMessage());
  }
}

MidiInput::~MidiInput() {
  for (auto& in : shared_->inputs) in->cancelCallback();  // before the queue goes
}

std::vector<MidiCc> MidiInput::take() {
  const std::lock_guard lock(shared_->mutex);
  std::vector<MidiCc> out(shared_->queue.begin(), shared_->queue.end());
  shared_->queue.clear();
  return out;
}

}  // namespace physarum::app
