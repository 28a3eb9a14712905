// How every command's --help reads: options in their groups, each with its value in plain words
// ("N", "auto|cpu|cuda"), its range and default said once in the description, wrapped to the
// terminal (80 columns when the output is not one, as for help2man).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace physarum::app {

// Set on the main app before its subcommands are added: they inherit it.
std::shared_ptr<CLI::Formatter> plain_help_formatter();

// The terminal's width in columns (60 to 160) when standard output is one, else `otherwise`.
size_t output_width(size_t otherwise);

// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone);
// its own line breaks are kept.
std::string wrap_text(const std::string& text, size_t width);

// The option groups of the simulation options (every command that runs one) and the window's.
inline constexpr const char* kSimulationGroup = "Simulation";
inline constexpr const char* kWindowGroup = "Window";

}  // namespace physarum::app
