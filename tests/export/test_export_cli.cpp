// `physarum export` end to end: the real program writes files that are read back here with
// libpng, python3's json and xml parsers, and the Tiled program when it is installed.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>

#include "export/grid.hpp"
#include "export/svg.hpp"
#include "export_support.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kSmallRun = {"export", "--size", "64x48", "--agents",  "3000", "--steps",
                                            "60",     "--seed", "7",     "--backend", "cpu"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

std::string text_chunk(const GreyPng& p, const std::string& key) {
  for (const auto& [k, v] : p.text) {
    if (k == key) return v;
  }
  return {};
}

// Runs python3 -c `script` args...; skips the calling test when python3 is missing.
ProcessResult python(const std::string& script, const std::vector<std::string>& args, const fs::path& dir) {
  const std::string py = find_program("python3");
  if (py.empty()) return ProcessResult{};
  std::vector<std::string> a{"-c", script};
  a.insert(a.end(), args.begin(), args.end());
  return run_physarum(a, dir, {}, {}, py);
}

TEST(ExportCli, MaskHasTheResolutionBinaryValuesOneRegionAndItsRecipe) {
  const fs::path dir = temp_dir();
  const ProcessResult r =
      run_physarum(with(kSmallRun, {"--resolution", "160x120", "--out", "cave.png"}), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const GreyPng png = read_grey_png(dir / "cave.png");
  ASSERT_TRUE(png.ok);
  EXPECT_EQ(png.width, 160);
  EXPECT_EQ(png.height, 120);
  EXPECT_EQ(png.bit_depth, 8);
  EXPECT_EQ(png.color_type, PNG_COLOR_TYPE_GRAY);
  std::vector<uint8_t> floor(png.samples.size());
  for (size_t i = 0; i < png.samples.size(); ++i) {
    ASSERT_TRUE(png.samples[i] == 0 || png.samples[i] == 255) << png.samples[i];
    floor[i] = png.samples[i] == 255;
  }
  // The default --connect corridors leaves one floor region.
  EXPECT_EQ(region_sizes(floor, 160, 120, 1).size(), 1u);
  const size_t floor_cells = static_cast<size_t>(std::count(floor.begin(), floor.end(), 1));
  EXPECT_GT(floor_cells, png.samples.size() / 5);
  EXPECT_LT(floor_cells, png.samples.size() * 4 / 5);
  const std::string recipe = text_chunk(png, "Comment");
  for (const char* word : {"physarum ", " export ", " size=64x48", " agents=3000", " steps=60", " seed=7"}) {
    EXPECT_NE(recipe.find(word), std::string::npos) << recipe;
  }
  EXPECT_NE(recipe.find("resolution=160x120"), std::string::npos) << recipe;
}

TEST(ExportCli, ConnectNoneKeepsRegionsLargestLeavesOneAndIslandsBelowKAreGone) {
  const fs::path dir = temp_dir();
  // A low floor fraction without smoothing or widening leaves specks of floor and pockets of rock.
  const std::vector<std::string> cave = {"--resolution",     "2x",  "--smooth",    "0",
                                         "--floor-fraction", "0.1", "--min-width", "1"};
  ASSERT_EQ(run_physarum(with(kSmallRun, with(cave, {"--connect", "none", "--min-island", "0", "--out",
                                                     "a.png", "--report", "a.json"})),
                         dir)
                .exit_code,
            0);
  const GreyPng a = read_grey_png(dir / "a.png");
  std::vector<uint8_t> fa(a.samples.size());
  for (size_t i = 0; i < fa.size(); ++i) fa[i] = a.samples[i] != 0;
  const std::vector<int> before = region_sizes(fa, a.width, a.height, 1);
  ASSERT_GT(before.size(), 1u) << "the test needs a field with several floor regions";
  const std::vector<int> rock_before = region_sizes(fa, a.width, a.height, 0);
  ASSERT_LT(*std::min_element(before.begin(), before.end()), 150) << "the test needs small floor islands";
  ASSERT_LT(*std::min_element(rock_before.begin(), rock_before.end()), 150)
      << "the test needs small rock islands";

  ASSERT_EQ(
      run_physarum(
          with(kSmallRun, with(cave, {"--connect", "none", "--min-island", "150", "--out", "b.png"})), dir)
          .exit_code,
      0);
  const GreyPng b = read_grey_png(dir / "b.png");
  std::vector<uint8_t> fb(b.samples.size());
  for (size_t i = 0; i < fb.size(); ++i) fb[i] = b.samples[i] != 0;
  for (uint8_t v : {uint8_t{0}, uint8_t{1}}) {
    for (int s : region_sizes(fb, b.width, b.height, v)) EXPECT_GE(s, 150) << "a region of value " << int(v);
  }

  ASSERT_EQ(
      run_physarum(with(kSmallRun, with(cave, {"--connect", "largest", "--out", "c.png"})), dir).exit_code,
      0);
  const GreyPng c = read_grey_png(dir / "c.png");
  std::vector<uint8_t> fc(c.samples.size());
  for (size_t i = 0; i < fc.size(); ++i) fc[i] = c.samples[i] != 0;
  EXPECT_EQ(region_sizes(fc, c.width, c.height, 1).size(), 1u);

  const std::string report = read_file(dir / "a.json");
  EXPECT_NE(report.find("\"regions_before\": " + std::to_string(before.size())), std::string::npos) << report;
}

TEST(ExportCli, HeightMapIs16BitFullRangeAndMatchesTheR16) {
  const fs::path dir = temp_dir();
  const ProcessResult r =
      run_physarum(with(kSmallRun, {"--resolution", "2x", "--format", "height", "--out", "h.png"}), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(run_physarum(with(kSmallRun, {"--resolution", "2x", "--out", "h.r16"}), dir).exit_code, 0);
  const GreyPng png = read_grey_png(dir / "h.png");
  ASSERT_TRUE(png.ok);
  EXPECT_EQ(png.bit_depth, 16);
  EXPECT_EQ(png.color_type, PNG_COLOR_TYPE_GRAY);
  EXPECT_EQ(png.width, 128);
  EXPECT_EQ(png.height, 96);
  EXPECT_EQ(*std::min_element(png.samples.begin(), png.samples.end()), 0);
  EXPECT_EQ(*std::max_element(png.samples.begin(), png.samples.end()), 65535);
  const std::string raw = read_file(dir / "h.r16");
  ASSERT_EQ(raw.size(), png.samples.size() * 2);
  for (size_t i = 0; i < png.samples.size(); ++i) {
    const auto v = static_cast<uint16_t>(static_cast<unsigned char>(raw[2 * i]) |
                                         static_cast<unsigned char>(raw[2 * i + 1]) << 8);
    ASSERT_EQ(v, png.samples[i]) << "at " << i;
  }
  EXPECT_FALSE(text_chunk(png, "Comment").empty());
}

TEST(ExportCli, EqualInputsGiveByteIdenticalFiles) {
  const fs::path dir = temp_dir();
  for (const std::string run : {"1", "2"}) {
    const ProcessResult r = run_physarum(
        with(kSmallRun, {"--resolution", "3x", "--contours", "4", "--out", "m" + run + ".png", "--out",
                         "t" + run + ".tmj", "--out", "g" + run + ".csv", "--out", "s" + run + ".svg",
                         "--out", "r" + run + ".r16", "--report", "rep" + run + ".json"}),
        dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  for (const std::string stem : {"m", "t", "t_tiles", "g", "s", "r", "rep"}) {
    // The second run's files differ from the first run's only in the digit after the stem.
    const std::string ext = stem == "m" || stem == "t_tiles" ? ".png"
                            : stem == "t"                    ? ".tmj"
                            : stem == "g"                    ? ".csv"
                            : stem == "s"                    ? ".svg"
                            : stem == "r"                    ? ".r16"
                                                             : ".json";
    const std::string a = stem == "t_tiles" ? "t1_tiles.png" : stem + "1" + ext;
    const std::string b = stem == "t_tiles" ? "t2_tiles.png" : stem + "2" + ext;
    const std::string x = read_file(dir / a);
    std::string y = read_file(dir / b);
    // The map names its own tileset image, which follows the map's name.
    if (stem == "t" && y.find("t2_tiles.png") != std::string::npos) {
      y.replace(y.find("t2_tiles.png"), 12, "t1_tiles.png");
    }
    EXPECT_FALSE(x.empty()) << a;
    EXPECT_TRUE(x == y) << a << " and " << b << " differ";
  }
}

TEST(ExportCli, TiledMapHasTheFieldsTiledNeedsAndTheCsvMatches) {
  const fs::path dir = temp_dir();
  ASSERT_EQ(run_physarum(with(kSmallRun, {"--tile-size", "8", "--out", "map.tmj", "--out", "grid.csv",
                                          "--out", "m.png"}),
                         dir)
                .exit_code,
            0);
  // The checks run in python3's json module: a real parser, not string matching.
  const std::string script = R"(
import json, sys
m = json.load(open(sys.argv[1]))
need = ["type", "version", "tiledversion", "orientation", "renderorder", "width", "height", "tilewidth",
        "tileheight", "infinite", "layers", "nextlayerid", "nextobjectid", "tilesets"]
missing = [k for k in need if k not in m]
assert not missing, missing
assert m["type"] == "map" and m["orientation"] == "orthogonal" and m["infinite"] is False
assert (m["width"], m["height"], m["tilewidth"], m["tileheight"]) == (64, 48, 8, 8)
layer = m["layers"][0]
for k in ["type", "data", "width", "height", "name", "opacity", "visible", "x", "y", "id"]:
    assert k in layer, k
assert layer["type"] == "tilelayer" and len(layer["data"]) == 64 * 48
assert set(layer["data"]) == {1, 2}
ts = m["tilesets"][0]
for k in ["firstgid", "name", "tilewidth", "tileheight", "tilecount", "columns", "image"]:
    assert k in ts, k
assert ts["tilecount"] == 2
rows = [r.split(",") for r in open(sys.argv[2]).read().splitlines()]
assert len(rows) == 48 and all(len(r) == 64 for r in rows)
flat = [int(v) for r in rows for v in r]
assert [1 if v == 1 else 0 for v in layer["data"]] == flat, "csv differs from the map"
props = {p["name"]: p["value"] for p in m["properties"]}
assert "export size=64x48" in props["recipe"], props
print("ok")
)";
  const ProcessResult p = python(script, {(dir / "map.tmj").string(), (dir / "grid.csv").string()}, dir);
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "ok\n");
  EXPECT_TRUE(fs::is_regular_file(dir / "map_tiles.png"));
}

TEST(ExportCli, TiledOpensAndRewritesTheMap) {
  const std::string tiled = find_program("tiled");
  if (tiled.empty()) GTEST_SKIP() << "the Tiled program is not installed (apt-get install tiled)";
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  ASSERT_EQ(run_physarum(with(kSmallRun, {"--out", "map.tmj"}), dir).exit_code, 0);
  const ProcessResult t = run_physarum({"--export-map", "json", "map.tmj", "again.json"}, dir,
                                       {{"QT_QPA_PLATFORM", "offscreen"}}, {}, tiled);
  ASSERT_EQ(t.exit_code, 0) << t.out << t.err;
  const ProcessResult p = python(R"(
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["layers"][0]["data"] == b["layers"][0]["data"], "tile data changed"
assert (a["width"], a["height"], a["tilewidth"]) == (b["width"], b["height"], b["tilewidth"])
assert b["tilesets"][0]["tilecount"] == 2
assert [p["value"] for p in b["properties"] if p["name"] == "recipe"] == [a["properties"][0]["value"]]
print("ok")
)",
                                 {(dir / "map.tmj").string(), (dir / "again.json").string()}, dir);
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "ok\n");
}

