#include "remote/midi_map.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace physarum::app {
namespace {

// Where a logarithmic slider that starts at 0 starts its curve (ImGui's log sliders do the same).
constexpr double kLogFloor = 1e-4;

double along_slider(const registry::Param& p, double t) {
  const double lo = p.ui_lo, hi = p.ui_hi;
  if (!p.ui_log) return lo + (hi - lo) * t;
  if (t <= 0) return lo;
  const double from = lo > 0 ? lo : hi * kLogFloor;
  return from * std::pow(hi / from, t);
}

}  // namespace

Value value_for_cc(const registry::Param& p, int cc) {
  using T = registry::Type;
  const double t = std::clamp(cc, 0, 127) / 127.0;
  switch (p.type) {
    case T::Bool: return cc >= 64;
    case T::Choice: {
      const std::vector<std::string_view> c = registry::choice_list(p);
      const size_t i = std::min(c.size() - 1, static_cast<size_t>(t * static_cast<double>(c.size())));
      return std::string(c[i]);
    }
    case T::Float:
    case T::Int:
      if (p.ui_hi > p.ui_lo) {
        const double v = std::clamp(along_slider(p, t), p.ui_lo, p.ui_hi);
        if (p.type == T::Float) return registry::float_of(v);
        return static_cast<int64_t>(std::llround(v));
      }
      break;
    default: break;
  }
  throw Error(std::string(registry::section_name(p.section)) + "." + std::string(p.name) +
              " has no slider for a knob to move (" + std::string(registry::type_name(p.type)) + ")");
}

void MidiMap::bind(MidiBinding b) {
  std::erase_if(bindings_, [&](const MidiBinding& o) {
    return (o.channel == b.channel && o.controller == b.controller) || o.key == b.key;
  });
  bindings_.push_back(std::move(b));
}

void MidiMap::unbind(size_t index) {
  if (index < bindings_.size()) bindings_.erase(bindings_.begin() + static_cast<std::ptrdiff_t>(index));
}

const MidiBinding* MidiMap::find(int channel, int controller) const {
  for (const MidiBinding& b : bindings_) {
    if (b.channel == channel && b.controller == controller) return &b;
  }
  return nullptr;
}

void MidiMap::learn(bool on) {
  learning_ = on;
  key_.reset();
  control_.reset();
}

std::optional<MidiBinding> MidiMap::learned() {
  if (!learning_ || !key_ || !control_) return std::nullopt;
  MidiBinding b{control_->first, control_->second, *key_};
  bind(b);
  learn(false);
  return b;
}

std::optional<MidiBinding> MidiMap::learn_key(const std::string& key) {
  if (!learning_) return std::nullopt;
  key_ = key;
  return learned();
}

std::optional<MidiBinding> MidiMap::learn_control(int channel, int controller) {
  if (!learning_) return std::nullopt;
  control_ = {channel, controller};
  return learned();
}

std::string MidiMap::to_toml() const {
  std::ostringstream out;
  out << "# physarum's MIDI bindings: which knob (channel 1..16, controller 0..127) moves which key.\n";
  for (const MidiBinding& b : bindings_) {
    out << "\n[[binding]]\nchannel = " << b.channel + 1 << "\ncontroller = " << b.controller << "\nkey = \""
        << b.key << "\"\n";
  }
  return out.str();
}

MidiMap MidiMap::from_toml(std::string_view text, const std::string& source) {
  toml::table t;
  try {
    t = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw Error(source + ": " + std::string(e.description()));
  }
  MidiMap m;
  const toml::array* list = t["binding"].as_array();
  if (!list) return m;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::table* b = (*list)[i].as_table();
    const std::string where = source + ": binding " + std::to_string(i + 1);
    if (!b) throw Error(where + " is not a table");
    const auto channel = (*b)["channel"].value<int64_t>(), controller = (*b)["controller"].value<int64_t>();
    const auto key = (*b)["key"].value<std::string>();
    if (!channel || *channel < 1 || *channel > 16) throw Error(where + ": channel must be 1 to 16");
    if (!controller || *controller < 0 || *controller > 127)
      throw Error(where + ": controller must be 0 to 127");
    const auto plain = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_';
    };
    if (!key || key->empty() || key->size() > 200 || !std::all_of(key->begin(), key->end(), plain)) {
      throw Error(where + ": key must name a parameter, as --set does (model.decay)");
    }
    m.bind({static_cast<int>(*channel) - 1, static_cast<int>(*controller), *key});
  }
  return m;
}

}  // namespace physarum::app
