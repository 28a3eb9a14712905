#include "window/remote_control.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace physarum::app {
namespace {

CommandResult set_parameter(const RemoteCommand& c, WindowCore& core) {
  Preset next = core.preset;
  try {
    registry::set(next, c.key, c.value);
  } catch (const Error& e) {
    return CommandResult::refused(e.what());
  }
  if (c.key.param->section == registry::Section::Display && c.key.param->name == "palette") {
    const render::PaletteSet& set = core.palettes();
    if (set.palettes[set.index_of(next.display.palette)].name != next.display.palette) {
      std::string names;
      for (const auto& p : set.palettes) names += (names.empty() ? "" : ", ") + p.name;
      return CommandResult::refused("no palette named '" + next.display.palette + "' (there are " + names +
                                    ")");
    }
  }
  if (next == core.preset) return CommandResult::done();
  return core.apply_edit(next);
}

}  // namespace

CommandResult apply_remote(const RemoteCommand& c, WindowCore& core, bool& recording,
                           std::vector<PanelAction>& actions) {
  switch (c.kind) {
    case RemoteCommand::Kind::Set: return set_parameter(c, core);
    case RemoteCommand::Kind::Reset: return c.on.value_or(true) ? core.reset() : CommandResult::done();
    case RemoteCommand::Kind::Pause:
      if (c.on.value_or(!core.paused()) != core.paused()) core.toggle_pause();
      return CommandResult::done();
    case RemoteCommand::Kind::Record:
      if (c.on.value_or(!recording) != recording) {
        actions.push_back(PanelAction::ToggleRecording);
        recording = !recording;
      }
      return CommandResult::done();
  }
  return CommandResult::refused("unknown command");
}

bool RemoteControl::apply(WindowCore& core, bool recording, std::vector<PanelAction>& actions, Toasts& toasts,
                          Clock::time_point now) {
  bool rebuilt = false;
  for (const OscMessage& m : server_.take()) {
    try {
      const RemoteCommand c = read_command(m, core.preset);
      const Preset before = core.preset;
      const CommandResult r = apply_remote(c, core, recording, actions);
      if (!r) {
        refuse("OSC " + describe(m) + ": " + r.error(), toasts, now);
        continue;
      }
      ++applied_;
      if (c.kind == RemoteCommand::Kind::Set && !(core.preset == before)) last_change_ = now;
      rebuilt |= !(core.preset.run == before.run) || !(core.preset.spawn == before.spawn);
    } catch (const Error& e) {
      refuse(e.what(), toasts, now);
    }
  }
  for (const std::string& e : server_.take_errors()) {
    refuse("OSC: a packet could not be read: " + e, toasts, now);
  }
  if (const uint64_t lost = server_.take_dropped(); lost > 0) {
    refuse("OSC: messages dropped (more than " + std::to_string(OscServer::kQueueLimit) +
               " arrived in one frame)",
           toasts, now);
  }
  return rebuilt;
}

void RemoteControl::refuse(std::string why, Toasts& toasts, Clock::time_point now) {
  ++refused_;
  auto it = std::find_if(told_.begin(), told_.end(), [&](const Told& t) { return t.text == why; });
  if (it != told_.end() && now - it->at < kQuiet) {
    ++it->since;
    return;
  }
  if (it == told_.end()) {
    // Forget what has not come back for a while, so a stream of varied refusals cannot grow this.
    std::erase_if(told_, [&](const Told& t) { return now - t.at >= kQuiet; });
    told_.push_back({why, now, 0});
    it = told_.end() - 1;
  }
  toasts.error(it->since == 0 ? why + " (ignored)"
                              : why + " (ignored, and " + std::to_string(it->since) + " times more since)");
  it->at = now;
  it->since = 0;
}

bool RemoteControl::editing(Clock::time_point now) const {
  return last_change_ != Clock::time_point{} && now - last_change_ < kSettle;
}

}  // namespace physarum::app
