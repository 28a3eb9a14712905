#include "render/palette.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sim/data_dir.hpp"
#include "sim/input_file.hpp"
#include "sim/params.hpp"
#include "sim/text.hpp"

namespace physarum::render {
namespace {

bool parse_hex_color(const std::string& tok, ColorStop& c) {
  if (tok.size() != 7 || tok[0] != '#') return false;
  for (size_t i = 1; i < 7; ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(tok[i]))) return false;
  }
  const unsigned long v = std::strtoul(tok.c_str() + 1, nullptr, 16);
  c.r = static_cast<uint8_t>((v >> 16) & 0xff);
  c.g = static_cast<uint8_t>((v >> 8) & 0xff);
  c.b = static_cast<uint8_t>(v & 0xff);
  return true;
}

bool parse_channel(const std::string& tok, uint8_t& out) {
  char* end = nullptr;
  const long v = std::strtol(tok.c_str(), &end, 10);
  if (end == tok.c_str() || *end != '\0' || v < 0 || v > 255) return false;
  out = static_cast<uint8_t>(v);
  return true;
}

}  // namespace

void build_lut(Palette& p) {
  for (int i = 0; i < kLutSize; ++i) {
    const float t = static_cast<float>(i) / (kLutSize - 1);
    float rgb[3];
    // Last stop at or below t (the first stop when t is below all of them).
    size_t k = 0;
    while (k + 1 < p.stops.size() && p.stops[k + 1].pos <= t) ++k;
    const ColorStop& a = p.stops[k];
    if (p.discrete || k + 1 == p.stops.size() || t <= a.pos) {
      rgb[0] = a.r, rgb[1] = a.g, rgb[2] = a.b;
    } else {
      const ColorStop& b = p.stops[k + 1];
      const float f = (t - a.pos) / (b.pos - a.pos);
      rgb[0] = a.r + (b.r - a.r) * f;
      rgb[1] = a.g + (b.g - a.g) * f;
      rgb[2] = a.b + (b.b - a.b) * f;
    }
    for (int c = 0; c < 3; ++c) p.lut[i * 4 + c] = static_cast<uint8_t>(std::lround(rgb[c]));
    p.lut[i * 4 + 3] = 255;
  }
}

Palette parse_palette(std::string_view text, const std::string& name, const std::string& source) {
  Palette p;
  p.name = name;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line_no = 0;
  auto fail = [&](const std::string& what) {
    throw Error(source + ":" + std::to_string(line_no) + ": " + what);
  };
  while (std::getline(in, raw)) {
    ++line_no;
    // A line starting with '#' is a comment; so is anything after the colour (it must start
    // with '#'): "0.5 #ff0000 # red" is a stop with a comment.
    const std::string line(trim(raw, " \t\r"));  // \r: a file saved with CRLF line ends
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::vector<std::string> tok;
    for (std::string t; ls >> t;) tok.push_back(t);
    if (tok[0] == "kind") {
      const bool trailing_ok = tok.size() == 2 || (tok.size() > 2 && tok[2][0] == '#');
      if (tok.size() < 2 || !trailing_ok || (tok[1] != "smooth" && tok[1] != "discrete")) {
        fail("expected 'kind smooth' or 'kind discrete'");
      }
      p.discrete = tok[1] == "discrete";
      continue;
    }
    ColorStop c;
    char* end = nullptr;
    c.pos = std::strtof(tok[0].c_str(), &end);
    if (end == tok[0].c_str() || *end != '\0' || !std::isfinite(c.pos) || c.pos < 0 || c.pos > 1) {
      fail("expected a stop position in [0, 1], got '" + tok[0] + "'");
    }
    // Colour: "#rrggbb" or "r g b" (0-255); anything after it must be a comment.
    size_t next = 0;
    if (tok.size() >= 2 && parse_hex_color(tok[1], c)) {
      next = 2;
    } else if (tok.size() >= 4 && parse_channel(tok[1], c.r) && parse_channel(tok[2], c.g) &&
               parse_channel(tok[3], c.b)) {
      next = 4;
    } else {
      fail("expected a colour after the position: #rrggbb or three integers 0-255");
    }
    if (next < tok.size() && tok[next][0] != '#') fail("unexpected '" + tok[next] + "' after the colour");
    if (!p.stops.empty() && c.pos <= p.stops.back().pos) fail("stop positions must increase");
    p.stops.push_back(c);
  }
  if (p.stops.size() < 2) {
    line_no = std::max(line_no, 1);
    fail("a palette needs at least two colour stops");
  }
  build_lut(p);
  return p;
}

Palette load_palette(const std::filesystem::path& file) {
  // Regular files only: a FIFO in the palette folder would block the program at start.
  const std::string text = read_input_file(file, "palette file", 1 << 20);
  return parse_palette(text, file.stem().string(), file.string());
}

Palette greyscale_palette() {
  Palette p;
  p.name = "greyscale";
  p.stops = {{0.0f, 0, 0, 0}, {1.0f, 255, 255, 255}};
  build_lut(p);
  return p;
}

std::filesystem::path palette_dir() {
  return data_dir(DataKind::palettes);
}

size_t PaletteSet::index_of(std::string_view name) const {
  for (size_t i = 0; i < palettes.size(); ++i) {
    if (palettes[i].name == name) return i;
  }
  return 0;
}

const Palette& palette_named(const PaletteSet& palettes, const std::string& name) {
  const size_t pi = palettes.index_of(name);
  if (palettes.palettes[pi].name == name) return palettes.palettes[pi];
  std::string names;
  for (const auto& p : palettes.palettes) names += " " + p.name;
  throw Error("no palette named '" + name + "' in " + palette_dir().string() + "; there are:" + names);
}

PaletteSet load_palettes(const std::filesystem::path& dir) {
  PaletteSet set;
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == kPaletteExtension) files.push_back(it->path());
  }
  if (ec) set.errors.push_back("cannot read palette folder " + dir.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    try {
      set.palettes.push_back(load_palette(f));
    } catch (const Error& e) {
      set.errors.push_back(e.what());
    }
  }
  if (set.palettes.empty()) set.palettes.push_back(greyscale_palette());
  return set;
}

}  // namespace physarum::render
