#include "export/tiled.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "sim/json_text.hpp"

#include "sim/png_writer.hpp"

namespace physarum::app::exporter {

namespace {

// The map around its layers and tileset (orthogonal, finite, right-down), with the recipe and
// `properties` (already JSON objects, each followed by ", ") as map properties.
std::string map_json(int width, int height, int tile_size, int layer_count, const std::string& layers,
                     const std::string& tileset, const std::string& recipe, const std::string& properties) {
  const std::string w = std::to_string(width), h = std::to_string(height), t = std::to_string(tile_size);
  std::string j;
  j += "{\n";
  j += " \"type\":\"map\",\n \"version\":\"1.8\",\n \"tiledversion\":\"1.8.2\",\n";
  j += " \"orientation\":\"orthogonal\",\n \"renderorder\":\"right-down\",\n";
  j += " \"width\":" + w + ",\n \"height\":" + h + ",\n";
  j += " \"tilewidth\":" + t + ",\n \"tileheight\":" + t + ",\n";
  j += " \"infinite\":false,\n \"compressionlevel\":-1,\n";
  j += " \"nextlayerid\":" + std::to_string(layer_count + 1) + ",\n \"nextobjectid\":1,\n";
  j += " \"properties\":[" + properties +
       "{\"name\":\"recipe\", \"type\":\"string\", \"value\":" + json_string(recipe) + "}],\n";
  j += " \"layers\":[" + layers + "],\n";
  j += " \"tilesets\":[" + tileset + "]\n";
  j += "}\n";
  return j;
}

std::string tile_layer(int id, const std::string& name, int width, int height, const std::string& data,
                       const std::string& properties) {
  return "{\"type\":\"tilelayer\", \"id\":" + std::to_string(id) + ", \"name\":" + json_string(name) +
         ", \"x\":0, \"y\":0, \"width\":" + std::to_string(width) + ", \"height\":" + std::to_string(height) +
         ", \"opacity\":1, \"visible\":true," + properties + "\n  \"data\":[" + data + "]}";
}

// One tileset image of `count` tiles in a row; `tiles` lists each tile's type.
std::string tileset_json(const std::string& name, int tile_size, int count, const std::string& image,
                         const std::string& tiles) {
  const std::string t = std::to_string(tile_size);
  return "{\"firstgid\":1, \"name\":" + json_string(name) + ", \"tilewidth\":" + t + ", \"tileheight\":" + t +
         ", \"tilecount\":" + std::to_string(count) + ", \"columns\":" + std::to_string(count) +
         ", \"margin\":0, \"spacing\":0, \"image\":" + json_string(image) +
         ", \"imagewidth\":" + std::to_string(count * tile_size) + ", \"imageheight\":" + t +
         ",\n  \"tiles\":[" + tiles + "]}";
}

std::string float_text(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

}  // namespace

std::string tiled_json(const Mask& m, int tile_size, const std::string& tileset_image,
                       const std::string& recipe) {
  std::string data;
  data.reserve(m.cells.size() * 2);
  for (size_t i = 0; i < m.cells.size(); ++i) {
    if (i > 0) data += ',';
    data += m.cells[i] ? '1' : '2';
  }
  static_assert(kFloorGid == 1 && kWallGid == 2, "the data above writes these gids");
  return map_json(m.width, m.height, tile_size, 1, tile_layer(1, "cave", m.width, m.height, data, ""),
                  tileset_json("cave", tile_size, 2, tileset_image,
                               "{\"id\":0, \"type\":\"floor\"}, {\"id\":1, \"type\":\"wall\"}"),
                  recipe, "");
}

std::string tiled_bands_json(const BandMap& b, BandMode mode, int tile_size, const std::string& tileset_image,
                             const std::string& recipe) {
  std::string layers, tiles, thresholds;
  for (int k = 0; k < b.levels; ++k) {
    std::string data;
    data.reserve(b.cells.size() * 2);
    const std::string gid = std::to_string(k + 1);
    for (size_t i = 0; i < b.cells.size(); ++i) {
      if (i > 0) data += ',';
      if (b.cells[i] == k) {
        data += gid;
      } else {
        data += '0';
      }
    }
    // The band's value range as layer properties: where it starts (from band 1) and ends.
    std::string props =
        "\n  \"properties\":[{\"name\":\"band\", \"type\":\"int\", \"value\":" + std::to_string(k) + "}";
    if (k > 0)
      props += ", {\"name\":\"from\", \"type\":\"float\", \"value\":" + float_text(b.thresholds[k - 1]) + "}";
    if (k + 1 < b.levels)
      props += ", {\"name\":\"below\", \"type\":\"float\", \"value\":" + float_text(b.thresholds[k]) + "}";
    props += "],";
    if (k > 0) layers += ",\n  ";
    layers += tile_layer(k + 1, "band " + std::to_string(k), b.width, b.height, data, props);
    if (k > 0) tiles += ", ";
    tiles += "{\"id\":" + std::to_string(k) + ", \"type\":\"band " + std::to_string(k) + "\"}";
  }
  for (size_t k = 0; k < b.thresholds.size(); ++k) {
    if (k > 0) thresholds += ',';
    thresholds += float_text(b.thresholds[k]);
  }
  const std::string props =
      std::string("{\"name\":\"bands\", \"type\":\"string\", \"value\":\"") +
      (mode == BandMode::Even ? "even" : "quantile") +
      "\"}, {\"name\":\"levels\", \"type\":\"int\", \"value\":" + std::to_string(b.levels) +
      "}, {\"name\":\"thresholds\", \"type\":\"string\", \"value\":\"" + thresholds + "\"}, ";
  return map_json(b.width, b.height, tile_size, b.levels, layers,
                  tileset_json("bands", tile_size, b.levels, tileset_image, tiles), recipe, props);
}

std::string band_tileset_png(int tile_size, int levels) {
  const int w = levels * tile_size, h = tile_size;
  std::vector<uint16_t> px(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      // Dark (low field: rock, deep) to light (high field: the network), evenly spaced greys.
      const int band = x / tile_size;
      px[static_cast<size_t>(y) * w + x] = static_cast<uint16_t>(30 + 200 * band / std::max(1, levels - 1));
    }
  }
  return encode_grey_png(px, w, h, 8, {});
}

std::string band_csv(const BandMap& b) {
  std::string out;
  out.reserve(b.cells.size() * 3);
  for (int y = 0; y < b.height; ++y) {
    for (int x = 0; x < b.width; ++x) {
      if (x > 0) out += ',';
      out += std::to_string(b.at(x, y));
    }
    out += '\n';
  }
  return out;
}

std::string tileset_png(int tile_size) {
  const int w = 2 * tile_size, h = tile_size;
  std::vector<uint16_t> px(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) px[static_cast<size_t>(y) * w + x] = x < tile_size ? 200 : 40;
  }
  return encode_grey_png(px, w, h, 8, {});
}

std::string grid_csv(const Mask& m) {
  std::string out;
  out.reserve(m.cells.size() * 2);
  for (int y = 0; y < m.height; ++y) {
    for (int x = 0; x < m.width; ++x) {
      if (x > 0) out += ',';
      out += m.at(x, y) ? '1' : '0';
    }
    out += '\n';
  }
  return out;
}

}  // namespace physarum::app::exporter
