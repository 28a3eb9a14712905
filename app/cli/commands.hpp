// Each subcommand registers its options on the CLI11 app and returns what runs it. main() parses
// once and runs the chosen one; no subcommand means the window.
#pragma once

#include <functional>
#include <stdexcept>

#include "run/recipe.hpp"

namespace CLI {
class App;
}

namespace physarum::app {

using CommandFn = std::function<int()>;  // returns the exit code

CommandFn add_run_command(CLI::App& app);      // cmd_run.cpp:    headless run, writes .npy
CommandFn add_bench_command(CLI::App& app);    // cmd_bench.cpp:  GPU/CPU benchmark
CommandFn add_render_command(CLI::App& app);   // cmd_render.cpp: headless EGL render (stills, .npy, videos)
CommandFn add_presets_command(CLI::App& app);  // cmd_presets.cpp: lists presets
CommandFn add_params_command(CLI::App& app);   // cmd_presets.cpp: lists the parameter registry
CommandFn add_export_command(CLI::App& app);   // cmd_export.cpp: game, plotter and volume assets
CommandFn add_sensitivity_command(CLI::App& app);  // cmd_sensitivity.cpp: twin runs, Lyapunov exponents
CommandFn add_atlas_command(CLI::App& app);        // cmd_atlas.cpp: a grid of worlds over two parameters
CommandFn add_window_options(CLI::App& app);       // cmd_window.cpp: the interactive window (no subcommand)

// A bad value that CLI11 could not catch itself (e.g. "--size 0x5"): exit code 2.
using run::kExitOk;
using run::kExitRuntime;
using run::kExitUsage;
using run::UsageError;

}  // namespace physarum::app
