// What an OSC message asks of the window, read against the registry: every parameter a preset
// holds is an address (/physarum/SECTION/KEY, /physarum/species/N/KEY with N from 0 as in
// --set species.N.KEY), plus /physarum/reset, /physarum/record and /physarum/pause. Reading does
// not change anything; window/remote_control.hpp applies what was read.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "remote/osc_server.hpp"
#include "sim/registry.hpp"

namespace physarum::app {

inline constexpr std::string_view kOscPrefix = "/physarum/";

struct RemoteCommand {
  enum class Kind { Set, Reset, Record, Pause };
  Kind kind = Kind::Set;
  registry::Key key;  // Set: the parameter
  Value value;        // Set: its value, of the parameter's type and inside its range
  // Reset, Record, Pause: absent toggles (Reset: resets); a value asks for that state, so a
  // controller's button that sends 1 on press and 0 on release starts and stops, and resets once.
  std::optional<bool> on;
};

// The command `m` asks for, given the live preset (its species decide which keys exist). Throws
// Error "OSC <message as sent>: <why>" for an unknown address, a value of the wrong type or count,
// or one out of the parameter's range.
RemoteCommand read_command(const OscMessage& m, const Preset& live);

// The arguments as a value of `param` (no range check): one number for Float, Int and Count (a
// whole number for the latter two), true/false or 1/0 for Bool, a choice's name or its position
// from 0, "#rrggbb" or 0xRRGGBB or three numbers 0..1 for a colour, "WxH" or two whole numbers for
// a size, S x S numbers row by row for the interaction matrix; a string is read as --set reads it.
// Throws Error saying what was expected (without the name: the caller puts the address first).
Value value_from_osc(const registry::Param& param, const std::vector<OscArg>& args, size_t species_count);

}  // namespace physarum::app
