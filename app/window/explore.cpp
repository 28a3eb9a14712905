#include "window/explore.hpp"

#include <algorithm>
#include <cmath>

#include "sim/registry.hpp"

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

// Every model parameter with an Explore range in the registry, drawn from it (log-uniformly where
// the registry says so); a choice uniformly among its choices.
ModelParams draw_model(Draws& d, const ModelParams& base) {
  ModelParams m = base;
  for (const registry::Param& p : registry::params()) {
    if (p.section != registry::Section::Model || !(p.explore_hi > p.explore_lo)) continue;
    if (p.type == registry::Type::Choice) {
      const auto choices = registry::choice_list(p);
      const auto i =
          std::min(static_cast<size_t>(d.unit() * static_cast<double>(choices.size())), choices.size() - 1);
      p.put(&m, std::string(choices[i]));
    } else {
      p.put(&m, p.explore_log ? d.log_uniform(p.explore_lo, p.explore_hi)
                              : d.uniform(p.explore_lo, p.explore_hi));
    }
  }
  validate(m);
  return m;
}

}  // namespace

Preset explore_draw(const Preset& base, uint64_t seed, const std::vector<std::string>& palettes) {
  Draws d(seed);
  Preset p = base;
  p.keyframes.clear();
  if (p.species.list.empty()) {
    p.model = draw_model(d, p.model);
  } else {
    for (Species& s : p.species.list) s.model = draw_model(d, s.model);
    const size_t n = p.species.list.size();
    const registry::Param& w = *registry::find(registry::Section::Interaction, "matrix");  // off the diagonal
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c)
        p.species.interaction[r * n + c] = r == c ? 1.0f : d.uniform(w.explore_lo, w.explore_hi);
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
