// The volume model's set-up shared by its backends (docs/MODEL.md, "Volume"): sizes, the step's
// parameters, the checks of a field or agents handed in, the spawn, and the choice of backend.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ieee_subnormals.hpp"
#include "sim/text.hpp"
#include "sim/volume.hpp"
#include "volumes.hpp"

namespace physarum {
namespace {

using cpu::IeeeSubnormals;

float angle_cos(float deg) {
  return rule::sin_cos(deg * (rule::kPi / 180.0f)).c;
}
float angle_sin(float deg) {
  return rule::sin_cos(deg * (rule::kPi / 180.0f)).s;
}

}  // namespace

size_t voxels_of(Size s) {
  return static_cast<size_t>(s.width) * static_cast<size_t>(s.height) * static_cast<size_t>(s.depth);
}

namespace {

// One species' step constants (docs/MODEL.md, "Volume", "Parameters").
rule3::Params3 params3_of(const ModelParams& m, const VolumeConfig& c) {
  validate(m);
  const Size s = c.size;
  rule3::Params3 p{};
  p.width = s.width;
  p.height = s.height;
  p.depth = s.depth;
  p.ring = m.ring;
  p.rule = turn_rule_code(m.turn_rule);
  p.fwidth = static_cast<float>(s.width);
  p.fheight = static_cast<float>(s.height);
  p.fdepth = static_cast<float>(s.depth);
  p.inv_width = 1.0f / p.fwidth;
  p.inv_height = 1.0f / p.fheight;
  p.inv_depth = 1.0f / p.fdepth;
  p.inv_ring = 1.0f / static_cast<float>(m.ring);
  p.sensor_distance = m.sensor_distance;
  p.cos_sa = angle_cos(m.sensor_angle_deg);
  p.sin_sa = angle_sin(m.sensor_angle_deg);
  p.cos_ra = angle_cos(m.rotation_angle_deg);
  p.sin_ra = angle_sin(m.rotation_angle_deg);
  p.step_size = m.step_size;
  p.seed = c.seed;
  p.deposit = m.deposit;
  p.keep = 1.0f - m.decay;
  p.self_w = 1.0f - m.diffuse;
  p.neighbour_w = m.diffuse / 27.0f;
  p.sharpness = m.sharpness;
  p.trace_keep = 1.0f - m.trace_decay;
  return p;
}

void check_volume_config(const VolumeConfig& c) {
  const Size s = c.size;
  if (s.width < 1 || s.height < 1 || s.depth < 1 || s.width > kMaxSide || s.height > kMaxSide ||
      s.depth > kMaxSide || voxels_of(s) >= (size_t{1} << 31)) {
    throw Error("size " + format_size(s) + " is out of range: each side 1 to " + std::to_string(kMaxSide) +
                ", fewer than 2^31 voxels in all");
  }
  if (c.boundary == Boundary::Walls && (s.width < 3 || s.height < 3 || s.depth < 3)) {
    throw Error("boundary = walls on " + format_size(s) +
                ": the closed box's shell leaves no voxel free (each side must be at least 3)");
  }
  if (c.agents < 1 || c.agents > kMaxAgents) {
    throw Error("agents = " + std::to_string(c.agents) + " is out of range: 1 to " +
                std::to_string(kMaxAgents));
  }
  if (c.threads < 0 || c.threads > kMaxThreads) {
    throw Error("threads = " + std::to_string(c.threads) + " is out of range: allowed 0 (all) to " +
                std::to_string(kMaxThreads));
  }
}

}  // namespace

rule3::Species3 make_species3(const VolumeConfig& c) {
  validate(c.model);
  check_volume_config(c);
  const SpeciesSet set = resolve_species(c.species, c.model, SpawnMode::Random);
  // The shares' ends and the matrix as the plane derives them (its step constants are not used).
  // The plane refuses mcpm; a plane's constants of the same set without it give the same ends.
  SpeciesSet plane_set = set;
  for (Species& s : plane_set.list) s.model.turn_rule = TurnRule::Simple;
  const rule::SpeciesParams plane = make_species_params(plane_set, c.size, c.seed, c.agents);
  const size_t n = set.list.size();
  rule3::Species3 sp{};
  sp.count = static_cast<int>(n);
  sp.plain = is_single_plain(set);
  for (size_t s = 0; s < n; ++s) {
    if (set.list[s].spawn != SpawnMode::Random) {
      throw Error("species." + std::to_string(s) + ".spawn = " + std::string(to_string(set.list[s].spawn)) +
                  ": a volume spawns its agents uniformly (random) only");
    }
  }
  for (size_t s = 0; s < static_cast<size_t>(rule3::kMaxSpecies); ++s) {
    sp.end[s] = plane.end[s];
    for (size_t t = 0; t < static_cast<size_t>(rule3::kMaxSpecies); ++t) sp.w[s][t] = plane.w[s][t];
    sp.p[s] = params3_of(set.list[std::min(s, n - 1)].model, c);
  }
  return sp;
}

rule3::Params3 make_params3(const VolumeConfig& c) {
  return make_species3(c).p[0];
}

Volume::Volume(const VolumeConfig& c)
    : World(c.size, c.agents),
      sp_(make_species3(c)),
      p_(sp_.p[0]),
      boundary_(c.boundary),
      mcpm_(rule3::keeps_trace(sp_)),
      species_set_(resolve_species(c.species, c.model, SpawnMode::Random)) {
  const SpeciesSet& set = species_set_;
  for (size_t s = 0; s < set.list.size(); ++s) species_food_[s] = set.list[s].food_strength;
  for (int s = 0; s < rule3::kMaxSpecies; ++s) food_k_[s] = species_food_[s].value_or(food_strength_);
}

void Volume::set_field(const std::vector<float>& values) {
  const size_t voxels = voxels_of(size_);
  const auto channels = static_cast<size_t>(sp_.count);
  if (values.size() != voxels && values.size() != voxels * channels) {
    throw Error("a field of " + std::to_string(values.size()) + " values for a volume of " +
                format_size(size_) + " (" + std::to_string(voxels) + " voxels" +
                (channels > 1 ? ", or " + std::to_string(voxels * channels) + " for its " +
                                    std::to_string(channels) + " species' channels)"
                              : ")"));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || std::fabs(values[i]) > 1e30f)
      throw Error("field value " + std::to_string(values[i]) + " at index " + std::to_string(i) +
                  " is not a finite number of at most 1e30");
  }
  std::vector<float> all(voxels * channels);
  for (size_t c = 0; c < channels; ++c)
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(values.size() == voxels ? 0 : c * voxels),
                voxels, all.begin() + static_cast<std::ptrdiff_t>(c * voxels));
  for (size_t c = 0; c < channels; ++c)
    for (const uint32_t v : wall_list_) all[c * voxels + v] = 0.0f;
  upload_field(all);
}

