// A world: what a plane (sim/backend.hpp, class Backend) and a volume (sim/volume.hpp, class Volume)
// both are, so the run library, the command line, the window and Python hold one and ask it the
// same questions. What only one of them has (a plane's images, brush, maps and publishing; a volume's
// walls volume, point food and MCPM trace) is reached by asking the world for it: plane() or
// volume(), nullptr when it is the other. A world's configuration is made from a preset in one
// place: config_from and volume_config below (sim/src/world.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/params.hpp"

namespace physarum {

// Milliseconds per step for each stage, averaged over the recent window of steps. A stage the
// backend does not have stays 0.
struct StageTimings {
  double agents_ms = 0;   // sense + steer + move + deposit
  double field_ms = 0;    // deposit + blur + decay + clear counts
  double sort_ms = 0;     // reordering agents for locality (amortised per step)
  double publish_ms = 0;  // writing the field into a display surface
  double step_ms = 0;     // whole step, wall clock on the GPU (or CPU)
  int samples = 0;        // steps averaged
};

// Where a world keeps its current field, for readers that take it without a copy (the Python
// module's DLPack view). A plane's cell (x, y) of channel c is data[(y * width + x) * cell_stride + c]:
// channels interleaved, cell_stride = S (4 for three species on CUDA); a volume's layout is
// Volume::field_storage's. Both backends alternate between two buffers that live as long as the
// backend, so after step() the pointer may no longer be the current field: ask again.
struct FieldStorage {
  float* data = nullptr;        // nullptr: this backend does not expose its field
  bool on_cuda_device = false;  // device memory of CUDA device `device`, else host memory
  int device = 0;
  int cell_stride = 1;  // floats from one cell to the next
};

enum class BackendKind { Auto, Cpu, Cuda };
BackendKind parse_backend_kind(const std::string& s);  // "auto" | "cpu" | "cuda"
const char* to_string(BackendKind k);                  // the word parse_backend_kind reads

class Backend;
class Volume;

class World {
 public:
  virtual ~World() = default;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  virtual std::string name() const = 0;  // "cpu (2 threads)", "cuda (NVIDIA H200)"
  virtual BackendKind kind() const = 0;  // Cpu or Cuda (which queues its steps)
  Size size() const { return size_; }    // W x H x D; a plane's depth is 1
  uint64_t agent_count() const { return agents_; }
  uint64_t steps_done() const { return steps_; }
  // Resolved: never empty (a preset without [[species]] is one species made of its model).
  virtual const SpeciesSet& species() const = 0;
  int species_count() const { return static_cast<int>(species().list.size()); }
  // The shape read_field() fills: (H, W) or (D, H, W), the species count in front when there are
  // several: what `physarum run` writes and Python's field() returns.
  std::vector<int> field_shape() const;

  virtual void step(int n) = 0;
  // One step, timed stage by stage: of that step alone (samples 1) where every step is timed (the
  // CPU backends, the volumes); a plane on CUDA times one step in 8, and gives its recent average.
  virtual StageTimings timed_step() = 0;
  // The field, each channel a plane after the other: field_shape(), z slowest.
  virtual void read_field(std::vector<float>& out) = 0;
  // The current field where it lives; waits for queued work first, so it is complete when read.
  virtual FieldStorage field_storage() = 0;
  // `p`'s model live from the next step: its model, or every species' parameters, shares and matrix
  // (a volume: and its food's strength). Throws Error and changes nothing for a value out of range
  // or for what needs a new world (another number of species, a plane's spawn modes, a volume's
  // shares or MCPM trace).
  virtual void set_live_model(const Preset& p) = 0;

  // This world as a plane or as a volume; nullptr when it is the other.
  Backend* plane();
  const Backend* plane() const;
  Volume* volume();
  const Volume* volume() const;

 protected:
  World(Size size, uint64_t agents) : size_(size), agents_(agents) {}
  Size size_;
  uint64_t agents_;
  uint64_t steps_ = 0;
};

// A world's configuration from a preset: a plane's (SimConfig, sim/backend.hpp; validates `p`) and a
// volume's (VolumeConfig, sim/volume.hpp; run/volume_setup.hpp says what of a preset a volume
// takes). What both take is filled in one place (sim/src/world.cpp), so a new model input is added
// once. `threads`: the CPU's, 0 for default_threads().
struct SimConfig;
struct VolumeConfig;
SimConfig config_from(const Preset& p, int threads = 0);
VolumeConfig volume_config(const Preset& p, int threads = 0);

}  // namespace physarum
