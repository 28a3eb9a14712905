// Many worlds of one size stepped as one (docs/MODEL.md, "Batches"): the CUDA backend holds B worlds
// in one allocation and launches each stage once for all of them, each world with its own
// parameters and seed. World b's field and agents are bit for bit those of create_backend(worlds[b])
// after the same steps. The run library (run/batch.hpp) picks this or worlds side by side.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/backend.hpp"

namespace physarum {

class WorldBatch {
 public:
  virtual ~WorldBatch() = default;
  WorldBatch(const WorldBatch&) = delete;
  WorldBatch& operator=(const WorldBatch&) = delete;

  virtual std::string name() const = 0;  // "cuda (NVIDIA H200), 256 worlds a launch, 16-bit counts"
  int worlds() const { return worlds_; }
  Size size() const { return size_; }
  uint64_t agents_per_world() const { return agents_; }
  virtual uint64_t steps_done() const = 0;

  // Every world n steps.
  virtual void step(int n) = 0;
  // World w's species, live (Backend::set_species); throws Error and changes nothing when refused.
  virtual void set_species(int world, const SpeciesSet& s) = 0;
  // World w's field, (S, H, W) planes as Backend::read_field; its agents in id order.
  virtual void read_field(int world, std::vector<float>& out) = 0;
  virtual AgentState read_agents(int world) = 0;
  // World w's agents or field replaced, as Backend::set_agents and set_field (all channels) do;
  // throws Error and changes nothing when refused.
  virtual void set_agents(int world, const AgentState& agents) = 0;
  virtual void set_field(int world, const std::vector<float>& values) = 0;
  virtual StageTimings timings() = 0;

 protected:
  WorldBatch(int worlds, Size size, uint64_t agents) : worlds_(worlds), size_(size), agents_(agents) {}

 private:
  int worlds_;
  Size size_;
  uint64_t agents_;
};

// Why these worlds cannot be batched together, or "" when they can: at least one world, one size,
// agent count and species count, detail 1, no food or walls.
std::string batch_mismatch(const std::vector<SimConfig>& worlds);
// The most worlds like `world` one batch holds: all their cells numbered in 31 bits, at most
// kMaxAgents agents in all (at least 1).
size_t max_batch_worlds(const SimConfig& world);
// Why these worlds cannot share one batch, or "" when they can: batch_mismatch, or more worlds than
// max_batch_worlds.
std::string batch_refusal(const std::vector<SimConfig>& worlds);

// The worlds in one CUDA backend. Throws Error when batch_refusal says why not, when a world's
// values are refused (as create_backend would), when there is no CUDA device, or when they do not
// fit in its memory (OutOfMemoryError).
std::unique_ptr<WorldBatch> create_cuda_batch(const std::vector<SimConfig>& worlds);

}  // namespace physarum
