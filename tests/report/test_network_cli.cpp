// The network as the program writes it: `export --skeleton` draws the skeleton into the SVG (read
// back with python3's XML parser and mapped back onto the mask), `render --report` writes the
// network numbers as JSON (read back with python3's json).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>
#include <sstream>
#include <thread>

#include "analysis/network.hpp"
#include "export/svg.hpp"
#include "export_support.hpp"
#include "report/render_report.hpp"
#include "sim/npy.hpp"
#include "system/process.hpp"
#include "system/signals.hpp"
#include "test_support.hpp"

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

ProcessResult python(const std::string& script, const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<std::string> a{"-c", script};
  a.insert(a.end(), args.begin(), args.end());
  return run_physarum(a, dir, {}, {}, find_program("python3"));
}

// A ring and a spur, three cells wide: 1 on the network, 0 elsewhere.
std::vector<float> ring_and_spur(int w, int h) {
  std::vector<float> f(static_cast<size_t>(w) * h, 0.0f);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const double r = std::hypot(x - 30.0, y - 25.0);
      const bool ring = std::abs(r - 15.0) <= 1.0;
      const bool spur = y >= 24 && y <= 26 && x >= 45 && x <= 70;
      if (ring || spur) f[static_cast<size_t>(y) * w + x] = 1.0f;
    }
  }
  return f;
}

TEST(NetworkCli, SkeletonGroupParsesAndEveryPointLiesOnTheNetwork) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  const int w = 80, h = 50;
  const std::vector<float> f = ring_and_spur(w, h);
  write_npy(dir / "net.npy", f.data(), h, w);
  const ProcessResult r =
      run_physarum({"export", "--field", (dir / "net.npy").string(), "--threshold", "0.5", "--skeleton",
                    "--paper", "160x100mm", "--margin", "0", "--out", "s.svg"},
                   dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ProcessResult p = python(R"(
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
print(" ".join(g.get("id") for g in root.findall(ns + "g")))
for path in root.find(ns + "g[@id='network']").findall(ns + "path"):
    print(path.get("d"))
)",
                                 {(dir / "s.svg").string()}, dir);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  std::istringstream lines(p.out);
  std::string groups;
  std::getline(lines, groups);
  EXPECT_EQ(groups, "level-1 network");  // the threshold's contour, then the network in its own group
  const app::exporter::Placement place = app::exporter::place_on_paper(w, h, {160, 100}, 0);
  static const std::regex point(R"(([ML]) ?([-0-9.]+) ([-0-9.]+))");
  int paths = 0, points = 0;
  for (std::string d; std::getline(lines, d);) {
    ++paths;
    for (std::sregex_iterator q(d.begin(), d.end(), point), end; q != end; ++q) {
      const double gx = (std::stod((*q)[2].str()) - place.offset_x) / place.scale;
      const double gy = (std::stod((*q)[3].str()) - place.offset_y) / place.scale;
      // Skeleton points are cell centres: whole grid coordinates, on a network cell.
      const int x = static_cast<int>(std::lround(gx)), y = static_cast<int>(std::lround(gy));
      EXPECT_NEAR(gx, x, 1e-3);
      EXPECT_NEAR(gy, y, 1e-3);
      ASSERT_TRUE(x >= 0 && y >= 0 && x < w && y < h) << gx << "," << gy;
      EXPECT_EQ(f[static_cast<size_t>(y) * w + x], 1.0f) << "off the network at " << x << "," << y;
      ++points;
    }
  }
  // A ring with a spur: the stroke round the ring and the spur, few pen lifts.
  EXPECT_GE(paths, 1);
  EXPECT_LE(paths, 3);
  EXPECT_GE(points, 8);
}

