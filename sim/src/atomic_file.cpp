#include "sim/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "sim/params.hpp"
#include "sim/write_all.hpp"

namespace physarum {
namespace {

// A name no other writer picks: pid, a per-process counter and the clock, checked by O_EXCL.
std::string temp_suffix(int attempt) {
  static std::atomic<unsigned> counter{0};
  const auto ticks =
      static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
  char buf[64];
  std::snprintf(buf, sizeof buf, ".tmp-%d-%u-%llx-%d", static_cast<int>(::getpid()), counter++,
                ticks & 0xffffffULL, attempt);
  return buf;
}

// What a target that exists but is not a regular file is, for messages.
const char* special_file_kind(mode_t mode) {
  return S_ISDIR(mode)                      ? "a directory"
         : S_ISFIFO(mode)                   ? "a FIFO"
         : (S_ISCHR(mode) || S_ISBLK(mode)) ? "a device"
         : S_ISSOCK(mode)                   ? "a socket"
                                            : "a special file";
}

std::string not_regular_message(const std::string& action, const std::string& shown, mode_t mode) {
  return "cannot " + action + " '" + shown + "': it exists and is " + special_file_kind(mode) +
         ", not a regular file; choose another name";
}

std::string in_quotes(const std::filesystem::path& p) {
  std::string s(1, '\'');  // built piecewise: GCC 12 -Wrestrict
  s.append(p.string());
  s.push_back('\'');
  return s;
}

// Why `dir` cannot be the folder of an output (empty when it is one or can be made): it exists and
// is not a folder, or the nearest part of the path above it that exists is not a writable folder.
std::string folder_cannot_be_made(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return {};
  if (std::filesystem::exists(dir, ec)) return in_quotes(dir) + " exists and is not a folder";
  std::filesystem::path above = dir;
  while (!above.empty() && !std::filesystem::exists(above, ec)) above = above.parent_path();
  if (above.empty()) above = ".";
  if (!std::filesystem::is_directory(above, ec)) return in_quotes(above) + " exists and is not a folder";
  if (::access(above.c_str(), W_OK | X_OK) != 0) {
    return "the folder " + in_quotes(above) + " is not writable (" + std::strerror(errno) + ")";
  }
  return {};
}

}  // namespace

void check_writable_target(const std::filesystem::path& target, const std::string& action,
                           WritableTarget kind) {
  const std::string shown = target.string();
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    const bool device_ok = kind == WritableTarget::RegularFileOrDevice && S_ISCHR(st.st_mode);
    if (!S_ISREG(st.st_mode) && !device_ok) throw Error(not_regular_message(action, shown, st.st_mode));
    if (device_ok) return;  // a stream into the device: no file is made beside it
  } else if (::lstat(target.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    throw Error("cannot " + action + " '" + shown + "': it is a symbolic link to nothing");
  }
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (kind == WritableTarget::InFolderToMake && !std::filesystem::is_directory(dir, ec)) {
    const std::string why = folder_cannot_be_made(dir);
    if (!why.empty()) throw Error("cannot " + action + " '" + shown + "': " + why);
    return;  // the folder is made before the file is written: nothing is there yet
  }
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error("cannot " + action + " '" + shown + "': the folder '" + dir.string() + "' does not exist");
  }
  // Even an existing file is replaced through a temporary file made in its folder.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw Error("cannot " + action + " '" + shown + "': the folder '" + dir.string() + "' is not writable (" +
                std::strerror(errno) + ")");
  }
}

void check_folder_to_make(const std::filesystem::path& dir, const std::string& what) {
  const std::string why = folder_cannot_be_made(dir);
  if (!why.empty()) throw Error("cannot write " + what + " to " + dir.string() + ": " + why);
}

void make_folder_for(const std::filesystem::path& dir, const std::string& what) {
  check_folder_to_make(dir, what);
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot make the folder " + dir.string() + " for the " + what + ": " + ec.message());
}

AtomicFileWriter::AtomicFileWriter(std::filesystem::path target, std::string action)
    : target_(std::move(target)), action_(std::move(action)), shown_(target_.string()) {
  struct stat st {};
  bool exists = ::lstat(target_.c_str(), &st) == 0;
  if (exists && S_ISLNK(st.st_mode)) {
    // Replace the file the link names, not the link itself.
    std::error_code ec;
    const std::filesystem::path resolved = std::filesystem::canonical(target_, ec);
    if (ec) fail("it is a symbolic link to nothing", ENOENT);
    target_ = resolved;
    exists = ::stat(target_.c_str(), &st) == 0;
  }
  if (exists && !S_ISREG(st.st_mode)) throw Error(not_regular_message(action_, shown_, st.st_mode));
  const std::filesystem::path dir =
      target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
  std::string base(1, '.');  // hidden (built piecewise: GCC 12 -Wrestrict)
  base.append(target_.filename().string());
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_ = dir / (base + temp_suffix(attempt));
    // 0666: the kernel applies the umask, as for any new file; the process umask is never touched.
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0 || errno != EEXIST) break;
  }
  if (fd_ < 0) {
    const int err = errno;
    temp_.clear();
    fail("cannot create a temporary file in '" + dir.string() + "'", err);
  }
  if (exists) (void)::fchmod(fd_, st.st_mode & 07777);  // replacing a file keeps its permissions
}

AtomicFileWriter::~AtomicFileWriter() {
  discard();
}

void AtomicFileWriter::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

void AtomicFileWriter::fail(const std::string& what, int err) {
  discard();
  throw Error("cannot " + action_ + " '" + shown_ + "': " + what + ": " + std::strerror(err));
}

void AtomicFileWriter::write(const void* data, size_t n) {
  if (fd_ < 0) throw Error("cannot " + action_ + " '" + shown_ + "': the file was already closed");
  int err = 0;
  (void)write_all(fd_, data, n, &err);
  if (err != 0) fail("write failed", err);
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) throw Error("cannot " + action_ + " '" + shown_ + "': the file was already closed");
  if (::fsync(fd_) != 0) fail("fsync failed", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close failed", errno);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("rename failed", errno);
  temp_.clear();
  // Make the rename itself durable; a failure here does not undo the write.
  const std::filesystem::path dir =
      target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

void write_file_atomically(const std::filesystem::path& file, std::string_view bytes,
                           const std::string& action) {
  AtomicFileWriter out(file, action);
  out.write(bytes.data(), bytes.size());
  out.commit();
}

}  // namespace physarum
