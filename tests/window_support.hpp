// What the window's tests share: a run small enough to step a window core by hand.
#pragma once

#include "run/recipe.hpp"

namespace physarum::test {

// A 64x48 plane with 2K agents on one CPU thread.
inline run::Recipe small_window_recipe() {
  run::Recipe o;
  o.backend = "cpu";
  o.threads = 1;
  o.size = "64x48";
  o.agents = "2K";
  return o;
}

}  // namespace physarum::test
