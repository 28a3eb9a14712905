#include "export/output_paths.hpp"

#include <sys/stat.h>

#include "run/recipe.hpp"
#include "sim/params.hpp"

namespace physarum::app {

using run::UsageError;

namespace fs = std::filesystem;

void OutputPaths::add(std::string_view what, const fs::path& file, WritableTarget kind) {
  const std::string named = std::string(what) + " " + file.string();
  try {
    check_writable_target(file, "write", kind);
  } catch (const Error& e) {
    throw UsageError(named + ": " + e.what());
  }
  struct stat st {};
  // Streams into a device (/dev/null) may share it; files may not.
  if (::stat(file.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) return;
  std::error_code ec;
  // Links followed and "./" or "a/../" folded, so two spellings of one file are one file.
  fs::path same = fs::weakly_canonical(fs::absolute(file, ec), ec);
  if (ec) same = fs::absolute(file).lexically_normal();
  for (const Entry& e : entries_) {
    if (e.same == same) {
      throw UsageError(named + ": the same file as " + e.what + " " + e.file.string() +
                       "; one would overwrite the other, so give each output its own name");
    }
  }
  entries_.push_back({std::string(what), file, std::move(same)});
}

}  // namespace physarum::app