void Volume::read_trace(std::vector<float>& out) {
  if (!has_trace()) throw Error("this volume has no trace: only turn_rule = \"mcpm\" keeps one");
  download_trace(out);
}

void Volume::set_agents(const Agents3& a) {
  const size_t n = agents_;
  for (const auto* v : {&a.x, &a.y, &a.z, &a.hx, &a.hy, &a.hz}) {
    if (v->size() != n)
      throw Error("agents: " + std::to_string(v->size()) + " values for " + std::to_string(n) + " agents");
  }
  for (size_t i = 0; i < n; ++i) {
    const bool inside = a.x[i] >= 0 && a.x[i] < p_.fwidth && a.y[i] >= 0 && a.y[i] < p_.fheight &&
                        a.z[i] >= 0 && a.z[i] < p_.fdepth;
    const double len =
        std::sqrt(double{a.hx[i]} * a.hx[i] + double{a.hy[i]} * a.hy[i] + double{a.hz[i]} * a.hz[i]);
    if (!inside || !(std::fabs(len - 1.0) <= 1e-3))
      throw Error("agent " + std::to_string(i) + ": its position must lie inside " + format_size(size_) +
                  " and its heading have length 1");
  }
  Agents3 placed = a;
  move_out_of_walls(placed);
  upload_agents(placed);
}

