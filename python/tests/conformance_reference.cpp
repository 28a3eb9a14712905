// The C++ side of the Python module's conformance test: one recipe of
// tests/data/conformance/recipes.toml grown by the simulation library alone
// (tests/conformance_reference.hpp), with or without its live edits, written as .npy.
//   physarum_conformance_reference RECIPES.toml NAME plain|live OUT.npy
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "conformance_reference.hpp"
#include "sim/npy.hpp"

int main(int argc, char** argv) {
  using namespace physarum;
  const std::string kind = argc == 5 ? argv[3] : "";
  if (kind != "plain" && kind != "live") {
    std::fprintf(stderr, "usage: %s RECIPES.toml NAME plain|live OUT.npy\n", argv[0]);
    return 2;
  }
  try {
    for (const test::conformance::Recipe& r : test::conformance::load_recipes(argv[1])) {
      if (r.name != argv[2]) continue;
      const std::vector<float> field = test::conformance::reference_field(r, kind == "live");
      const Preset p = load_preset(r.preset);
      const int planes = static_cast<int>(
          field.size() / (static_cast<size_t>(p.run.size.width) * static_cast<size_t>(p.run.size.height)));
      write_npy(argv[4], field.data(), p.run.size.height, p.run.size.width, planes);
      return 0;
    }
    std::fprintf(stderr, "conformance_reference: no recipe named '%s' in %s\n", argv[2], argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "conformance_reference: %s\n", e.what());
  }
  return 1;
}