// Level bands on a 4x3 field of squares, banded by hand (the values are i*i for i = 0..11):
//   25   0 121   9
//   64   4  36 100
//    1  81  49  16
// quantile, 3 levels: thresholds at ranks 4 and 8 of the sorted values, 16 and 64;
// even, linear: 0 + 121 * 1/3 = 40.33 and 80.67; even, log: 121 * (1001^(k/3) - 1) / 1000 = 1.089
// and 11.99. A cell's band is the number of thresholds at or below its value.
struct BandCase {
  std::vector<std::string> options;
  std::string expected;  // band of each cell, row by row
};
const std::vector<BandCase> kBandCases = {
    {{"--bands", "quantile", "--set", "display.mapping=linear"}, "1,0,2,0,2,0,1,2,0,2,1,1"},
    {{"--bands", "even", "--set", "display.mapping=linear"}, "0,0,2,0,1,0,0,2,0,2,1,0"},
    {{"--bands", "even", "--set", "display.mapping=log"}, "2,0,2,1,2,1,2,2,0,2,2,2"},
};

fs::path write_squares(const fs::path& dir) {
  const std::vector<float> f = {25, 0, 121, 9, 64, 4, 36, 100, 1, 81, 49, 16};
  write_npy(dir / "squares.npy", f.data(), 3, 4);
  return dir / "squares.npy";
}