void Volume::set_walls(const std::vector<uint8_t>& walls) {
  const size_t voxels = voxels_of(size_);
  if (!walls.empty() && walls.size() != voxels) {
    throw Error("walls: " + std::to_string(walls.size()) + " values for a volume of " + format_size(size_) +
                " (" + std::to_string(voxels) + " voxels, (D, H, W))");
  }
  std::vector<uint8_t> all(voxels, 0);
  bool any = false;
  size_t free = 0;
  const int w = size_.width;
  const int h = size_.height;
  const int d = size_.depth;
  size_t v = 0;
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x, ++v) {
        const bool shell = boundary_ == Boundary::Walls &&
                           (x == 0 || x == w - 1 || y == 0 || y == h - 1 || z == 0 || z == d - 1);
        all[v] = (shell || (!walls.empty() && walls[v] != 0)) ? 1 : 0;
        any = any || all[v] != 0;
        free += all[v] == 0 ? 1 : 0;
      }
  if (free == 0)
    throw Error("walls: every voxel of " + format_size(size_) +
                " would be a wall; at least one must be free");
  if (!any) all.clear();
  apply_walls(std::move(all));
}

void Volume::apply_walls(std::vector<uint8_t> walls) {
  walls_ = std::move(walls);
  wall_list_.clear();
  for (size_t v = 0; v < walls_.size(); ++v)
    if (walls_[v] != 0) wall_list_.push_back(static_cast<uint32_t>(v));
  upload_walls();
  if (!wall_list_.empty()) {
    std::vector<float> f;
    read_field(f);
    const size_t voxels = voxels_of(size_);
    for (size_t c = 0; c < static_cast<size_t>(sp_.count); ++c)
      for (const uint32_t v : wall_list_) f[c * voxels + v] = 0.0f;
    upload_field(f);
    Agents3 a = agents();
    if (move_out_of_walls(a)) upload_agents(a);
  }
  refresh_food();
}

// docs/MODEL.md, "Walls and the closed box": sixteen tries from the spawn's streams at step slots 2
// to 17, then a scan in index order from the last try.
bool Volume::move_out_of_walls(Agents3& a) const {
  if (walls_.empty()) return false;
  using rule::hash;
  using rule::unit;
  const rule3::Params3& p = p_;
  bool moved = false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (walls_[static_cast<size_t>(rule3::voxel_at(a.x[i], a.y[i], a.z[i], p))] == 0) continue;
    moved = true;
    const auto id = static_cast<uint32_t>(i);
    int v = 0;
    bool free = false;
    for (uint32_t k = 0; k < 16 && !free; ++k) {
      const float x = rule::wrap(rule::mul(unit(hash(p.seed, id, 2 + k, rule::kStreamSpawnA)), p.fwidth),
                                 p.fwidth, p.inv_width);
      const float y = rule::wrap(rule::mul(unit(hash(p.seed, id, 2 + k, rule::kStreamSpawnB)), p.fheight),
                                 p.fheight, p.inv_height);
      const float z = rule::wrap(rule::mul(unit(hash(p.seed, id, 2 + k, rule::kStreamSpawnC)), p.fdepth),
                                 p.fdepth, p.inv_depth);
      v = rule3::voxel_at(x, y, z, p);
      free = walls_[static_cast<size_t>(v)] == 0;
      if (free) {
        a.x[i] = x;
        a.y[i] = y;
        a.z[i] = z;
      }
    }
    if (free) continue;
    const size_t n = walls_.size();
    size_t at = static_cast<size_t>(v);
    while (walls_[at] != 0) at = at + 1 == n ? 0 : at + 1;  // a free voxel exists (set_walls)
    const auto plane = static_cast<size_t>(p.width) * static_cast<size_t>(p.height);
    a.x[i] = static_cast<float>(at % static_cast<size_t>(p.width)) + 0.5f;
    a.y[i] = static_cast<float>((at % plane) / static_cast<size_t>(p.width)) + 0.5f;
    a.z[i] = static_cast<float>(at / plane) + 0.5f;
  }
  return moved;
}

void Volume::set_food(const std::vector<VoxelFood>& food, float strength) {
  if (!std::isfinite(strength) || std::fabs(strength) > 1000.0f)
    throw Error("food strength " + std::to_string(strength) + " is out of range: -1000 to 1000");
  const uint64_t voxels = voxels_of(size_);
  for (size_t i = 0; i < food.size(); ++i) {
    const VoxelFood& f = food[i];
    if (f.voxel >= voxels || (i > 0 && f.voxel <= food[i - 1].voxel))
      throw Error("food entry " + std::to_string(i) + ": voxel " + std::to_string(f.voxel) +
                  " is outside the volume or out of order (each voxel once, increasing)");
    if (!std::isfinite(f.weight) || f.weight < 0.0f)
      throw Error("food entry " + std::to_string(i) + ": weight " + std::to_string(f.weight) +
                  " is not a finite number >= 0");
  }
  food_ = food;
  food_strength_ = strength;
  for (int s = 0; s < rule3::kMaxSpecies; ++s) food_k_[s] = species_food_[s].value_or(strength);
  refresh_food();
}

