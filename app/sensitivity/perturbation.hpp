// The one difference between twin runs A and B (--perturb): an agent's heading or position, one
// field cell, or a numeric preset parameter by a relative amount.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"

namespace physarum::app::sensitivity {

struct Perturbation {
  enum class Kind { Agent, Field, Parameter };
  Kind kind = Kind::Agent;
  std::string text;      // as given, for the recipe and the CSV
  uint64_t agent = 0;    // Agent
  char component = 't';  // Agent: 't' theta (radians), 'x', 'y' (cells)
  int x = 0, y = 0;      // Field
  std::string key;       // Parameter: "model.decay", "species.1.share", ...
  double eps = 0;        // absolute (Agent, Field) or relative (Parameter)
};

// "agent:ID:theta|x|y:EPS", "field:X,Y:EPS", "KEY:REL_EPS" (KEY a numeric preset key). Throws Error
// saying what was expected; checks only the text (ranges are checked against a simulation).
Perturbation parse_perturbation(const std::string& spec);

// Applies a Parameter perturbation to B's preset; returns the change applied (after rounding to
// float). Other kinds leave the preset alone and return eps.
double perturb_preset(const Perturbation& p, Preset& b);

// What an Agent or Field perturbation reads and writes of B: a backend, or a world of a batch.
struct TwinState {
  Size size;
  uint64_t agents = 0;
  std::function<AgentState()> read_agents;  // sorted by id
  std::function<void(const AgentState&)> set_agents;
  std::function<void(std::vector<float>&)> read_field;       // (S, H, W)
  std::function<void(const std::vector<float>&)> set_field;  // every channel
};

// Applies an Agent or Field perturbation to a freshly created B (nothing for Parameter). Throws
// Error when the agent id or the cell is out of range, changing nothing.
void perturb_state(const Perturbation& p, const TwinState& b);
void perturb_state(const Perturbation& p, Backend& b);

}  // namespace physarum::app::sensitivity
