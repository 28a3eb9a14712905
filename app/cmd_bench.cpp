// Placeholder until the bench command lands.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.hpp"

namespace physarum::app {

CommandFn add_bench_command(CLI::App& app) {
  app.add_subcommand("bench", "(not built yet)");
  return [] {
    std::fprintf(stderr, "physarum: 'bench' is not available in this build yet\n");
    return kExitRuntime;
  };
}

}  // namespace physarum::app
