#include "sim/write_all.hpp"

#include <unistd.h>

#include <cerrno>

namespace physarum {

size_t write_all(int fd, const void* data, size_t size, int* err) {
  const auto* p = static_cast<const char*>(data);
  size_t done = 0;
  *err = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, p + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *err = n < 0 ? errno : EIO;
      break;
    }
    done += static_cast<size_t>(n);
  }
  return done;
}

}  // namespace physarum
