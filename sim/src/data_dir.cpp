#include "sim/data_dir.hpp"

#include <cstdlib>
#include <system_error>

#include "sim/params.hpp"

namespace physarum {

namespace {

const char* kind_env(DataKind kind) {
  switch (kind) {
    case DataKind::shaders: return "PHYSARUM_SHADER_DIR";
    case DataKind::palettes: return "PHYSARUM_PALETTE_DIR";
    case DataKind::presets: return "PHYSARUM_PRESET_DIR";
    case DataKind::images: return "PHYSARUM_IMAGE_DIR";
  }
  return "";
}

const char* env_or_null(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

}  // namespace

const char* data_kind_name(DataKind kind) {
  switch (kind) {
    case DataKind::shaders: return "shaders";
    case DataKind::palettes: return "palettes";
    case DataKind::presets: return "presets";
    case DataKind::images: return "images";
  }
  return "";
}

std::filesystem::path executable_path() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : p;
}

std::vector<DataCandidate> data_dir_candidates(DataKind kind) {
  std::vector<DataCandidate> out;
  if (const char* v = env_or_null(kind_env(kind))) out.push_back({v, std::string("$") + kind_env(kind)});
  if (const char* v = env_or_null("PHYSARUM_DATA_DIR")) {
    out.push_back({std::filesystem::path(v) / data_kind_name(kind), "$PHYSARUM_DATA_DIR"});
  }
  if (const auto exe = executable_path(); !exe.empty()) {
    out.push_back({exe.parent_path().parent_path() / "share" / "physarum" / data_kind_name(kind),
                   "next to " + exe.string()});
  }
  return out;
}

std::filesystem::path data_dir(DataKind kind) {
  const auto candidates = data_dir_candidates(kind);
  std::string looked;
  for (const auto& c : candidates) {
    std::error_code ec;
    if (std::filesystem::is_directory(c.dir, ec)) return c.dir;
    // A variable set by hand that points nowhere is a mistake to report, not to step over.
    if (c.origin.front() == '$') {
      throw Error(c.origin.substr(1) + "=" + c.dir.string() + " is not a folder (physarum's " +
                  data_kind_name(kind) + " are looked for there)");
    }
    looked += "\n  " + c.dir.string() + " (" + c.origin + ")";
  }
  throw Error(std::string("cannot find physarum's ") + data_kind_name(kind) + "; looked in:" + looked +
              "\nReinstall physarum, or set PHYSARUM_DATA_DIR to the folder that holds shaders/, palettes/, "
              "presets/ and images/.");
}

}  // namespace physarum