// Python: the map has one tile layer per band, layer k holds gid k + 1 exactly on the cells of band
// k (0 elsewhere), the tileset has one tile per band, and the CSV grid is the bands.
const char* kCheckBands = R"(
import json, sys
m = json.load(open(sys.argv[1]))
expected = [int(v) for v in sys.argv[3].split(",")]
levels = int(sys.argv[4])
assert (m["width"], m["height"]) == (4, 3), (m["width"], m["height"])
layers = m["layers"]
assert len(layers) == levels, len(layers)
for k, layer in enumerate(layers):
    assert layer["type"] == "tilelayer" and layer["name"] == "band %d" % k, layer["name"]
    assert layer["data"] == [k + 1 if b == k else 0 for b in expected], (k, layer["data"])
    props = {p["name"]: p["value"] for p in layer["properties"]}
    assert props["band"] == k, props
ts = m["tilesets"][0]
assert ts["tilecount"] == levels and ts["imagewidth"] == levels * m["tilewidth"], ts
props = {p["name"]: p["value"] for p in m["properties"]}
assert props["levels"] == levels and props["bands"] in ("even", "quantile"), props
rows = [[int(v) for v in r.split(",")] for r in open(sys.argv[2]).read().splitlines()]
assert rows == [expected[0:4], expected[4:8], expected[8:12]], rows
print("ok")
)";

