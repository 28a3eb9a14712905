#include "sim/world.hpp"

#include "sim/backend.hpp"
#include "sim/volume.hpp"

namespace physarum {

const char* to_string(BackendKind k) {
  switch (k) {
    case BackendKind::Auto: return "auto";
    case BackendKind::Cpu: return "cpu";
    case BackendKind::Cuda: return "cuda";
  }
  return "auto";
}

BackendKind parse_backend_kind(const std::string& s) {
  if (s == "auto") return BackendKind::Auto;
  if (s == "cpu") return BackendKind::Cpu;
  if (s == "cuda") return BackendKind::Cuda;
  throw Error("backend '" + s + "' is not one of: auto, cpu, cuda");
}

std::vector<int> World::field_shape() const {
  std::vector<int> shape = {size_.height, size_.width};
  if (size_.volume()) shape.insert(shape.begin(), size_.depth);
  if (species_count() > 1) shape.insert(shape.begin(), species_count());
  return shape;
}

Backend* World::plane() {
  return dynamic_cast<Backend*>(this);
}
const Backend* World::plane() const {
  return dynamic_cast<const Backend*>(this);
}
Volume* World::volume() {
  return dynamic_cast<Volume*>(this);
}
const Volume* World::volume() const {
  return dynamic_cast<const Volume*>(this);
}

namespace {

// What a plane and a volume both take from a preset.
template <class Config>
Config shared_config(const Preset& p, int threads) {
  Config c;
  c.size = p.run.size;
  c.agents = p.run.agents;
  c.seed = p.run.seed;
  c.model = p.model;
  c.species = p.species;
  c.threads = threads;
  return c;
}

}  // namespace

SimConfig config_from(const Preset& p, int threads) {
  validate(p);
  SimConfig c = shared_config<SimConfig>(p, threads);
  c.spawn = p.spawn;
  c.scale = p.run.scale;
  return c;
}

VolumeConfig volume_config(const Preset& p, int threads) {
  VolumeConfig c = shared_config<VolumeConfig>(p, threads);
  c.boundary = p.environment.boundary;
  return c;
}

}  // namespace physarum
