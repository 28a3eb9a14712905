// Tile maps: a Tiled JSON map (.tmj: orthogonal, one tile layer, floor and wall tiles from a
// two-tile tileset image written beside it) and a plain CSV grid; or with level bands, one tile
// layer per band and an N-tile tileset, and a CSV grid of band indices.
#pragma once

#include <string>

#include "export/bands.hpp"
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

// Level bands: N tile layers "band 0" (lowest values) .. "band N-1", drawn in that order. Layer k
// holds tile k + 1 (gid) where a cell is in band k and nothing (0) elsewhere, so every cell has
// exactly one tile and each band can be shown, locked or given collision on its own. Layer
// properties: band, from (its lowest value), below (the next band's start); map properties:
// bands (even | quantile), levels, thresholds.
std::string tiled_bands_json(const BandMap& b, BandMode mode, int tile_size, const std::string& tileset_image,
                             const std::string& recipe);
// The bands' tileset: `levels` tiles in a row, dark (band 0) to light, each tile_size square.
std::string band_tileset_png(int tile_size, int levels);
// One row per line, comma-separated band indices 0..levels-1.
std::string band_csv(const BandMap& b);

}  // namespace physarum::app::exporter
