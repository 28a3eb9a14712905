// physarum: grows a Physarum transport network on the GPU, live in a window or headless.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iterator>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/help_format.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/stop.hpp"
#include "sim/text.hpp"
#include "system/signals.hpp"

namespace {

std::string version_text() {
  std::string v = "physarum " PHYSARUM_VERSION;
  if (physarum::cuda_built()) {
    const std::string dev = physarum::cuda_device();
    v += " (CUDA backend built; device: " + (dev.empty() ? std::string("none found") : dev) + ")";
  } else {
    v += " (CPU only: built without CUDA)";
  }
  return v;
}

// A first word that is not an option names a command; CLI11 would take an unknown one as a stray
// argument and, given --help too, print the main help and succeed.
bool refuse_unknown_command(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-' || argv[1][0] == '\0') return false;
  std::string names;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == argv[1]) return false;
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  std::fprintf(stderr,
               "physarum: there is no command '%s' (the commands are %s)\nRun 'physarum --help' for usage.\n",
               physarum::printable(argv[1]).c_str(), names.c_str());
  return true;
}

// Every command: its name as typed ("window": none typed), what adds its options and returns what
// runs it, and whether Ctrl-C or SIGTERM stop it here. The stoppable ones stop between steps or
// phases, the Stopped unwinds through the writers (no temporary file stays, nothing is replaced) and
// the exit status is 128 + signal; render and the window install their own handlers, to finish
// their videos first. In the order --help lists them.
struct Command {
  const char* name;
  physarum::app::CommandFn (*add)(CLI::App& app);
  bool stoppable;
};

constexpr Command kCommands[] = {
    {"run", physarum::app::add_run_command, true},
    {"bench", physarum::app::add_bench_command, true},
    {"render", physarum::app::add_render_command, false},
    {"presets", physarum::app::add_presets_command, false},
    {"params", physarum::app::add_params_command, false},
    {"export", physarum::app::add_export_command, true},
    {"sensitivity", physarum::app::add_sensitivity_command, true},
    {"atlas", physarum::app::add_atlas_command, true},
    {"window", physarum::app::add_window_options, false},  // the options of no subcommand
};

}  // namespace

int main(int argc, char** argv) {
  using namespace physarum::app;
  CLI::App app{
      "physarum: grows a Physarum (slime-mould) transport network on the GPU.\n"
      "With no subcommand it opens the interactive window.",
      "physarum"};
  app.formatter(plain_help_formatter());
  app.set_version_flag("--version", version_text);
  app.require_subcommand(0, 1);

  std::vector<CommandFn> runs;
  for (const Command& c : kCommands) runs.push_back(c.add(app));

  if (refuse_unknown_command(app, argc, argv)) return kExitUsage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "physarum: %s\nRun 'physarum --help' for usage.\n",
                 physarum::printable(e.what()).c_str());
    return kExitUsage;
  }

  const std::vector<CLI::App*> chosen = app.get_subcommands();
  const std::string command = chosen.empty() ? std::string("window") : chosen.front()->get_name();
  // Every subcommand is one of the table's: they were added from it.
  const auto k = static_cast<size_t>(
      std::ranges::find_if(kCommands, [&](const Command& c) { return c.name == command; }) -
      std::begin(kCommands));
  const bool stoppable = kCommands[k].stoppable;
  if (stoppable) install_signal_handlers();
  try {
    const int status = runs.at(k)();
    // A signal after the last check still ends with 128 + signal: the caller asked for a stop.
    if (stoppable && status == kExitOk && stop_requested())
      return report_stopped(command.c_str(), "it had already finished and written its files whole");
    return status;
  } catch (const physarum::Stopped&) {
    return report_stopped(command.c_str(), "no file was written or replaced");
  } catch (const UsageError& e) {
    std::fprintf(stderr, "physarum: %s\n", physarum::printable(e.what()).c_str());
    return kExitUsage;
  } catch (const std::exception& e) {
    // Messages quote names, paths and values from the command line and from files.
    std::fprintf(stderr, "physarum: error: %s\n", physarum::printable(e.what()).c_str());
    return kExitRuntime;
  }
}
