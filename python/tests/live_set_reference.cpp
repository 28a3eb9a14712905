// The C++ side of the Python module's live-set test: a CPU run of the built-in defaults that steps
// `before` steps, changes one preset key through the backend (set_model, or set_species for species
// keys), steps `after` more and writes the field as .npy.
//   physarum_live_set_reference W H AGENTS SEED BEFORE AFTER SECTION.KEY=VALUE OUT.npy
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/npy.hpp"
#include "sim/preset.hpp"

int main(int argc, char** argv) {
  using namespace physarum;
  if (argc != 9) {
    std::fprintf(stderr, "usage: %s W H AGENTS SEED BEFORE AFTER SECTION.KEY=VALUE OUT.npy\n", argv[0]);
    return 2;
  }
  try {
    Preset p;
    p.run.size = {std::stoi(argv[1]), std::stoi(argv[2])};
    p.run.agents = std::stoull(argv[3]);
    p.run.seed = static_cast<uint32_t>(std::stoul(argv[4]));
    auto backend = create_backend(BackendKind::Cpu, config_from(p, 1));
    backend->step(std::stoi(argv[5]));
    Preset changed = p;
    apply_override(changed, argv[7]);
    if (changed.species.list.empty()) {
      backend->set_model(changed.model);
    } else {
      backend->set_species(changed.species);
    }
    backend->step(std::stoi(argv[6]));
    std::vector<float> field;
    backend->read_field(field);
    write_npy(argv[8], field.data(), p.run.size.height, p.run.size.width, backend->species_count());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "live_set_reference: %s\n", e.what());
    return 1;
  }
  return 0;
}
