#include "cli/help_format.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace physarum::app {
namespace {

constexpr size_t kNameColumn = 28;

size_t terminal_width() {
  return output_width(80);
}

// CLI11 appends each validator's description to the type name ("INT:INT in [0 - 1024]",
// "TEXT:{fill,fit}"): the value's name is the part before it.
std::string value_name(const CLI::Option* o) {
  const std::string full = o->get_type_name();
  std::string name = full.substr(0, full.find(':'));
  static const std::regex choices(R"(\{([^}]*)\})");
  std::smatch m;
  if ((name == "TEXT" || name.empty()) && std::regex_search(full, m, choices)) {
    name = m[1].str();
    std::replace(name.begin(), name.end(), ',', '|');
  }
  return name;
}

// The range a validator states, in words: "0 to 1024", "0 or more".
std::string range_words(const CLI::Option* o) {
  const std::string full = o->get_type_name();
  static const std::regex range(R"(\[([^\]]*) - ([^\]]*)\])");
  std::smatch m;
  if (std::regex_search(full, m, range)) return m[1].str() + " to " + m[2].str();
  if (full.find("NONNEGATIVE") != std::string::npos) return "0 or more";
  if (full.find("POSITIVE") != std::string::npos) return "more than 0";
  return "";
}

class PlainFormatter : public CLI::Formatter {
 public:
  PlainFormatter() { column_width(kNameColumn); }

  std::string make_option_name(const CLI::Option* o, bool positional) const override {
    if (positional) return o->get_name(true, false);
    std::string names;
    for (const auto& s : o->get_snames()) names += (names.empty() ? "-" : ", -") + s;
    for (const auto& l : o->get_lnames()) names += (names.empty() ? "--" : ", --") + l;
    return names;
  }

  std::string make_option_opts(const CLI::Option* o) const override {
    if (!o->get_option_text().empty()) return " " + o->get_option_text();
    if (o->get_type_size() == 0) return "";
    std::string s = " " + value_name(o);
    if (o->get_expected_max() == CLI::detail::expected_max_vector_size) s += " ...";
    if (o->get_required()) s += " (required)";
    return s;
  }

  std::string make_option_desc(const CLI::Option* o) const override {
    std::string d = o->get_description();
    std::string said;
    if (o->get_type_size() != 0) {
      const std::string range = range_words(o);
      if (!range.empty()) said = range;
      const std::string def = o->get_default_str();
      if (!def.empty()) said += (said.empty() ? "default " : ", default ") + def;
    }
    if (!said.empty()) d += " [" + said + "]";
    return wrap_text(d, terminal_width() - kNameColumn);
  }

  std::string make_group(std::string group, bool positional,
                         std::vector<const CLI::Option*> opts) const override {
    // CLI11 names the ungrouped options "Options": they are the command's own.
    return CLI::Formatter::make_group(group == "Options" ? "Command options" : group, positional, opts);
  }

  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    // One paragraph: a description's own line breaks were made for another column.
    std::string d = sub->get_description();
    std::replace(d.begin(), d.end(), '\n', ' ');
    CLI::detail::format_help(out, sub->get_display_name(), wrap_text(d, terminal_width() - kNameColumn),
                             kNameColumn);
    return out.str();
  }

  std::string make_description(const CLI::App* app) const override {
    std::string d = app->get_description();
    return d.empty() ? "" : wrap_text(d, terminal_width()) + "\n";
  }
};

}  // namespace

size_t output_width(size_t otherwise) {
  winsize ws{};
  if (::isatty(STDOUT_FILENO) != 0 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    return std::clamp<size_t>(ws.ws_col, 60, 160);
  }
  return otherwise;
}

std::string wrap_text(const std::string& text, size_t width) {
  width = std::max<size_t>(width, 20);
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool first_line = true;
  while (std::getline(lines, line)) {
    if (!first_line) out += '\n';
    first_line = false;
    std::istringstream words(line);
    std::string word;
    size_t used = 0;
    while (words >> word) {
      if (used > 0 && used + 1 + word.size() > width) {
        out += '\n';
        used = 0;
      } else if (used > 0) {
        out += ' ';
        ++used;
      }
      out += word;
      used += word.size();
    }
  }
  return out;
}

std::shared_ptr<CLI::Formatter> plain_help_formatter() {
  return std::make_shared<PlainFormatter>();
}

}  // namespace physarum::app
