// Placeholder until the window lands.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.hpp"

namespace physarum::app {

CommandFn add_window_options(CLI::App& app) {
  (void)app;
  return [] {
    std::fprintf(stderr, "physarum: the window is not available in this build yet; try 'physarum run --help'\n");
    return kExitRuntime;
  };
}

}  // namespace physarum::app
