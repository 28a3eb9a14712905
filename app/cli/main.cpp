// physarum: grows a Physarum transport network on the GPU, live in a window or headless.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/help_format.hpp"
#include "sim/backend.hpp"
#include "sim/params.hpp"
#include "sim/stop.hpp"
#include "sim/text.hpp"
#include "video/signals.hpp"

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

  const CommandFn run = add_run_command(app);
  const CommandFn bench = add_bench_command(app);
  const CommandFn render = add_render_command(app);
  const CommandFn presets = add_presets_command(app);
  const CommandFn params = add_params_command(app);
  const CommandFn export_ = add_export_command(app);
  const CommandFn sensitivity = add_sensitivity_command(app);
  const CommandFn atlas = add_atlas_command(app);
  const CommandFn window = add_window_options(app);

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

  // The commands whose work can last: Ctrl-C or SIGTERM stops them between steps or phases, the
  // Stopped unwinds through the writers (no temporary file stays, nothing is replaced) and the exit
  // status is 128 + signal. render and the window install their own, to finish their videos first.
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  const std::string command = chosen.empty() ? std::string("window") : chosen.front()->get_name();
  const bool stoppable = command == "run" || command == "bench" || command == "export" ||
                         command == "sensitivity" || command == "atlas";
  if (stoppable) install_signal_handlers();
  try {
    const int status = [&] {
      if (app.got_subcommand("run")) return run();
      if (app.got_subcommand("bench")) return bench();
      if (app.got_subcommand("render")) return render();
      if (app.got_subcommand("presets")) return presets();
      if (app.got_subcommand("params")) return params();
      if (app.got_subcommand("export")) return export_();
      if (app.got_subcommand("sensitivity")) return sensitivity();
      if (app.got_subcommand("atlas")) return atlas();
      return window();
    }();
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
