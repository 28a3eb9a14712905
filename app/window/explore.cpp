#include "window/explore.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <variant>

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

bool locked(const ExploreLocks& locks, const registry::Param& p) {
  return locks.count(lock_name(p)) != 0;
}

// Every model parameter with an Explore range in the registry, drawn from it (log-uniformly where
// the registry says so); a choice uniformly among its choices. Locked keys keep `base`'s values.
ModelParams draw_model(Draws& d, const ModelParams& base, const ExploreLocks& locks) {
  ModelParams m = base;
  for (const registry::Param* p : explored_params()) {
    if (p->section != registry::Section::Model) continue;
    Value v;
    if (p->type == registry::Type::Choice) {
      const auto choices = registry::choice_list(*p);
      const auto i =
          std::min(static_cast<size_t>(d.unit() * static_cast<double>(choices.size())), choices.size() - 1);
      v = std::string(choices[i]);
    } else {
      v = p->explore_log ? d.log_uniform(p->explore_lo, p->explore_hi)
                         : d.uniform(p->explore_lo, p->explore_hi);
    }
    if (!locked(locks, *p)) p->put(&m, v);
  }
  validate(m);
  return m;
}

// Two draws a key whether it is locked or not, so the stream does not depend on the locks.
ModelParams mutate_model(Draws& d, const ModelParams& base, double amount, const ExploreLocks& locks) {
  ModelParams m = base;
  for (const registry::Param* p : explored_params()) {
    if (p->section != registry::Section::Model) continue;
    const double move = d.unit(), pick = d.unit();
    if (locked(locks, *p)) continue;
    if (p->type == registry::Type::Choice) {
      if (move >= amount / 2) continue;
      const auto choices = registry::choice_list(*p);
      if (choices.size() < 2) continue;
      const auto now = std::find(choices.begin(), choices.end(), std::get<std::string>(p->get(&m)));
      const auto n = choices.size();
      const auto at = static_cast<size_t>(now - choices.begin());
      const auto other = std::min(static_cast<size_t>(pick * static_cast<double>(n - 1)), n - 2);
      p->put(&m, std::string(choices[(at + 1 + other) % n]));
    } else if (p->type == registry::Type::Float) {
      const double v = std::get<float>(p->get(&m));
      const double moved = v + amount * (p->explore_hi - p->explore_lo) * (2 * move - 1);
      p->put(&m, static_cast<float>(std::clamp(moved, p->lo, p->hi)));
    }
  }
  validate(m);
  return m;
}

const registry::Param& matrix_param() {
  return *registry::find(registry::Section::Interaction, "matrix");
}

}  // namespace

std::vector<const registry::Param*> explored_params() {
  std::vector<const registry::Param*> out;
  for (const registry::Param& p : registry::params()) {
    if (p.explore_hi > p.explore_lo) out.push_back(&p);
  }
  return out;
}

std::string lock_name(const registry::Param& p) {
  return std::string(registry::section_name(p.section)) + "." + std::string(p.name);
}

Preset explore_draw(const Preset& base, uint64_t seed, const std::vector<std::string>& palettes,
                    const ExploreLocks& locks) {
  Draws d(seed);
  Preset p = base;
  p.keyframes.clear();
  if (p.species.list.empty()) {
    p.model = draw_model(d, p.model, locks);
  } else {
    for (Species& s : p.species.list) s.model = draw_model(d, s.model, locks);
    const size_t n = p.species.list.size();
    const registry::Param& w = matrix_param();  // off the diagonal
    const bool keep = locked(locks, w);
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c) {
        const float drawn = r == c ? 1.0f : d.uniform(w.explore_lo, w.explore_hi);
        if (!keep) p.species.interaction[r * n + c] = drawn;
      }
    }
  }
  if (!palettes.empty()) {
    const auto i = static_cast<size_t>(d.unit() * static_cast<double>(palettes.size()));
    p.display.palette = palettes[std::min(i, palettes.size() - 1)];
  }
  validate(p);
  return p;
}

Preset explore_mutate(const Preset& base, double amount, uint64_t seed, const ExploreLocks& locks) {
  if (!(amount >= 0 && amount <= 1)) {
    std::ostringstream text;
    text << "mutate amount " << amount << " is outside 0 to 1";
    throw Error(text.str());
  }
  Draws d(seed);
  Preset p = base;
  if (p.species.list.empty()) {
    p.model = mutate_model(d, p.model, amount, locks);
  } else {
    for (Species& s : p.species.list) s.model = mutate_model(d, s.model, amount, locks);
    const size_t n = p.species.list.size();
    const registry::Param& w = matrix_param();
    const bool keep = locked(locks, w);
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c) {
        if (r == c) continue;
        const double move = d.unit();
        float& e = p.species.interaction[r * n + c];
        const double moved = e + amount * (w.explore_hi - w.explore_lo) * (2 * move - 1);
        if (!keep) e = static_cast<float>(std::clamp(moved, w.lo, w.hi));
      }
    }
  }
  validate(p);
  return p;
}

}  // namespace physarum::app
