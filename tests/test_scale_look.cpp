// The look of detail K, measured, not eyeballed (docs/MODEL.md, "Size, density and scale"): three
// presets grown at K = 1, 2 and 4, each K x K block of a detail-K field averaged down to detail 1's
// size, compared by the wavelength of the network's pattern (from its radially averaged power
// spectrum, a plain DFT here in double precision) and by the network report of app/analysis
// (network length per area, towns reached and linked).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "analysis/environment_maps.hpp"
#include "analysis/network.hpp"
#include "backends.hpp"
#include "run/run.hpp"
#include "sim/backend.hpp"
#include "sim/spawn.hpp"

namespace physarum {
namespace {

namespace analysis = app::analysis;

std::string preset_file(const char* name) {
  return (std::filesystem::path(PHYSARUM_SOURCE_DIR) / "assets" / "presets" / (std::string(name) + ".toml"))
      .string();
}

// --- Scale: the look, measured --------------------------------------------------------------------

// The sum of the channels of a run's field (S planes), as the report reads it.
std::vector<double> channel_sum(run::Run& r) {
  std::vector<float> f;
  r.backend().read_field(f);
  const Size s = r.backend().size();
  const size_t n = static_cast<size_t>(s.width) * static_cast<size_t>(s.height);
  std::vector<double> out(n, 0.0);
  for (size_t c = 0; c < f.size() / n; ++c)
    for (size_t i = 0; i < n; ++i) out[i] += f[c * n + i];
  return out;
}

// Each k x k block averaged: a field of detail k at detail 1's size.
std::vector<double> downsample(const std::vector<double>& f, Size base, int k) {
  std::vector<double> out(static_cast<size_t>(base.width) * static_cast<size_t>(base.height), 0.0);
  const int w = base.width * k;
  for (int y = 0; y < base.height * k; ++y)
    for (int x = 0; x < w; ++x)
      out[static_cast<size_t>(y / k * base.width + x / k)] += f[static_cast<size_t>(y * w + x)];
  for (double& v : out) v /= static_cast<double>(k * k);
  return out;
}

// The 1D DFT (a plain sum over a table of the n-th roots of unity) of each row, then of each
// column: |F(u, v)|^2 of the mean-removed field.
std::vector<double> power_spectrum(const std::vector<double>& f, Size s) {
  const int w = s.width;
  const int h = s.height;
  double mean = 0;
  for (double v : f) mean += v;
  mean /= static_cast<double>(f.size());
  std::vector<std::complex<double>> a(f.size());
  for (size_t i = 0; i < f.size(); ++i) a[i] = f[i] - mean;
  const auto dft = [](std::vector<std::complex<double>>& line) {
    const size_t n = line.size();
    std::vector<std::complex<double>> roots(n);
    for (size_t j = 0; j < n; ++j)
      roots[j] = std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(j) / n);
    std::vector<std::complex<double>> out(n);
    for (size_t u = 0; u < n; ++u) {
      std::complex<double> acc = 0;
      for (size_t x = 0; x < n; ++x) acc += line[x] * roots[u * x % n];
      out[u] = acc;
    }
    line = out;
  };
  std::vector<std::complex<double>> line;
  for (int y = 0; y < h; ++y) {
    line.assign(a.begin() + y * w, a.begin() + (y + 1) * w);
    dft(line);
    std::copy(line.begin(), line.end(), a.begin() + y * w);
  }
  for (int x = 0; x < w; ++x) {
    line.resize(static_cast<size_t>(h));
    for (int y = 0; y < h; ++y) line[static_cast<size_t>(y)] = a[static_cast<size_t>(y * w + x)];
    dft(line);
    for (int y = 0; y < h; ++y) a[static_cast<size_t>(y * w + x)] = line[static_cast<size_t>(y)];
  }
  std::vector<double> p(a.size());
  for (size_t i = 0; i < a.size(); ++i) p[i] = std::norm(a[i]);
  return p;
}

// The radially averaged power of `f`: frequencies binned by |f| = sqrt((u/W)^2 + (v/H)^2) cycles per
// cell in bins of 1/max(W, H) (bin b is b/max(W, H) cycles per cell).
std::vector<double> radial_power(const std::vector<double>& f, Size s) {
  const std::vector<double> p = power_spectrum(f, s);
  const double df = 1.0 / std::max(s.width, s.height);
  const auto bins = static_cast<size_t>(0.5 * std::sqrt(2.0) / df) + 2;
  std::vector<double> sum(bins, 0.0);
  std::vector<int> count(bins, 0);
  for (int v = 0; v < s.height; ++v) {
    for (int u = 0; u < s.width; ++u) {
      const double fu = static_cast<double>(u <= s.width / 2 ? u : u - s.width) / s.width;
      const double fv = static_cast<double>(v <= s.height / 2 ? v : v - s.height) / s.height;
      const auto bin = static_cast<size_t>(std::lround(std::hypot(fu, fv) / df));
      sum[bin] += p[static_cast<size_t>(v * s.width + u)];
      ++count[bin];
    }
  }
  for (size_t i = 0; i < bins; ++i) sum[i] = count[i] > 0 ? sum[i] / count[i] : 0.0;
  return sum;
}

// The first two bins (the box itself, a wavelength of max(W, H) / 2 and more) say nothing of the
// pattern and are left out of both measures.
constexpr size_t kFirstBin = 2;

// The wavelength in cells at the peak of the radial power.
double peak_wavelength(const std::vector<double>& radial, Size s) {
  size_t peak = kFirstBin;
  for (size_t i = kFirstBin; i < radial.size(); ++i)
    if (radial[i] > radial[peak]) peak = i;
  return static_cast<double>(std::max(s.width, s.height)) / static_cast<double>(peak);
}

// The pattern's wavelength in cells from the mean frequency of the radial power,
// 1 / (sum f P(f) / sum P(f)), as the characteristic length of a coarsening pattern is measured:
// the networks here have red spectra (the most power at the largest scales the box allows), so
// the peak sits on the box and jumps between neighbouring bins from run to run, while the mean
// takes in the whole spectrum.
double mean_wavelength(const std::vector<double>& radial, Size s) {
  double power = 0;
  double moment = 0;
  for (size_t i = kFirstBin; i < radial.size(); ++i) {
    power += radial[i];
    moment += radial[i] * static_cast<double>(i);
  }
  return static_cast<double>(std::max(s.width, s.height)) * power / moment;
}

// The network's cells as the report finds them (the same share of the open cells), 1 and 0: the
// spectrum of the network's shape, not of how bright each trail happens to be.
std::vector<double> network_cells(const analysis::Grid& g, const analysis::Mask* walls) {
  const analysis::NetworkOptions defaults;
  const analysis::Mask m =
      analysis::network_mask(g, walls, analysis::threshold_for_fraction(g, walls, defaults.fraction));
  return std::vector<double>(m.cells.begin(), m.cells.end());
}

struct Look {
  double wavelength = 0;       // mean_wavelength of the network's cells
  double peak_wavelength = 0;  // told, not compared
  double length_per_area = 0;  // network length (cells of detail 1) per cell
  int towns_on_network = 0;
  bool towns_connected = false;
};

// The preset grown at `base` x K for `steps`, at its density, measured at `base`; the food and
// walls of detail 1's run (the maps at the base size) serve every K.
Look look_of(const char* preset, Size base, int k, int steps, analysis::EnvironmentMaps* maps) {
  run::Recipe r;
  r.preset = preset_file(preset);
  r.size = format_size(base);
  r.scale = k;
  r.backend = "cpu";
  run::Run sim(r);
  sim.step(static_cast<uint64_t>(steps));
  if (k == 1) {
    std::vector<float> food;
    std::vector<uint8_t> walls;
    sim.backend().read_food(food);
    sim.backend().read_walls(walls);
    *maps = analysis::environment_maps(base, food, walls);
  }
  const std::vector<double> f = downsample(channel_sum(sim), base, k);
  analysis::Grid g{base.width, base.height, std::vector<float>(f.begin(), f.end())};
  const analysis::Mask* walls = maps->walls ? &*maps->walls : nullptr;
  const std::vector<double> radial = radial_power(network_cells(g, walls), base);
  Look l;
  l.wavelength = mean_wavelength(radial, base);
  l.peak_wavelength = peak_wavelength(radial, base);
  // The network as `render --scale K --report` measures it: on detail K's own field and maps, its
  // lengths in cells of detail K, so divided by K.
  std::vector<float> planes, food;
  std::vector<uint8_t> own_walls;
  sim.backend().read_field(planes);
  sim.backend().read_food(food);
  sim.backend().read_walls(own_walls);
  const analysis::NetworkReport rep =
      analysis::analyse_run_field(sim.backend().size(), planes, food, own_walls, analysis::NetworkOptions{});
  l.length_per_area = rep.network_length / k / (static_cast<double>(base.width) * base.height);
  l.towns_on_network = rep.towns_on_network;
  l.towns_connected = rep.towns_connected;
  return l;
}

// How far detail K may stray from detail 1, as a ratio, and whether the towns must stay linked.
struct Tolerance {
  double wavelength = 0.10;
  double length = 0.10;
  bool linked_alike = true;
};

void expect_same_look(const char* preset, Size base, int steps, Tolerance tol = {},
                      std::initializer_list<int> ks = {2, 4}) {
  analysis::EnvironmentMaps maps;
  const Look one = look_of(preset, base, 1, steps, &maps);
  for (int k : ks) {
    const Look at = look_of(preset, base, k, steps, &maps);
    std::printf(
        "%s K=%d: wavelength %.2f (K=1 %.2f; peak %.0f, %.0f), length/area %.4f (%.4f), towns on "
        "network %d (%d), linked %d (%d)\n",
        preset, k, at.wavelength, one.wavelength, at.peak_wavelength, one.peak_wavelength, at.length_per_area,
        one.length_per_area, at.towns_on_network, one.towns_on_network, at.towns_connected,
        one.towns_connected);
    EXPECT_NEAR(at.wavelength / one.wavelength, 1.0, tol.wavelength) << preset << " K=" << k;
    EXPECT_NEAR(at.length_per_area / one.length_per_area, 1.0, tol.length) << preset << " K=" << k;
    EXPECT_NEAR(at.towns_on_network, one.towns_on_network, 0.10 * one.towns_on_network)
        << preset << " K=" << k;
    if (tol.linked_alike) {
      EXPECT_EQ(at.towns_connected, one.towns_connected) << preset << " K=" << k;
    }
  }
}

// jones-2010 and territories are made at 1920x1080: from a base of 480x270, K = 4 is the preset's
// own field and agents, and K = 1 still holds some 16 x 9 of its cells after 200 steps (fewer, and
// one run's spectrum is mostly the luck of its few cells: at 320x180 K = 2 strayed 18% in length).
TEST(ScaleLook, Jones2010) {
  expect_same_look("jones-2010", {480, 270}, 200);
}

TEST(ScaleLook, Territories) {
  expect_same_look("territories", {480, 270}, 200);
}

// towns from 240x135 (its density: 3,750 agents) after 1500 steps, the network measured as
// `render --scale K --report` measures it: within 10% at K = 2 and 4 (wavelength 20.8 and 23.3
// against 22.1 cells, 0.0375 and 0.0346 against 0.0360 cells of network per cell, all towns linked).
// Before the agents sensed K x K blocks (docs/MODEL.md, "Scale"), K = 4 strayed 18% in wavelength
// and did not link every town.
TEST(ScaleLook, Towns) {
  expect_same_look("towns", {240, 135}, 1500);
}

}  // namespace
}  // namespace physarum
