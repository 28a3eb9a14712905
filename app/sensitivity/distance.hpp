// How far apart twin runs are: the fields' relative L2 distance and the fraction of agents (by id)
// standing in different cells. Double precision throughout.
#pragma once

#include <vector>

#include "sim/backend.hpp"

namespace physarum::app::sensitivity {

// ||a - b|| / max(||a||, ||b||) over every channel: 0 for equal fields, at most 2, symmetric.
// 0 when both are zero. Throws Error for fields of different lengths.
double relative_l2(const std::vector<float>& a, const std::vector<float>& b);

// The fraction of agents whose cell (floor x, floor y) differs between a and b; both sorted by id
// (as read_agents returns them). Throws Error for different agent counts or ids.
double cell_mismatch_fraction(const AgentState& a, const AgentState& b);

}  // namespace physarum::app::sensitivity
