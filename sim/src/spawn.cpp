#include "sim/spawn.hpp"

#include <algorithm>
#include <cmath>

namespace physarum {
namespace {

using rule::add;
using rule::mul;

// Three uniforms per agent, independent streams of the counter-based hash (step slot = 0 or 1).
float u(uint32_t seed, uint32_t id, uint32_t stream, uint32_t slot = 0) {
  return rule::unit(rule::hash(seed, id, slot, stream));
}

AgentState allocate(uint64_t count) {
  AgentState a;
  a.x.resize(count);
  a.y.resize(count);
  a.theta.resize(count);
  a.id.resize(count);
  return a;
}

// Spawns every agent with the mode mode_of(id) (one mode for one species, the agent's species'
// mode for several).
template <class ModeOf>
AgentState spawn_with(ModeOf mode_of, Size size, uint64_t count, uint32_t seed) {
  if (size.width < 1 || size.height < 1) throw Error("spawn: empty field");
  AgentState a = allocate(count);
  const float w = static_cast<float>(size.width);
  const float h = static_cast<float>(size.height);
  const float iw = 1.0f / w;
  const float ih = 1.0f / h;
  const float cx = mul(w, 0.5f);
  const float cy = mul(h, 0.5f);
  const float short_side = std::min(w, h);
  const auto n = static_cast<int64_t>(count);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const auto id = static_cast<uint32_t>(i);
    const float ua = u(seed, id, rule::kStreamSpawnA);
    const float ub = u(seed, id, rule::kStreamSpawnB);
    const float uc = u(seed, id, rule::kStreamSpawnC);
    float x = 0;
    float y = 0;
    float theta = mul(uc, rule::kTwoPi);
    switch (mode_of(id)) {
      case SpawnMode::Random:
        x = mul(ua, w);
        y = mul(ub, h);
        break;
      case SpawnMode::Disc: {
        const float r = mul(mul(short_side, 0.3f), std::sqrt(ua));
        const rule::SinCos d = rule::sin_cos(mul(ub, rule::kTwoPi));
        x = add(cx, mul(r, d.c));
        y = add(cy, mul(r, d.s));
        break;
      }
      case SpawnMode::Ring: {
        // A thin ring, every agent facing the centre.
        const float r = mul(mul(short_side, 0.4f), rule::sub(1.0f, mul(ub, 0.05f)));
        const float phi = mul(ua, rule::kTwoPi);
        const rule::SinCos d = rule::sin_cos(phi);
        x = add(cx, mul(r, d.c));
        y = add(cy, mul(r, d.s));
        theta = add(phi, rule::kPi);
        break;
      }
      case SpawnMode::Point:
        x = cx;
        y = cy;
        break;
    }
    a.x[i] = rule::wrap(x, w, iw);
    a.y[i] = rule::wrap(y, h, ih);
    a.theta[i] = rule::wrap(theta, rule::kTwoPi, rule::kInvTwoPi);
    a.id[i] = id;
  }
  return a;
}

}  // namespace

AgentState spawn_agents(SpawnMode mode, Size size, uint64_t count, uint32_t seed) {
  return spawn_with([mode](uint32_t) { return mode; }, size, count, seed);
}

AgentState spawn_species(const SpeciesSet& resolved, Size size, uint64_t count, uint32_t seed) {
  if (resolved.list.size() == 1) return spawn_agents(resolved.list[0].spawn, size, count, seed);
  const rule::SpeciesParams sp = make_species_params(resolved, size, seed, count);
  SpawnMode modes[kMaxSpecies] = {};
  for (size_t s = 0; s < resolved.list.size(); ++s) modes[s] = resolved.list[s].spawn;
  return spawn_with([&](uint32_t id) { return modes[rule::species_of<kMaxSpecies>(id, sp)]; }, size, count,
                    seed);
}

AgentState spawn_from_image(const std::vector<float>& brightness, Size size, uint64_t count, uint32_t seed) {
  const size_t cells = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  if (brightness.size() != cells) throw Error("spawn_from_image: image does not match the field size");
  // Cumulative brightness in double so the distribution is faithful for large fields.
  std::vector<double> cdf(cells);
  double total = 0;
  for (size_t i = 0; i < cells; ++i) {
    const float b = brightness[i];
    total += (std::isfinite(b) && b > 0) ? b : 0.0;
    cdf[i] = total;
  }
  if (!(total > 0)) return spawn_agents(SpawnMode::Random, size, count, seed);
  AgentState a = allocate(count);
  const float w = static_cast<float>(size.width);
  const float h = static_cast<float>(size.height);
  const auto n = static_cast<int64_t>(count);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const auto id = static_cast<uint32_t>(i);
    const double pick = static_cast<double>(u(seed, id, rule::kStreamSpawnA)) * total;
    const size_t cell = std::min<size_t>(
        static_cast<size_t>(std::upper_bound(cdf.begin(), cdf.end(), pick) - cdf.begin()), cells - 1);
    const float cx = static_cast<float>(cell % static_cast<size_t>(size.width));
    const float cy = static_cast<float>(cell / static_cast<size_t>(size.width));
    a.x[i] = rule::wrap(add(cx, u(seed, id, rule::kStreamSpawnB)), w, 1.0f / w);
    a.y[i] = rule::wrap(add(cy, u(seed, id, rule::kStreamSpawnB, 1)), h, 1.0f / h);
    a.theta[i] = mul(u(seed, id, rule::kStreamSpawnC), rule::kTwoPi);
    a.id[i] = id;
  }
  return a;
}

}  // namespace physarum
