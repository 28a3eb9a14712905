// Tile maps: a Tiled JSON map (.tmj: orthogonal, one tile layer, floor and wall tiles from a
// two-tile tileset image written beside it) and a plain CSV grid.
#pragma once

#include <string>

#include "export/cave.hpp"

namespace physarum::app::exporter {

inline constexpr int kFloorGid = 1;  // first tile of the tileset
inline constexpr int kWallGid = 2;

// `tileset_image` is the tileset PNG's file name relative to the map (Tiled resolves it so).
std::string tiled_json(const Mask& m, int tile_size, const std::string& tileset_image,
                       const std::string& recipe);
// The two-tile tileset: floor light, wall dark, each tile_size square; 8-bit grey PNG bytes.
std::string tileset_png(int tile_size);
// One row per line, comma-separated: 1 floor, 0 wall.
std::string grid_csv(const Mask& m);

std::string json_escaped(const std::string& s);

}  // namespace physarum::app::exporter
