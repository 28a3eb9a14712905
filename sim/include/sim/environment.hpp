// The environment a run grows in (docs/MODEL.md, "Environment"): a food map that emits into the
// trail every step, walls agents never enter, and the boundary (torus or closed box). Plain data and
// the host-side rules every backend shares.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/params.hpp"

namespace physarum {

struct AgentState;

inline constexpr float kMaxFoodStrength = 1000.0f;  // |food strength|
inline constexpr float kMaxFood = 1.0e6f;           // a food cell's value E

struct Environment {
  std::vector<float> food;     // W x H, row-major, each in [0, 1e6]; empty: no food
  std::vector<uint8_t> walls;  // W x H, non-zero = wall; empty: no walls (the boundary may add some)
  // Per species: none (every species 1), one (every species that value) or one per species, each in
  // [-1000, 1000]. Negative: food repels that species.
  std::vector<float> food_strength;
  Boundary boundary = Boundary::Wrap;
  friend bool operator==(const Environment&, const Environment&) = default;
};

// Sizes match the field, values in range, finite, and at least one cell free. Throws Error naming
// the key ("environment.food", ...) and changes nothing.
void validate(const Environment& e, Size size, int species);
// The strength of species s (0..species-1).
float food_strength_of(const Environment& e, int s);
// True when the run has walls: a wall map with a wall in it, or a closed box.
bool has_walls(const Environment& e);
// The walls of the run: the map, plus the outermost ring with boundary = walls. W x H bytes (1 =
// wall), or empty when the run has no walls.
std::vector<uint8_t> run_walls(const Environment& e, Size size);

// Moves every agent whose cell is a wall (`walls`: W x H, non-zero = wall; empty: nothing to do) out
// of it, by a pure function of (seed, id) (docs/MODEL.md, "Agents never stand in a wall"). Returns
// how many moved. `walls` must have a free cell.
uint64_t move_out_of_walls(AgentState& agents, const std::vector<uint8_t>& walls, Size size, uint32_t seed);

// The food map from an image's brightness (resized to the field, [0, 1]); the wall map from it: a
// cell is a wall where the brightness is below `threshold` (in [0, 1]; black walls on white).
std::vector<uint8_t> walls_from_brightness(const std::vector<float>& brightness, float threshold);

}  // namespace physarum
