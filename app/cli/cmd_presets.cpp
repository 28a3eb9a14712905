// `physarum presets`: the shipped presets and the user's own, each with its one-line summary and
// the folder it lives in, so `--preset NAME` can be chosen without opening the window.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "run/preset_library.hpp"
#include "sim/params.hpp"
#include "sim/registry.hpp"
#include "sim/text.hpp"

namespace physarum::app {
namespace {

void print_group(const char* title, const std::filesystem::path& dir,
                 const std::vector<run::PresetEntry>& all, bool user) {
  // Names, summaries and folders come from the file system: printed escaped.
  std::printf("%s (%s):\n", title, printable(dir.string()).c_str());
  size_t width = 0;
  for (const auto& e : all) {
    if (e.user == user) width = std::max(width, printable(e.name).size());
  }
  bool any = false;
  for (const auto& e : all) {
    if (e.user != user) continue;
    any = true;
    std::printf("  %-*s  %s\n", static_cast<int>(width), printable(e.name).c_str(),
                printable(run::preset_summary(e.file)).c_str());
  }
  if (!any) std::printf("  (none yet%s)\n", user ? ": the window's Presets section saves them here" : "");
}

}  // namespace

CommandFn add_presets_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("presets", "List the shipped presets and your own (use one with --preset NAME)");
  (void)cmd;
  return [] {
    const auto shipped = run::shipped_preset_dir();
    const auto user = run::user_preset_dir();
    const auto all = run::list_presets(shipped, user);
    print_group("shipped", shipped, all, false);
    print_group("yours", user, all, true);
    return kExitOk;
  };
}

CommandFn add_params_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "params",
      "List every parameter a preset, --set and a keyframe can name: type, default, range, meaning");
  auto markdown = std::make_shared<bool>(false);
  cmd->add_flag("--markdown", *markdown, "As the Markdown tables of assets/presets/README.md, one per table");
  return [markdown] {
    if (!*markdown) {
      std::fputs(registry::listing().c_str(), stdout);
      return kExitOk;
    }
    using registry::Section;
    for (Section s : {Section::Model, Section::Spawn, Section::Run, Section::Display, Section::Environment,
                      Section::Species, Section::Interaction}) {
      std::printf("[%s]\n\n%s\n", std::string(registry::section_name(s)).c_str(),
                  registry::markdown_table(s).c_str());
    }
    return kExitOk;
  };
}

}  // namespace physarum::app