TEST(NetworkCli, SkeletonWithoutAnSvgIsRefused) {
  const fs::path dir = temp_dir();
  const std::vector<float> f = ring_and_spur(80, 50);
  write_npy(dir / "net.npy", f.data(), 50, 80);
  const ProcessResult r =
      run_physarum({"export", "--field", (dir / "net.npy").string(), "--skeleton", "--out", "m.png"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--skeleton"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "m.png"));
}

TEST(NetworkCli, RenderReportWithoutFoodHasNoTownsAndTheFieldsNetwork) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  const ProcessResult r = run_physarum(
      {"render", "--steps", "120", "--backend", "cpu", "--size", "96x64", "--agents", "4000", "--seed", "3",
       "--out", "field.npy", "--report", "net.json", "--report-fraction", "0.2", "-q"},
      dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const ProcessResult p = python(R"(
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("towns", "towns_connected", "network_length", "mst_length", "fault_tolerance", "threshold", "steps",
          "recipe"):
    assert k in r, k
assert r["towns"] == 0 and r["towns_connected"] is None and r["mst_length"] is None, r
assert r["fault_tolerance"] is None and r["steps"] == 120 and "--seed 3" in r["recipe"], r
print(repr(r["threshold"]), repr(r["network_length"]), r["network_cells"])
)",
                                 {(dir / "net.json").string()}, dir);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  // The same numbers from the .npy the run wrote: the report measured the final field.
  const NpyArray a = read_npy(dir / "field.npy");
  const app::analysis::Grid g{a.width, a.height, a.data};
  const float t = app::analysis::threshold_for_fraction(g, nullptr, 0.2);
  // Hysteresis at the default low level, a tenth of the high one.
  const app::analysis::Mask m = app::analysis::hysteresis_mask(g, nullptr, static_cast<float>(t * 0.1), t);
  const double len = app::analysis::skeleton_length(app::analysis::skeleton(m));
  std::istringstream in(p.out);
  double threshold = 0, length = 0;
  int64_t cells = 0;
  in >> threshold >> length >> cells;
  EXPECT_NEAR(threshold, t, 1e-6 * std::abs(t));
  EXPECT_NEAR(length, len, 1e-6 * len);
  EXPECT_EQ(cells, std::count(m.cells.begin(), m.cells.end(), uint8_t{1}));
  EXPECT_GE(cells, static_cast<int64_t>(0.2 * 96 * 64));
  EXPECT_GT(length, 0);
}

// A 128 x 64 food image (white dots on black) with towns at x = 10, 64 and 118, and a white walls image.
void write_two_to_one_maps(const fs::path& dir) {
  const int w = 128, h = 64;
  std::vector<unsigned char> food(static_cast<size_t>(w) * h, 0), land(static_cast<size_t>(w) * h, 255);
  for (const int tx : {10, 64, 118}) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (std::hypot(x - tx, y - 32) <= 4.0) food[static_cast<size_t>(y) * w + x] = 255;
      }
    }
  }
  ASSERT_TRUE(stbi_write_png((dir / "food.png").c_str(), w, h, 1, food.data(), 0));
  ASSERT_TRUE(stbi_write_png((dir / "land.png").c_str(), w, h, 1, land.data(), 0));
}

// The report measures the maps the run grew in: from --food/--walls on the command line (paths from
// the working folder) or a preset's [environment] (paths from the preset's folder), fitted as the run
// fitted them. On a square field, `fill` crops the 2:1 food image to its middle town; `fit` keeps all
// three (and letterboxes the walls image: the bands above and below are walls).
TEST(NetworkCli, RenderReportMeasuresTheRunsOwnMaps) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  write_two_to_one_maps(dir);
  fs::create_directories(dir / "p");
  fs::copy_file(dir / "food.png", dir / "p" / "towns.png");
  write_file(dir / "p" / "t.toml", "[environment]\nfood = \"towns.png\"\nfit = \"fit\"\n");
  const std::vector<std::string> base{"render", "--steps",  "10",  "--backend", "cpu",   "--size",
                                      "64x64",  "--agents", "500", "--out",     "f.png", "-q"};
  const auto report = [&](std::vector<std::string> extra, const std::string& json) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--report", json});
    const ProcessResult r = run_physarum(args, dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    const ProcessResult p = python(R"(
import json, sys
r = json.load(open(sys.argv[1]))
print(r["towns"], r["food"], r["walls"], r["network_cells"])
)",
                                   {(dir / json).string()}, dir);
    EXPECT_EQ(p.exit_code, 0) << p.err;
    return p.out;
  };
  std::istringstream fill(report({"--food", "food.png", "--walls", "land.png"}, "fill.json"));
  std::istringstream fit(
      report({"--food", "food.png", "--walls", "land.png", "--set", "environment.fit=fit"}, "fit.json"));
  std::istringstream preset(report({"--preset", (dir / "p" / "t.toml").string()}, "preset.json"));
  int towns = 0;
  std::string food, walls;
  int64_t cells_fill = 0, cells_fit = 0;
  fill >> towns >> food >> walls >> cells_fill;
  EXPECT_EQ(towns, 1);
  EXPECT_EQ(food, "food.png");
  EXPECT_EQ(walls, "land.png");
  fit >> towns >> food >> walls >> cells_fit;
  EXPECT_EQ(towns, 3);
  // The letterbox (rows above and below the fitted 64 x 32 image) is wall: not counted as open cells.
  EXPECT_LT(cells_fit, cells_fill);
  preset >> towns >> food >> walls;
  EXPECT_EQ(towns, 3);
  EXPECT_EQ(fs::path(food), (dir / "p" / "towns.png").lexically_normal());
  EXPECT_EQ(walls, "None");
}

}  // namespace
}  // namespace physarum::test

