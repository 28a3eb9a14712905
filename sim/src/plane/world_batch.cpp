// Batches of worlds (sim/world_batch.hpp): which worlds may share one, and the CUDA batch's set-up.
#include "sim/world_batch.hpp"

#include <algorithm>

#include "backends.hpp"
#include "sim/spawn.hpp"

namespace physarum {

std::string batch_mismatch(const std::vector<SimConfig>& worlds) {
  if (worlds.empty()) return "a batch needs at least one world";
  const SimConfig& first = worlds.front();
  for (size_t b = 0; b < worlds.size(); ++b) {
    const SimConfig& w = worlds[b];
    const std::string which = "world " + std::to_string(b);
    if (w.size != first.size)
      return which + " is " + format_size(w.size) + " and world 0 " + format_size(first.size) +
             ": the worlds of a batch have one size";
    if (w.agents != first.agents)
      return which + " has " + std::to_string(w.agents) + " agents and world 0 " +
             std::to_string(first.agents) + ": the worlds of a batch have one agent count";
    if (w.species.count() != first.species.count())
      return which + " has " + std::to_string(w.species.count()) + " species and world 0 " +
             std::to_string(first.species.count()) + ": the worlds of a batch have one species count";
    if (w.scale != 1) return which + " has detail " + std::to_string(w.scale) + ": a batch runs at detail 1";
    if (!w.environment.food.empty() || has_walls(w.environment))
      return which + " has food or walls: a batch runs worlds without an environment";
  }
  return "";
}

size_t max_batch_worlds(const SimConfig& world) {
  const uint64_t cells = static_cast<uint64_t>(world.size.width) * static_cast<uint64_t>(world.size.height);
  const uint64_t by_cells = ((1ULL << 31) - 1) / std::max<uint64_t>(cells, 1);
  const uint64_t by_agents = kMaxAgents / std::max<uint64_t>(world.agents, 1);
  return static_cast<size_t>(std::max<uint64_t>(1, std::min(by_cells, by_agents)));
}

std::string batch_refusal(const std::vector<SimConfig>& worlds) {
  if (std::string why = batch_mismatch(worlds); !why.empty()) return why;
  const SimConfig& first = worlds.front();
  const auto b = static_cast<uint64_t>(worlds.size());
  if (b > max_batch_worlds(first))
    return std::to_string(b) + " worlds of " + format_size(first.size) + " with " +
           format_count(first.agents) + " agents are more than one batch holds (2^31 cells and " +
           format_count(kMaxAgents) + " agents in all): use fewer worlds a batch";
  return "";
}

std::unique_ptr<WorldBatch> create_cuda_batch(const std::vector<SimConfig>& worlds) {
  for (const SimConfig& w : worlds) validate_config(w);
  const std::string why = batch_refusal(worlds);
  if (!why.empty()) throw Error(why);
#if defined(PHYSARUM_HAS_CUDA)
  if (cuda_device_name().empty()) throw Error("a CUDA batch: no CUDA device or driver found");
  // Each world's agents as create_backend spawns them alone, world after world.
  AgentState all;
  for (const SimConfig& w : worlds) {
    const AgentState a =
        spawn_species(resolve_species(w.species, w.model, w.spawn.mode), w.size, w.agents, w.seed);
    all.x.insert(all.x.end(), a.x.begin(), a.x.end());
    all.y.insert(all.y.end(), a.y.begin(), a.y.end());
    all.theta.insert(all.theta.end(), a.theta.begin(), a.theta.end());
    all.id.insert(all.id.end(), a.id.begin(), a.id.end());
  }
  return make_cuda_batch(worlds, std::move(all));
#else
  throw Error("a CUDA batch: this build has no CUDA backend (nvcc was not found when it was built)");
#endif
}

}  // namespace physarum