TEST(ExportCli, BandsGiveOneTileLayerPerBandAndTheCsvHoldsBandIndices) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  write_squares(dir);
  for (const BandCase& c : kBandCases) {
    const ProcessResult r = run_physarum(with({"export", "--field", "squares.npy", "--levels", "3",
                                               "--tile-size", "8", "--out", "b.tmj", "--out", "b.csv"},
                                              c.options),
                                         dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const ProcessResult p =
        python(kCheckBands, {(dir / "b.tmj").string(), (dir / "b.csv").string(), c.expected, "3"}, dir);
    EXPECT_EQ(p.exit_code, 0) << c.options[1] << " " << c.options[3] << ": " << p.err;
    EXPECT_EQ(p.out, "ok\n");
    const GreyPng tiles = read_grey_png(dir / "b_tiles.png");
    ASSERT_TRUE(tiles.ok);
    EXPECT_EQ(tiles.width, 3 * 8);
    EXPECT_EQ(tiles.height, 8);
    EXPECT_LT(tiles.samples[0], tiles.samples[8]);  // band 0 darker than band 1, darker than band 2
    EXPECT_LT(tiles.samples[8], tiles.samples[16]);
  }
  // --levels alone means nothing: refused.
  const ProcessResult bad =
      run_physarum({"export", "--field", "squares.npy", "--levels", "3", "--out", "x.csv"}, dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--levels needs --bands"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "x.csv"));
}

TEST(ExportCli, TiledOpensAndRewritesTheBandedMap) {
  const std::string tiled = find_program("tiled");
  if (tiled.empty()) GTEST_SKIP() << "the Tiled program is not installed (scripts/install-deps tiled)";
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  write_squares(dir);
  ASSERT_EQ(run_physarum(with({"export", "--field", "squares.npy", "--levels", "3", "--out", "b.tmj", "--out",
                               "b.csv"},
                              kBandCases[0].options),
                         dir)
                .exit_code,
            0);
  const ProcessResult t = run_physarum({"--export-map", "json", "b.tmj", "again.json"}, dir,
                                       {{"QT_QPA_PLATFORM", "offscreen"}}, {}, tiled);
  ASSERT_EQ(t.exit_code, 0) << t.out << t.err;
  // What Tiled wrote back passes the same checks: its layers, tiles, properties and bands.
  const ProcessResult p =
      python(kCheckBands,
             {(dir / "again.json").string(), (dir / "b.csv").string(), kBandCases[0].expected, "3"}, dir);
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "ok\n");
}

