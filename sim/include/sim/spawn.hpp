// Initial agents: positions and headings from the seed through the counter-based hash, so every
// backend starts from the same state.
#pragma once

#include "sim/backend.hpp"

namespace physarum {

AgentState spawn_agents(SpawnMode mode, Size size, uint64_t count, uint32_t seed);
// Each agent with its species' spawn mode (docs/MODEL.md, "Several species"); one species is spawn_agents.
AgentState spawn_species(const SpeciesSet& resolved, Size size, uint64_t count, uint32_t seed);

// Respawn with probability proportional to brightness (values >= 0, size.width*size.height).
AgentState spawn_from_image(const std::vector<float>& brightness, Size size, uint64_t count, uint32_t seed);

}  // namespace physarum
