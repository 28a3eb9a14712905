#include "window/remote_control.hpp"

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
  std::vector<std::pair<std::string, int>> told;  // this frame's refusals, each once with a count
  const auto refuse = [&](std::string why) {
    ++refused_;
    for (auto& [text, n] : told) {
      if (text == why) {
        ++n;
        return;
      }
    }
    told.emplace_back(std::move(why), 1);
  };
  bool rebuilt = false;
  for (const OscMessage& m : server_.take()) {
    try {
      const RemoteCommand c = read_command(m, core.preset);
      const Preset before = core.preset;
      const CommandResult r = apply_remote(c, core, recording, actions);
      if (!r) {
        refuse("OSC " + describe(m) + ": " + r.error());
        continue;
      }
      ++applied_;
      if (c.kind == RemoteCommand::Kind::Set && !(core.preset == before)) last_change_ = now;
      rebuilt |= !(core.preset.run == before.run) || !(core.preset.spawn == before.spawn);
    } catch (const Error& e) {
      refuse(e.what());
    }
  }
  for (const std::string& e : server_.take_errors()) refuse("OSC: a packet could not be read: " + e);
  if (const uint64_t lost = server_.take_dropped(); lost > 0) {
    refuse("OSC: " + std::to_string(lost) + " messages dropped (more than " +
           std::to_string(OscServer::kQueueLimit) + " arrived in one frame)");
  }
  for (const auto& [text, n] : told) {
    toasts.error(n == 1 ? text + " (ignored)" : text + " (ignored, " + std::to_string(n) + " times)");
  }
  return rebuilt;
}

bool RemoteControl::editing(Clock::time_point now) const {
  return last_change_ != Clock::time_point{} && now - last_change_ < kSettle;
}

}  // namespace physarum::app