// A bump in the middle of a flat field: its contours are closed rings. A ramp: open lines.
fs::path write_field(const fs::path& dir, const std::string& name, bool bump) {
  const int w = 40, h = 30;
  std::vector<float> f(static_cast<size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      f[static_cast<size_t>(y) * w + x] =
          bump ? static_cast<float>(std::exp(-(std::pow(x - 20.0, 2) + std::pow(y - 15.0, 2)) / 40.0))
               : static_cast<float>(x) / w;
    }
  }
  write_npy(dir / name, f.data(), h, w);
  return dir / name;
}

struct SvgPath {
  std::vector<std::pair<double, double>> points;
  bool closed = false;
  double level = 0;
};

std::vector<SvgPath> svg_paths(const std::string& svg) {
  std::vector<SvgPath> out;
  static const std::regex group(R"re(<g [^>]*data-level="([^"]+)"[^>]*>([\s\S]*?)</g>)re");
  static const std::regex path(R"re(<path d="([^"]*)"/>)re");
  static const std::regex point(R"(([ML]) ?([-0-9.]+) ([-0-9.]+))");
  for (std::sregex_iterator g(svg.begin(), svg.end(), group), end; g != end; ++g) {
    const std::string body = (*g)[2].str();
    for (std::sregex_iterator p(body.begin(), body.end(), path); p != end; ++p) {
      SvgPath sp;
      sp.level = std::stod((*g)[1].str());
      const std::string d = (*p)[1].str();
      sp.closed = d.size() >= 1 && d.back() == 'Z';
      for (std::sregex_iterator q(d.begin(), d.end(), point); q != end; ++q) {
        sp.points.emplace_back(std::stod((*q)[2].str()), std::stod((*q)[3].str()));
      }
      out.push_back(sp);
    }
  }
  return out;
}

TEST(ExportCli, SvgParsesHasAGroupPerLevelAndPointsLieOnTheInterpolatedField) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  const fs::path npy = write_field(dir, "bump.npy", true);
  const ProcessResult r = run_physarum(
      {"export", "--field", npy.string(), "--resolution", "2x", "--contour-at", "0.2", "--contour-at", "0.5",
       "--contour-at", "0.8", "--tolerance", "0", "--paper", "300x200mm", "--out", "c.svg"},
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ProcessResult p = python(R"(
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg" and root.get("width") == "300.000mm", root.attrib
groups = root.findall(ns + "g")
print(len(groups), sum(len(g.findall(ns + "path")) for g in groups))
)",
                                 {(dir / "c.svg").string()}, dir);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "3 3\n");  // three levels, each one ring
  const std::string svg = read_file(dir / "c.svg");
  EXPECT_NE(svg.find("<!-- physarum"), std::string::npos);

  // Map millimetres back to the interpolated grid and evaluate it there.
  app::exporter::Grid field;
  const NpyArray a = read_npy(npy);
  field = {a.width, a.height, a.data};
  const app::exporter::Grid g = app::exporter::resample_bicubic(field, 80, 60);
  const app::exporter::Placement place = app::exporter::place_on_paper(80, 60, {300, 200}, 10);
  const std::vector<SvgPath> paths = svg_paths(svg);
  ASSERT_EQ(paths.size(), 3u);
  for (const SvgPath& sp : paths) {
    EXPECT_TRUE(sp.closed) << "a ring around the bump at level " << sp.level;
    EXPECT_GT(sp.points.size(), 10u);
    for (const auto& [mx, my] : sp.points) {
      const double gx = (mx - place.offset_x) / place.scale, gy = (my - place.offset_y) / place.scale;
      // Coordinates are printed to 0.001 mm; the field changes by at most ~0.03 per grid cell here.
      EXPECT_NEAR(app::exporter::sample_bilinear(g, gx, gy), sp.level, 2e-3) << "at " << mx << ", " << my;
    }
  }
}

TEST(ExportCli, ContoursOfARampAreOpenPaths) {
  const fs::path dir = temp_dir();
  const fs::path npy = write_field(dir, "ramp.npy", false);
  ASSERT_EQ(run_physarum({"export", "--field", npy.string(), "--contours", "3", "--set",
                          "display.mapping=linear", "--out", "r.svg"},
                         dir)
                .exit_code,
            0);
  const std::vector<SvgPath> paths = svg_paths(read_file(dir / "r.svg"));
  ASSERT_EQ(paths.size(), 3u);
  for (const SvgPath& sp : paths) {
    EXPECT_FALSE(sp.closed);
    EXPECT_EQ(sp.points.size(), 2u) << "a straight line simplifies to its two ends";
  }
}

TEST(ExportCli, MinLengthLeavesOutShortLines) {
  const fs::path dir = temp_dir();
  const fs::path npy = write_field(dir, "bump.npy", true);
  const std::vector<std::string> base = {"export",    "--field",      npy.string(), "--contour-at",
                                         "0.9",       "--contour-at", "0.1",        "--paper",
                                         "100x100mm", "--margin",     "0"};
  ASSERT_EQ(run_physarum(with(base, {"--out", "all.svg"}), dir).exit_code, 0);
  EXPECT_EQ(svg_paths(read_file(dir / "all.svg")).size(), 2u);
  // The ring at 0.9 has a radius of about 2 cells (5 mm here, ~30 mm long); the one at 0.1 ~9.6 cells.
  ASSERT_EQ(run_physarum(with(base, {"--min-length", "60", "--out", "long.svg"}), dir).exit_code, 0);
  const std::vector<SvgPath> left = svg_paths(read_file(dir / "long.svg"));
  ASSERT_EQ(left.size(), 1u);
  EXPECT_NEAR(left[0].level, 0.1, 1e-6);
}

TEST(ExportCli, FieldWithSeveralPlanesSumsThemOrTakesTheChannel) {
  const fs::path dir = temp_dir();
  const int w = 16, h = 12;
  std::vector<float> planes(static_cast<size_t>(2) * w * h);
  for (int i = 0; i < w * h; ++i) {
    planes[static_cast<size_t>(i)] = static_cast<float>(i % w);          // plane 0: a ramp in x
    planes[static_cast<size_t>(w * h + i)] = static_cast<float>(i / w);  // plane 1: a ramp in y
  }
  write_npy(dir / "two.npy", planes.data(), h, w, 2);
  ASSERT_EQ(run_physarum({"export", "--field", "two.npy", "--channel", "1", "--format", "height", "--set",
                          "display.mapping=linear", "--out", "c1.png"},
                         dir)
                .exit_code,
            0);
  const GreyPng c1 = read_grey_png(dir / "c1.png");
  ASSERT_TRUE(c1.ok);
  EXPECT_EQ(c1.samples[0], c1.samples[w - 1]) << "channel 1 does not change along x";
  EXPECT_LT(c1.samples[0], c1.samples[static_cast<size_t>(w) * (h - 1)]);
  ASSERT_EQ(run_physarum({"export", "--field", "two.npy", "--format", "height", "--set",
                          "display.mapping=linear", "--out", "sum.png"},
                         dir)
                .exit_code,
            0);
  const GreyPng sum = read_grey_png(dir / "sum.png");
  EXPECT_EQ(sum.samples[0], 0);
  EXPECT_EQ(sum.samples[static_cast<size_t>(w) * h - 1], 65535);
  EXPECT_LT(sum.samples[0], sum.samples[w - 1]);
  const ProcessResult bad =
      run_physarum({"export", "--field", "two.npy", "--channel", "2", "--out", "x.png"}, dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("2 plane(s)"), std::string::npos) << bad.err;
}

TEST(ExportCli, BadOptionsAreRefusedWithAMessageAndWriteNothing) {
  const fs::path dir = temp_dir();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"export", "--out", "x.png"}, "--steps"},
      {with(kSmallRun, {"--out", "x.bmp"}), "extension"},
      {with(kSmallRun, {"--out", "x.png", "--format", "gif"}), "--format"},
      {with(kSmallRun, {"--out", "x.png", "--resolution", "0x5"}), "--resolution"},
      {with(kSmallRun, {"--out", "x.png", "--resolution", "big"}), "--resolution"},
      {with(kSmallRun, {"--out", "x.png", "--threshold", "1", "--floor-fraction", "0.5"}), "exclude"},
      {with(kSmallRun, {"--out", "x.png", "--floor-fraction", "1.5"}), "--floor-fraction"},
      {with(kSmallRun, {"--out", "x.png", "--connect", "all"}), "--connect"},
      {with(kSmallRun, {"--out", "x.svg", "--paper", "b5"}), "--paper"},
      {with(kSmallRun, {"--out", "x.png", "--min-width", "0"}), "--min-width"},
      {with(kSmallRun, {"--out", "no/such/dir/x.png"}), "does not exist"},
      {{"export", "--field", "f.npy", "--steps", "5", "--out", "x.png"}, "exclude"},
      {{"export", "--field", "f.npy", "--size", "64x64", "--out", "x.png"}, "--size shapes a grown field"},
      {with(kSmallRun, {"--out", "x.png", "--resolution", "200x"}), "more than 8192x8192"},
  };
  for (const auto& [args, expect] : cases) {
    const ProcessResult r = run_physarum(args, dir);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
    EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "stdout.txt" || name == "stderr.txt") << "left behind: " << name;
  }
}

