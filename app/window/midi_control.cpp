#include "window/midi_control.hpp"

#include <imgui.h>

#include <system_error>
#include <utility>

#include "run/preset_library.hpp"
#include "sim/atomic_file.hpp"
#include "sim/input_file.hpp"
#include "window/remote_control.hpp"

namespace physarum::app {
namespace {

constexpr size_t kMaxBindingsFile = 1 << 20;

std::string knob_name(int channel, int controller) {
  return "CC " + std::to_string(controller) + " on channel " + std::to_string(channel + 1);
}

}  // namespace

std::filesystem::path midi_bindings_file() {
  return run::user_preset_dir().parent_path() / "midi.toml";
}

std::string edited_key(const Preset& before, const Preset& after) {
  if (before.species.count() != after.species.count()) return {};
  for (const registry::Key& k : registry::keys_of(after)) {
    if (registry::get(before, k) != registry::get(after, k)) return k.name();
  }
  return {};
}

MidiControl::MidiControl(std::filesystem::path file, bool open_inputs) : file_(std::move(file)) {
  std::error_code ec;
  if (std::filesystem::exists(file_, ec)) {
    try {
      map_ = MidiMap::from_toml(read_input_file(file_, "MIDI bindings", kMaxBindingsFile), file_.string());
    } catch (const Error& e) {
      notice_ = std::string("MIDI bindings not read: ") + e.what();
    }
  }
  if (!open_inputs) return;
  try {
    input_ = std::make_unique<MidiInput>();
    std::string names;
    for (const std::string& n : input_->ports()) names += (names.empty() ? "" : ", ") + n;
    if (notice_.empty()) notice_ = "listening to " + names;
  } catch (const Error& e) {
    notice_ = e.what();
  }
}

std::vector<MidiCc> MidiControl::take() {
  return input_ ? input_->take() : std::vector<MidiCc>{};
}

bool MidiControl::apply(const std::vector<MidiCc>& ccs, WindowCore& core, Toasts& toasts) {
  bool changed = false;
  std::string refused;  // told once a frame: a turning knob sends many
  for (const MidiCc& cc : ccs) {
    if (map_.learning()) {
      if (const auto b = map_.learn_control(cc.channel, cc.controller)) learned(*b, toasts);
      continue;
    }
    const MidiBinding* b = map_.find(cc.channel, cc.controller);
    if (!b) continue;
    try {
      RemoteCommand c;
      c.key = registry::resolve(core.preset, b->key);
      c.value = value_for_cc(*c.key.param, cc.value);
      const Preset before = core.preset;
      bool recording = false;
      std::vector<PanelAction> none;
      if (const CommandResult r = apply_remote(c, core, recording, none); !r) throw Error(r.error());
      changed |= !(core.preset == before);
    } catch (const Error& e) {
      refused = "MIDI " + knob_name(cc.channel, cc.controller) + " -> " + b->key + ": " + e.what();
    }
  }
  if (!refused.empty()) toasts.error(refused + " (ignored)");
  if (changed) last_change_ = Clock::now();
  return changed;
}

void MidiControl::observe(const Preset& before, const Preset& after, Toasts& toasts) {
  if (!map_.learning()) return;
  const std::string key = edited_key(before, after);
  if (key.empty()) return;
  if (const auto b = map_.learn_key(key)) learned(*b, toasts);
}

bool MidiControl::editing(Clock::time_point now) const {
  return last_change_ != Clock::time_point{} && now - last_change_ < RemoteControl::kSettle;
}

void MidiControl::learned(const MidiBinding& b, Toasts& toasts) {
  toasts.info("MIDI: " + knob_name(b.channel, b.controller) + " now moves " + b.key);
  save(toasts);
}

void MidiControl::save(Toasts& toasts) {
  try {
    std::filesystem::create_directories(file_.parent_path());
    write_file_atomically(file_, map_.to_toml(), "save the MIDI bindings to");
  } catch (const std::exception& e) {
    toasts.error(std::string("MIDI bindings not saved: ") + e.what());
  }
}

void MidiControl::frame(const Preset& before_ui, WindowCore& core, Toasts& toasts) {
  observe(before_ui, core.preset, toasts);
  (void)apply(take(), core, toasts);
  draw(toasts);
}

void MidiControl::draw(Toasts& toasts) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Collapsed at the bottom right, above where Explore opens, so the field stays clear.
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + vp->WorkSize.y - 110),
                          ImGuiCond_FirstUseEver, ImVec2(1, 1));
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("MIDI", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
  ImGui::TextDisabled("%s", notice_.c_str());
  if (ImGui::Button(map_.learning() ? "Cancel learning" : "Learn")) map_.learn(!map_.learning());
  if (map_.learning()) ImGui::TextUnformatted("Move a slider in the panel, then turn a knob (either order).");
  int remove = -1;
  for (size_t i = 0; i < map_.bindings().size(); ++i) {
    const MidiBinding& b = map_.bindings()[i];
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton("x")) remove = static_cast<int>(i);
    ImGui::SameLine();
    ImGui::Text("%s -> %s", knob_name(b.channel, b.controller).c_str(), b.key.c_str());
    ImGui::PopID();
  }
  if (map_.bindings().empty()) ImGui::TextDisabled("No knobs bound yet.");
  ImGui::PopTextWrapPos();
  ImGui::End();
  if (remove >= 0) {
    map_.unbind(static_cast<size_t>(remove));
    save(toasts);
  }
}

}  // namespace physarum::app
