#include "export/tiled.hpp"

#include <cstdio>
#include <vector>

#include "export/png_writer.hpp"

namespace physarum::app::exporter {

std::string json_escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string tiled_json(const Mask& m, int tile_size, const std::string& tileset_image,
                       const std::string& recipe) {
  const std::string w = std::to_string(m.width), h = std::to_string(m.height), t = std::to_string(tile_size);
  std::string data;
  data.reserve(m.cells.size() * 2);
  for (size_t i = 0; i < m.cells.size(); ++i) {
    if (i > 0) data += ',';
    data += m.cells[i] ? '1' : '2';
  }
  static_assert(kFloorGid == 1 && kWallGid == 2, "the data above writes these gids");
  std::string j;
  j += "{\n";
  j += " \"type\":\"map\",\n \"version\":\"1.8\",\n \"tiledversion\":\"1.8.2\",\n";
  j += " \"orientation\":\"orthogonal\",\n \"renderorder\":\"right-down\",\n";
  j += " \"width\":" + w + ",\n \"height\":" + h + ",\n";
  j += " \"tilewidth\":" + t + ",\n \"tileheight\":" + t + ",\n";
  j += " \"infinite\":false,\n \"compressionlevel\":-1,\n";
  j += " \"nextlayerid\":2,\n \"nextobjectid\":1,\n";
  j += " \"properties\":[{\"name\":\"recipe\", \"type\":\"string\", \"value\":\"" + json_escaped(recipe) +
       "\"}],\n";
  j += " \"layers\":[{\"type\":\"tilelayer\", \"id\":1, \"name\":\"cave\", \"x\":0, \"y\":0, \"width\":" + w +
       ", \"height\":" + h + ", \"opacity\":1, \"visible\":true,\n  \"data\":[" + data + "]}],\n";
  j += " \"tilesets\":[{\"firstgid\":1, \"name\":\"cave\", \"tilewidth\":" + t + ", \"tileheight\":" + t +
       ", \"tilecount\":2, \"columns\":2, \"margin\":0, \"spacing\":0, \"image\":\"" +
       json_escaped(tileset_image) + "\", \"imagewidth\":" + std::to_string(2 * tile_size) +
       ", \"imageheight\":" + t +
       ",\n  \"tiles\":[{\"id\":0, \"type\":\"floor\"}, {\"id\":1, \"type\":\"wall\"}]}]\n";
  j += "}\n";
  return j;
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
