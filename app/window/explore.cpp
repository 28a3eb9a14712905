#include "window/explore.hpp"

#include <algorithm>
#include <cmath>

namespace physarum::app {
namespace {

// splitmix64: a counter-based stream, the same everywhere.
class Draws {
 public:
  explicit Draws(uint64_t seed) : state_(seed) {}
  // Uniform in [0, 1) with 53 bits.
  double unit() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }
  float uniform(double lo, double hi) { return static_cast<float>(lo + (hi - lo) * unit()); }
  float log_uniform(double lo, double hi) {
    return static_cast<float>(std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * unit()));
  }

 private:
  uint64_t state_;
};

ModelParams draw_model(Draws& d) {
  ModelParams m;
  m.sensor_angle_deg = d.uniform(10, 70);
  m.rotation_angle_deg = std::min(120.0f, m.sensor_angle_deg * d.uniform(0.4, 1.6));
  m.sensor_distance = d.log_uniform(4, 30);
  m.step_size = std::min(d.uniform(0.5, 2.5), m.sensor_distance * 0.5f);
  m.decay = d.log_uniform(0.003, 0.1);
  m.diffuse = d.uniform(0.05, 0.6);
  m.deposit = d.log_uniform(0.5, 4);
  m.jitter = d.unit() < 0.5 ? 0.0f : d.uniform(0, 0.4);
  m.turn_rule = d.unit() < 0.25 ? TurnRule::Jones : TurnRule::Simple;
  validate(m);
  return m;
}

}  // namespace

Preset explore_draw(const Preset& base, uint64_t seed, const std::vector<std::string>& palettes) {
  Draws d(seed);
  Preset p = base;
  p.keyframes.clear();
  if (p.species.list.empty()) {
    p.model = draw_model(d);
  } else {
    for (Species& s : p.species.list) s.model = draw_model(d);
    const size_t n = p.species.list.size();
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c) p.species.interaction[r * n + c] = r == c ? 1.0f : d.uniform(-1, 0.5);
    }
  }
  if (!palettes.empty()) {
    const auto i = static_cast<size_t>(d.unit() * static_cast<double>(palettes.size()));
    p.display.palette = palettes[std::min(i, palettes.size() - 1)];
  }
  validate(p);
  return p;
}

}  // namespace physarum::app
