#include "preset_library.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "sim/preset.hpp"

namespace physarum::app {

std::filesystem::path shipped_preset_dir() {
  if (const char* env = std::getenv("PHYSARUM_PRESET_DIR"); env && *env) return env;
  return std::filesystem::path(PHYSARUM_ASSET_DIR) / "presets";
}

std::filesystem::path user_preset_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "physarum" / "presets";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".config" / "physarum" / "presets";
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

}  // namespace

std::vector<PresetEntry> list_presets(const std::filesystem::path& shipped,
                                      const std::filesystem::path& user) {
  std::vector<PresetEntry> out;
  add_dir(shipped, false, out);
  add_dir(user, true, out);
  return out;
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

}  // namespace physarum::app