namespace physarum::test {
namespace {

// Ctrl-C or SIGTERM that arrives while the report is measured ends it: nothing is written and the
// caller learns it (render then exits with 128 + the signal). Without a signal the same call writes.
TEST(RenderReport, AStopRequestDuringTheReportWritesNothing) {
  SimConfig c;
  c.size = {64, 48};
  c.agents = 2000;
  c.threads = 1;
  auto b = create_backend(BackendKind::Cpu, c);
  b->step(30);
  std::vector<float> field;
  b->read_field(field);
  const fs::path dir = temp_dir();
  app::ReportOptions r;
  r.file = (dir / "net.json").string();
  app::request_stop(SIGTERM);
  const bool written = app::write_render_report(r, *b, EnvironmentParams{}, field, 30, "recipe", "2GB");
  app::clear_stop_request();
  EXPECT_FALSE(written);
  EXPECT_FALSE(fs::exists(r.file));
  EXPECT_TRUE(app::write_render_report(r, *b, EnvironmentParams{}, field, 30, "recipe", "2GB"));
  EXPECT_TRUE(fs::exists(r.file));
}

}  // namespace
}  // namespace physarum::test

namespace physarum::test {
namespace {

// SIGTERM while render measures a large network (every cell of a 4096 x 4096 field is network with
// threshold 0): the report is not written and the exit code is 128 + 15, not 0. The field's .npy is
// written just before the report starts, so its appearance says when to send the signal.
TEST(NetworkCli, SigtermDuringTheReportExits143AndWritesNoReport) {
  using app::describe_wait_status, app::spawn_process, app::SpawnFds, app::wait_process;
  const fs::path dir = temp_dir();
  const fs::path npy = dir / "field.npy";
  const fs::path report = dir / "net.json";
  const int err_fd = ::open((dir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(err_fd, 0);
  const pid_t pid = spawn_process(
      {PHYSARUM_EXE, "render", "--backend", "cpu", "--size", "4096x4096", "--agents", "1K", "--steps", "1",
       "--out", npy.string(), "--report", report.string(), "--report-threshold", "0", "-q"},
      SpawnFds{-1, -1, err_fd}, false);
  ::close(err_fd);
  using namespace std::chrono_literals;
  for (int i = 0; i < 1200 && !fs::exists(npy); ++i) std::this_thread::sleep_for(25ms);
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  const int status = wait_process(pid);
  const std::string err = read_file(dir / "stderr.txt");
  ASSERT_TRUE(fs::exists(npy)) << err;
  ASSERT_TRUE(WIFEXITED(status)) << describe_wait_status(status) << "\n" << err;
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << err;
  EXPECT_FALSE(fs::exists(report));
  EXPECT_NE(err.find("during the network report"), std::string::npos) << err;
}

}  // namespace
}  // namespace physarum::test

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

// The towns preset's density: 60K agents on its 960x540.
constexpr double kTownsDensity = 60000.0 / (960.0 * 540.0);

struct TownsCase {
  int width, height;
  double density_factor;  // 1: the preset's density; 0.5 and 2: half and twice it
  int scale = 1;          // --scale K: the field K times larger each way, the pattern K times finer
  int steps = 2000;       // a larger field takes longer to join its far towns
};

// `physarum render --preset towns` at each size and density, 2000 steps, with --report: every one
// must say the 24 towns are linked, as the pictures show them.
void expect_towns_linked(const std::vector<TownsCase>& cases, const std::string& backend) {
  const fs::path dir = temp_dir();
  for (const TownsCase& c : cases) {
    const auto agents =
        static_cast<int64_t>(std::llround(kTownsDensity * c.density_factor * c.width * c.height));
    const std::string size = std::to_string(c.width) + "x" + std::to_string(c.height);
    SCOPED_TRACE(size + " with " + std::to_string(agents) + " agents at detail " + std::to_string(c.scale) +
                 ", " + std::to_string(c.steps) + " steps");
    const ProcessResult r =
        run_physarum({"render", "--preset", "towns", "--backend", backend, "--size", size, "--agents",
                      std::to_string(agents), "--scale", std::to_string(c.scale), "--steps",
                      std::to_string(c.steps), "--out", "field.npy", "--report", "towns.json", "-q"},
                     dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const std::string json = read_file(dir / "towns.json");
    EXPECT_NE(json.find("\"towns\": 24,"), std::string::npos) << json;
    EXPECT_NE(json.find("\"towns_connected\": true,"), std::string::npos) << json;
    EXPECT_EQ(json.find("\"efficiency\": null"), std::string::npos) << json;  // every town on the graph
  }
}

// About 100 seconds on two cores, 5 minutes on two shared with other work (the 1920x1080 run is more
// than half of it). 640x360 with the preset's 60K agents (2.25 times its density) is the picture the
// top 15% of the open cells alone called "not linked". 480x270 at detail 2 is 960x540 with 60K
// agents, the pattern twice as fine.
TEST(NetworkCli, TownsAreLinkedAtThreeSizesAndAtHalfAndTwiceTheDensity) {
  expect_towns_linked({{480, 270, 0.5},
                       {480, 270, 1},
                       {480, 270, 2},
                       {640, 360, 2.25},
                       {960, 540, 1},
                       {1920, 1080, 1},
                       {480, 270, 1, 2}},
                      "cpu");
}

// The same on the GPU machine, with half and twice the density at 960x540 and 1920x1080, and at
// detail 2 and 4 (960x540 at detail 4 is 3840x2160, the preset's look four times finer). At 1920x1080
// the far towns join later: at half and twice the density 2000 steps leave 15 and 13 pieces, 5000
// link them. Not linked, and so not held here (an H100, each picture agreeing with its report):
// 3840x2160 at detail 1 and the density (9 to 18 pieces from 2000 to 20000 steps: the trails thin
// out between towns tens of sensor lengths apart).
TEST(NetworkCliCuda, TownsAreLinkedFrom480x270To1920x1080) {
  if (!cuda_built()) GTEST_SKIP() << "built without the CUDA backend (no nvcc at configure)";
  if (cuda_device().empty()) GTEST_SKIP() << "no CUDA device or driver on this machine";
  expect_towns_linked({{480, 270, 1},
                       {960, 540, 0.5},
                       {960, 540, 1},
                       {960, 540, 2},
                       {1920, 1080, 1},
                       {1920, 1080, 0.5, 1, 5000},
                       {1920, 1080, 2, 1, 5000},
                       {960, 540, 1, 2},
                       {960, 540, 1, 4}},
                      "cuda");
}

// A small run's graph, as GraphML and as JSON: NetworkX reads both (node-link for the JSON), and
// they hold the same nodes and edges the report counts.
TEST(NetworkCli, GraphFilesOpenInNetworkX) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const ProcessResult probe = python("import networkx", {}, temp_dir());
  if (probe.exit_code != 0)
    GTEST_SKIP() << "python3-networkx is not installed (scripts/install-deps installs it)";
  const fs::path dir = temp_dir();
  write_two_to_one_maps(dir);
  const ProcessResult r = run_physarum({"render",
                                        "--steps",
                                        "300",
                                        "--backend",
                                        "cpu",
                                        "--size",
                                        "128x64",
                                        "--agents",
                                        "3000",
                                        "--food",
                                        "food.png",
                                        "--set",
                                        "environment.food_strength=40",
                                        "--out",
                                        "f.npy",
                                        "--report",
                                        "r.json",
                                        "--graph",
                                        "g.graphml",
                                        "-q"},
                                       dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const ProcessResult j = run_physarum(
      {"render", "--steps", "300", "--backend", "cpu", "--size", "128x64", "--agents", "3000", "--food",
       "food.png", "--set", "environment.food_strength=40", "--out", "f2.npy", "--graph", "g.json", "-q"},
      dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  ASSERT_EQ(j.exit_code, 0) << j.err << j.out;
  const ProcessResult p =
      python(R"(
import json, sys, networkx as nx
g = nx.read_graphml(sys.argv[1])
r = json.load(open(sys.argv[2]))
d = json.load(open(sys.argv[3]))
try:
    h = nx.node_link_graph(d, edges="links")
except TypeError:  # NetworkX before 3.4 names it link= and reads "links" by default
    h = nx.node_link_graph(d)
assert r["graph"] == {"nodes": g.number_of_nodes(), "edges": g.number_of_edges()}, (r["graph"], g)
assert (h.number_of_nodes(), h.number_of_edges()) == (g.number_of_nodes(), g.number_of_edges())
towns = sorted(d["town"] for n, d in g.nodes(data=True) if d["kind"] == "town")
assert towns == list(range(r["towns"])), towns
for a, b, d in g.edges(data=True):
    assert d["length"] >= 1 and d["cells"] >= 2, d
    assert isinstance(d["level"], float)
for k in ("cost", "efficiency", "fault_tolerance_tero", "towns", "towns_connected", "network_length",
          "mst_length", "fault_tolerance"):
    assert k in r, k
print(r["towns"], g.number_of_edges())
)",
             {(dir / "g.graphml").string(), (dir / "r.json").string(), (dir / "g.json").string()}, dir);
  ASSERT_EQ(p.exit_code, 0) << p.err << p.out;
  int towns = 0, edges = 0;
  std::istringstream(p.out) >> towns >> edges;
  EXPECT_EQ(towns, 3);
  EXPECT_GT(edges, 0);
}

// --graph is an output like the others: a bad extension, or the same file as another output, is
// refused before any step; nothing is written.
TEST(NetworkCli, GraphOutputIsCheckedBeforeTheRun) {
  const fs::path dir = temp_dir();
  const std::vector<std::string> base{"render", "--steps", "5", "--size", "64x64", "--agents", "100", "-q"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return run_physarum(a, dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  };
  const ProcessResult bad = with({"--out", "a.png", "--graph", "g.txt"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("g.txt"), std::string::npos) << bad.err;
  const ProcessResult same = with({"--out", "a.png", "--report", "x.json", "--graph", "x.json"});
  EXPECT_EQ(same.exit_code, 2) << same.err;
  EXPECT_NE(same.err.find("x.json"), std::string::npos) << same.err;
  // Its framing (the keys and the command line) counts before the run: a 3 KB budget with an npy of
  // 64x64 floats (16 KB) is refused, and the graph is named among the outputs.
  const ProcessResult budget = with({"--out", "b.npy", "--graph", "g.graphml", "--output-budget", "3KB"});
  EXPECT_EQ(budget.exit_code, 2) << budget.err;
  EXPECT_NE(budget.err.find("--graph g.graphml (its framing"), std::string::npos) << budget.err;
  EXPECT_FALSE(fs::exists(dir / "a.png") || fs::exists(dir / "b.npy") || fs::exists(dir / "x.json") ||
               fs::exists(dir / "g.graphml"));
  // The window's size at the preset's density takes a graph under the default budget.
  const ProcessResult large = run_physarum({"render", "--steps", "0", "--size", "1920x1080", "--agents",
                                            "100", "--out", "c.npy", "--graph", "c.graphml", "-q"},
                                           dir, {{"EGL_PLATFORM", "surfaceless"}}, {});
  EXPECT_EQ(large.exit_code, 0) << large.err;
  EXPECT_TRUE(fs::exists(dir / "c.graphml"));
}

// The graph's nodes and edges follow from the grown network, so they meet the budget once measured:
// a lattice of one-cell lines every other cell (120x120: about 3,600 junctions and 7,200 edges, more
// than 2 MB of GraphML at the writer's bound) passes the check before the run under 1 MB and is
// refused once measured, naming its nodes and edges; no graph is written.
TEST(NetworkCli, AGraphAboveTheBudgetOnceMeasuredIsNotWritten) {
  const fs::path dir = temp_dir();
  const int side = 120;
  std::vector<float> f(static_cast<size_t>(side) * side, 0.0f);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      if (x % 2 == 0 || y % 2 == 0) f[static_cast<size_t>(y) * side + x] = 1.0f;
  write_npy(dir / "lattice.npy", f.data(), side, side);
  const auto graph = [&](const std::string& budget) {
    return run_physarum({"export", "--field", (dir / "lattice.npy").string(), "--graph", "g.graphml", "--out",
                         "m.png", "--output-budget", budget},
                        dir);
  };
  const ProcessResult refused = graph("1MB");
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("--graph g.graphml (the measured network's "), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find(" nodes and "), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "g.graphml"));
  const ProcessResult written = graph("2GB");
  EXPECT_EQ(written.exit_code, 0) << written.err;
  EXPECT_TRUE(fs::exists(dir / "g.graphml"));
}

}  // namespace
}  // namespace physarum::test

namespace physarum::test {
namespace {

namespace fs = std::filesystem;

// export --graph on a field read from .npy: a # of lines three cells wide (a quarter of the cells,
// so the report's top 15% lies on them) cuts into four junctions where the lines cross, joined
// round the middle square by four edges 30 and 16 cells long, and spurs out to the border.
TEST(NetworkCli, ExportGraphOfAHashHasFourJunctionsRoundASquare) {
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 is not installed";
  const fs::path dir = temp_dir();
  const int w = 60, h = 40;
  std::vector<float> f(static_cast<size_t>(w) * h, 0.0f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (std::abs(x - 15) <= 1 || std::abs(x - 45) <= 1 || std::abs(y - 12) <= 1 || std::abs(y - 28) <= 1)
        f[static_cast<size_t>(y) * w + x] = 1.0f;
  write_npy(dir / "hash.npy", f.data(), h, w);
  const ProcessResult r = run_physarum(
      {"export", "--field", (dir / "hash.npy").string(), "--graph", "g.json", "--out", "m.png"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote g.json"), std::string::npos) << r.out;
  const ProcessResult p = python(R"(
import json, sys
g = json.load(open(sys.argv[1]))
assert g["directed"] is False and g["multigraph"] is True and g["graph"]["towns"] == 0, g["graph"]
kind = {n["id"]: n["kind"] for n in g["nodes"]}
junctions = sorted((round(n["x"]), round(n["y"])) for n in g["nodes"] if n["kind"] == "junction")
print(len(junctions), " ".join("%d,%d" % j for j in junctions))
for l in g["links"]:
    if kind[l["source"]] == "junction" and kind[l["target"]] == "junction":
        print("%.3f" % l["length"], l["level"])
)",
                                 {(dir / "g.json").string()}, dir);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  std::istringstream in(p.out);
  int junctions = 0;
  std::string where;
  in >> junctions;
  std::getline(in, where);
  EXPECT_EQ(junctions, 4) << p.out;
  EXPECT_EQ(where, " 15,12 15,28 45,12 45,28") << p.out;
  std::vector<double> lengths;
  double length = 0, level = 0;
  while (in >> length >> level) {
    lengths.push_back(length);
    EXPECT_DOUBLE_EQ(level, 1.0);
  }
  std::sort(lengths.begin(), lengths.end());
  ASSERT_EQ(lengths.size(), 4u) << p.out;
  EXPECT_NEAR(lengths[0], 16, 2);
  EXPECT_NEAR(lengths[1], 16, 2);
  EXPECT_NEAR(lengths[2], 30, 2);
  EXPECT_NEAR(lengths[3], 30, 2);
}

}  // namespace
}  // namespace physarum::test
