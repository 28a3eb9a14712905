// Opened without blocking (O_NONBLOCK: opening a FIFO with no writer returns at once), then fstat on
// the open descriptor decides, so a path swapped between a check and the open cannot slip through.
#include "sim/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/params.hpp"

namespace physarum {
namespace {

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

InputFile::InputFile(const std::filesystem::path& file, std::string_view what, uint64_t max_bytes)
    : name_(what) {
  name_.append(" '").append(file.string()).append("'");
  fd_ = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw Error("cannot open " + name_ + ": " + std::strerror(errno));
  struct stat st {};
  std::string refusal;
  if (::fstat(fd_, &st) != 0) {
    refusal = "cannot read " + name_ + ": " + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    refusal = name_ + " is " + file_type_name(st.st_mode) + "; only regular files are accepted";
  } else if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    refusal = name_ + " is " + std::to_string(st.st_size) + " bytes; the limit for a " + std::string(what) +
              " is " + std::to_string(max_bytes) + " bytes";
  }
  if (!refusal.empty()) {
    ::close(fd_);  // the destructor does not run for a constructor that throws
    throw Error(refusal);
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

InputFile::~InputFile() {
  ::close(fd_);
}

size_t InputFile::read_some(void* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::read(fd_, static_cast<char*>(out) + done, n - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error("cannot read " + name_ + ": " + std::strerror(errno));
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

void InputFile::read(void* out, size_t n) {
  if (read_some(out, n) != n) throw Error(name_ + " shrank while it was being read");
}

std::string read_input_file(const std::filesystem::path& file, std::string_view what, size_t max_bytes) {
  InputFile in(file, what, max_bytes);
  std::string bytes(static_cast<size_t>(in.size()), '\0');
  in.read(bytes.data(), bytes.size());
  return bytes;
}

}  // namespace physarum
