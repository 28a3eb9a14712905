#include "run/preset_library.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "run/recipe.hpp"
#include "sim/data_dir.hpp"
#include "sim/input_file.hpp"
#include "sim/preset.hpp"
#include "sim/text.hpp"

namespace physarum::run {

std::filesystem::path shipped_preset_dir() {
  return data_dir(DataKind::presets);
}

std::filesystem::path user_config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "physarum";
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "physarum";
  }
  return {};
}

std::filesystem::path user_preset_dir() {
  const std::filesystem::path config = user_config_dir();
  return (config.empty() ? std::filesystem::path(".") / ".config" / "physarum" : config) / "presets";
}

namespace {

void add_dir(const std::filesystem::path& dir, bool user, std::vector<PresetEntry>& out) {
  std::error_code ec;
  std::vector<PresetEntry> found;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto& p = it->path();
    if (p.extension() == ".toml" && it->is_regular_file(ec)) found.push_back({p.stem().string(), p, user});
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  out.insert(out.end(), found.begin(), found.end());
}

// At most a few names near `wanted`, never the whole folder: a user's folder may hold thousands.
std::string close_presets(const std::vector<PresetEntry>& entries, const std::string& wanted) {
  if (entries.empty()) return "there are none";
  constexpr size_t kShown = 3;
  const size_t within = std::max<size_t>(2, wanted.size() / 3);
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& e : entries) {
    // Lengths further apart than `within` cannot be near; this also bounds the work for a long name.
    if (e.name.size() > wanted.size() + within || wanted.size() > e.name.size() + within) continue;
    const size_t d = edit_distance(wanted, e.name);
    if (d <= within) near.emplace_back(d, e.name);
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  std::string names;
  for (size_t i = 0; i < std::min(near.size(), kShown); ++i) names += (i ? ", " : "") + near[i].second;
  const std::string all = "'physarum presets' lists all " + std::to_string(entries.size());
  return names.empty() ? all : "did you mean " + names + "? (" + all + ")";
}

}  // namespace

std::vector<PresetEntry> list_presets(const std::filesystem::path& shipped,
                                      const std::filesystem::path& user) {
  std::vector<PresetEntry> out;
  add_dir(shipped, false, out);
  add_dir(user, true, out);
  return out;
}

std::filesystem::path find_preset(const std::string& name_or_file) {
  const std::filesystem::path given(name_or_file);
  if (name_or_file.find('/') != std::string::npos || given.extension() == ".toml") return given;
  const std::filesystem::path user = user_preset_dir();
  std::filesystem::path shipped;
  try {
    shipped = shipped_preset_dir();
  } catch (const Error&) {
    // No shipped presets (a broken install): the user's own may still match, and the message
    // below names what was found.
  }
  const auto entries = list_presets(shipped, user);
  for (bool want_user : {true, false}) {
    for (const auto& e : entries) {
      if (e.user == want_user && e.name == name_or_file) return e.file;
    }
  }
  throw UsageError("no preset named '" + name_or_file + "' in " + user.string() +
                   (shipped.empty() ? std::string() : " or " + shipped.string()) + "; " +
                   close_presets(entries, name_or_file) +
                   ". Give a file path (with a '/' or ending in .toml) to load a file.");
}

namespace {

// The leading comment's paragraphs (an empty comment line parts them), each one line of words,
// read from at most the first `limit` bytes; none when the file cannot be read.
std::vector<std::string> leading_comment(const std::filesystem::path& file, size_t limit) {
  std::string head(limit, '\0');
  try {
    InputFile f(file, "preset", std::numeric_limits<uint64_t>::max());
    head.resize(f.read_some(head.data(), head.size()));
  } catch (const Error&) {
    return {};
  }
  std::istringstream in(head);
  std::vector<std::string> paragraphs(1);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind('#', 0) != 0) break;
    const size_t start = line.find_first_not_of("# ");
    if (start == std::string::npos) {
      if (!paragraphs.back().empty()) paragraphs.emplace_back();
      continue;
    }
    std::string& p = paragraphs.back();
    if (!p.empty()) p += ' ';
    p += line.substr(start);
  }
  if (paragraphs.back().empty()) paragraphs.pop_back();
  return paragraphs;
}

}  // namespace

std::vector<std::string> preset_description(const std::filesystem::path& file) {
  // A description is a few lines; a user's file of megabytes of comment is read no further.
  constexpr size_t kLimit = 64 * 1024;
  return leading_comment(file, kLimit);
}

std::string preset_summary(const std::filesystem::path& file, size_t width) {
  // The first paragraph is all a summary shows, so only the start of the file is read, whatever
  // its length; a file that cannot be read (or is no longer regular) has no summary.
  constexpr size_t kHead = 4096;
  const std::vector<std::string> paragraphs = leading_comment(file, kHead);
  std::string text = paragraphs.empty() ? std::string() : paragraphs.front();
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '.' && text[i + 1] == ' ') {
      text.resize(i + 1);
      break;
    }
  }
  if (text.size() > width) {
    size_t cut = text.rfind(' ', width - 3);
    if (cut == std::string::npos) cut = width - 3;
    text = text.substr(0, cut) + "...";
  }
  return text;
}

void check_preset_name(const std::string& name) {
  if (name.empty()) throw Error("give the preset a name");
  if (name.size() > 64) throw Error("a preset name has at most 64 characters");
  if (name.front() == '.') throw Error("a preset name cannot start with '.'");
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.' || c == ' ';
    if (!ok) throw Error("'" + name + "': use letters, digits, '-', '_', '.' and spaces only");
  }
}

std::filesystem::path save_user_preset(const Preset& p, const std::filesystem::path& dir,
                                       const std::string& name) {
  check_preset_name(name);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create " + dir.string() + ": " + ec.message());
  const std::filesystem::path file = dir / (name + ".toml");
  save_preset(p, file);
  return file;
}

}  // namespace physarum::run
