// `physarum presets`: the shipped presets and the user's own, each with the size, agents and species
// it is made at and its whole description (the file's leading comment), so `--preset NAME` can be
// chosen without opening the window or the files.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/help_format.hpp"
#include "run/preset_library.hpp"
#include "sim/params.hpp"
#include "sim/preset.hpp"
#include "sim/registry.hpp"
#include "sim/text.hpp"

namespace physarum::app {
namespace {

// Without a terminal (a pipe, a file) the lines are this wide.
constexpr size_t kListingWidth = 100;
constexpr size_t kDescriptionIndent = 6;

// What a preset is made at (its run.size, run.agents and species), or why it cannot be read.
struct Facts {
  std::string size, agents, species, problem;
};

Facts facts_of(const std::filesystem::path& file) {
  Facts f;
  try {
    const Preset p = load_preset(file);
    f.size = format_size(p.run.size);
    f.agents = format_count(p.run.agents);
    f.species = std::to_string(p.species.count()) + " species";
  } catch (const Error& e) {
    f.problem = std::string("(not readable as a preset: ") + e.what() + ")";
  }
  return f;
}

std::string description_lines(const std::filesystem::path& file, size_t width) {
  const std::string indent(kDescriptionIndent, ' ');
  std::string out;
  for (const std::string& paragraph : run::preset_description(file)) {
    // Read from a file: printed escaped, then wrapped, never cut.
    const std::string wrapped = wrap_text(printable(paragraph), width - kDescriptionIndent);
    size_t at = 0;
    while (at <= wrapped.size()) {
      const size_t nl = std::min(wrapped.find('\n', at), wrapped.size());
      out += indent + wrapped.substr(at, nl - at) + "\n";
      at = nl + 1;
    }
  }
  return out;
}

void print_group(const char* title, const std::filesystem::path& dir,
                 const std::vector<run::PresetEntry>& all, bool user, size_t width) {
  // Names, descriptions and folders come from the file system: printed escaped.
  std::printf("%s (%s):\n", title, printable(dir.string()).c_str());
  std::vector<std::pair<const run::PresetEntry*, Facts>> group;
  size_t name_w = 0, size_w = 0, agents_w = 0;
  for (const auto& e : all) {
    if (e.user != user) continue;
    group.emplace_back(&e, facts_of(e.file));
    const Facts& f = group.back().second;
    name_w = std::max(name_w, printable(e.name).size());
    size_w = std::max(size_w, f.size.size());
    agents_w = std::max(agents_w, f.agents.size());
  }
  for (size_t i = 0; i < group.size(); ++i) {
    const auto& [e, f] = group[i];
    if (i > 0) std::printf("\n");
    const std::string name = printable(e->name);
    if (f.problem.empty()) {
      std::printf("  %-*s  %-*s  %*s agents  %s\n", static_cast<int>(name_w), name.c_str(),
                  static_cast<int>(size_w), f.size.c_str(), static_cast<int>(agents_w), f.agents.c_str(),
                  f.species.c_str());
    } else {
      std::printf("  %-*s  %s\n", static_cast<int>(name_w), name.c_str(), printable(f.problem).c_str());
    }
    std::fputs(description_lines(e->file, width).c_str(), stdout);  // each paragraph on lines of its own
  }
  if (group.empty())
    std::printf("  (none yet%s)\n", user ? ": the window's Presets section saves them here" : "");
}

}  // namespace

CommandFn add_presets_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "presets",
      "List the shipped presets and your own, each with the size, agents and species it is made at and "
      "its description (use one with --preset NAME)");
  (void)cmd;
  return [] {
    const auto shipped = run::shipped_preset_dir();
    const auto user = run::user_preset_dir();
    const auto all = run::list_presets(shipped, user);
    const size_t width = output_width(kListingWidth);
    print_group("shipped", shipped, all, false, width);
    std::printf("\n");
    print_group("yours", user, all, true, width);
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