// Two outputs that are one file, including the Tiled map's tileset that is written without being
// named, an output that cannot be written, or a number that is not finite: refused before the run,
// naming both, and nothing is written.
TEST(ExportCli, CollidingUnwritableOrNonFiniteOutputsAreRefusedBeforeTheRun) {
  const fs::path dir = temp_dir();
  ASSERT_EQ(::mkfifo((dir / "pipe.json").c_str(), 0600), 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--out", "x.png", "--report", "x.png"}, "--report x.png: the same file as --out x.png"},
      {{"--out", "map.tmj", "--out", "map_tiles.png"}, "the same file as the tileset of --out map.tmj"},
      {{"--out", "map_tiles.png", "--out", "map.tmj"}, "the tileset of --out map.tmj"},
      {{"--out", "x.csv", "--out", "./x.csv"}, "the same file as --out x.csv"},
      {{"--out", "x.png", "--report", "pipe.json"}, "a FIFO"},
      {{"--format", "mask", "--out", "/dev/null"}, "a device"},
      {{"--out", "x.png", "--threshold", "nan"}, "'nan' is not a finite number"},
      {{"--out", "x.png", "--threshold", "1e39"}, "'1e39' is not a finite number"},
      {{"--out", "x.svg", "--contour-at", "inf"}, "'inf' is not a finite number"},
      {{"--out", "x.png", "--floor-fraction", "nan"}, "not a finite number"},
      {{"--out", "x.svg", "--margin", "nan"}, "not a finite number"},
      {{"--out", "x.svg", "--tolerance", "-nan"}, "not a finite number"},
  };
  for (const auto& [more, expect] : cases) {
    const ProcessResult r = run_physarum(with(kSmallRun, more), dir);
    EXPECT_EQ(r.exit_code, 2) << more.back() << ": " << r.err;
    EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "stdout.txt" || name == "stderr.txt" || name == "pipe.json")
        << "left behind: " << name;
  }
}

// A NaN or infinity would take over every range and blank the map: refused, naming how many.
TEST(ExportCli, AFieldWithNonFiniteCellsIsRefusedNamingHowMany) {
  const fs::path dir = temp_dir();
  std::vector<float> f(16 * 8);
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<float>(i % 7);
  f[3] = std::nanf("");
  f[50] = std::numeric_limits<float>::infinity();
  f[99] = -std::numeric_limits<float>::infinity();
  write_npy(dir / "f.npy", f.data(), 8, 16);
  const ProcessResult r =
      run_physarum({"export", "--field", "f.npy", "--out", "h.r16", "--out", "m.png"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--field f.npy: 3 of 128 cells are not finite"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "h.r16"));
  EXPECT_FALSE(fs::exists(dir / "m.png"));
}

}  // namespace
}  // namespace physarum::test
