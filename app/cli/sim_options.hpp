// The options every command shares (--preset, --size, --agents, --seed, --image, --backend,
// --threads, --set) and how they become a running simulation.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/params.hpp"

namespace CLI {
class App;
}

namespace physarum::app {

struct SimOptions {
  std::string preset;  // file; empty = built-in defaults
  std::string size;    // "WxH"; empty = the preset's
  std::string agents;  // "1000", "250K", "4M"; empty = the preset's
  std::optional<uint32_t> seed;
  std::string image;               // seed image file
  std::string image_fit = "fill";  // fill (cover, cropped) | fit (letterboxed)
  std::string food;                // food map image (overrides environment.food)
  std::string walls;               // walls image (overrides environment.walls)
  std::string backend = "auto";    // auto | cpu | cuda
  int threads = 0;                 // CPU backend threads, 0 = all
  std::vector<std::string> sets;   // "section.key=value"
  SpeciesSet species;              // non-empty: replaces the preset's species (the window's loaded preset)
};

void add_sim_options(CLI::App& cmd, SimOptions& o);

// Preset file (or defaults), then --size/--agents/--seed, then each --set, validated.
// Throws UsageError naming the offending value.
Preset resolve_preset(const SimOptions& o);

struct Simulation {
  Preset preset;
  std::unique_ptr<Backend> backend;
  std::string note;  // which backend and why ("cuda: NVIDIA H200", "cpu: no CUDA device found")
};
// Creates the backend with the environment (--food, --walls, [environment]) and seeds it from
// --image (times spawn.field_strength) when given. A bad map image is an Error, before anything is
// allocated.
Simulation make_simulation(const SimOptions& o);

}  // namespace physarum::app
