// write() in a loop, the one place that retries a write a signal interrupted (EINTR).
#pragma once

#include <cstddef>

namespace physarum {

// Writes until all `size` bytes are written or write() fails. Returns the bytes written; *err is
// the failed call's errno (EAGAIN: a non-blocking descriptor is full for now), 0 when all were
// written, EIO when write() wrote nothing without saying why.
size_t write_all(int fd, const void* data, size_t size, int* err);

}  // namespace physarum
