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

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_input_file(const std::filesystem::path& file, std::string_view what, size_t max_bytes) {
  std::string name(what);
  name.append(" '").append(file.string()).append("'");
  const Fd f{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) throw Error("cannot open " + name + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw Error("cannot read " + name + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    throw Error(name + " is " + file_type_name(st.st_mode) + "; only regular files are accepted");
  }
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    throw Error(name + " is " + std::to_string(st.st_size) + " bytes; the limit for a " + std::string(what) +
                " is " + std::to_string(max_bytes) + " bytes");
  }
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(f.fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("cannot read " + name + ": " + std::strerror(errno));
    if (n == 0) throw Error(name + " shrank while it was being read");
    done += static_cast<size_t>(n);
  }
  return bytes;
}

}  // namespace physarum
