// Compiled by tests/build_guards.cmake with and without fast-math flags: the model's header must
// refuse to compile under fast-math and compile cleanly without it.
#include "sim/rule.hpp"

int main() {
  return physarum::rule::wrap_index(-1, 4) == 3 ? 0 : 1;
}
