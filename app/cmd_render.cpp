// Placeholder until the render command lands.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.hpp"

namespace physarum::app {

CommandFn add_render_command(CLI::App& app) {
  app.add_subcommand("render", "(not built yet)");
  return [] {
    std::fprintf(stderr, "physarum: 'render' is not available in this build yet\n");
    return kExitRuntime;
  };
}

}  // namespace physarum::app