void Volume::set_live(const VolumeConfig& c, float food_strength) {
  const rule3::Species3 next = make_species3(c);  // throws for a value out of range
  const auto differs = [](const std::string& what) {
    return Error(what + " cannot change in a running volume; make a new one");
  };
  if (!(c.size == size_)) throw differs("its size (" + format_size(size_) + ")");
  if (c.agents != agents_) throw differs("its agent count");
  if (c.seed != p_.seed) throw differs("its seed");
  if (c.boundary != boundary_) throw differs("its boundary");
  if (next.count != sp_.count) throw differs("its number of species");
  for (int s = 0; s < next.count; ++s) {
    if (next.end[s] != sp_.end[s]) throw differs("the species' shares");
  }
  if (rule3::keeps_trace(next) != mcpm_)
    throw differs("whether a species' turn_rule is \"mcpm\" (the trace it keeps)");
  if (!std::isfinite(food_strength) || std::fabs(food_strength) > 1000.0f)
    throw Error("food strength " + std::to_string(food_strength) + " is out of range: -1000 to 1000");
  const SpeciesSet set = resolve_species(c.species, c.model, SpawnMode::Random);
  sp_ = next;
  p_ = sp_.p[0];
  for (int s = 0; s < rule3::kMaxSpecies; ++s) {
    species_food_[s] = static_cast<size_t>(s) < set.list.size() ? set.list[s].food_strength : std::nullopt;
    food_k_[s] = species_food_[s].value_or(food_strength);
  }
  food_strength_ = food_strength;
  species_set_ = set;
  refresh_food();
}

void Volume::set_live_model(const Preset& p) {
  set_live(volume_config(p), p.environment.food_strength);
}

// E = weight and k = strength, as rule::emit takes them: F + k * E; wall voxels take none.
void Volume::refresh_food() {
  std::vector<uint32_t> at;
  std::vector<float> values;
  for (const VoxelFood& f : food_) {
    if (!walls_.empty() && walls_[f.voxel] != 0) continue;
    at.push_back(static_cast<uint32_t>(f.voxel));
    values.push_back(f.weight);
  }
  upload_food(at, values);
}

Agents3 spawn_volume_agents(const VolumeConfig& c, const rule3::Params3& p, int threads) {
  Agents3 a;
  for (auto* v : {&a.x, &a.y, &a.z, &a.hx, &a.hy, &a.hz}) v->resize(c.agents);
#pragma omp parallel num_threads(threads)
  {
    const IeeeSubnormals ieee;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(c.agents); ++i) {
      const rule3::Agent3 s = rule3::spawn_agent3(static_cast<uint32_t>(i), c.seed, p);
      const auto k = static_cast<size_t>(i);
      a.x[k] = s.x;
      a.y[k] = s.y;
      a.z[k] = s.z;
      a.hx[k] = s.h.x;
      a.hy[k] = s.h.y;
      a.hz[k] = s.h.z;
    }
  }
  return a;
}

std::unique_ptr<Volume> create_volume(BackendKind kind, const VolumeConfig& c) {
  (void)make_species3(c);  // a bad config is refused before anything is made
  bool cuda = false;
  if (kind != BackendKind::Cpu) {
    cuda = !cuda_device().empty();
    if (!cuda && kind == BackendKind::Cuda) {
      throw Error(
          cuda_built()
              ? "--backend cuda: no CUDA device or driver found"
              : "--backend cuda: this build has no CUDA backend (nvcc was not found when it was built)");
    }
  }
  std::unique_ptr<Volume> v;
#if defined(PHYSARUM_HAS_CUDA)
  if (cuda) v = make_cuda_volume(c);
#endif
  if (!v) v = make_cpu_volume(c);
  if (c.boundary == Boundary::Walls) v->set_walls({});  // the shell, and the agents out of it
  return v;
}

}  // namespace physarum
