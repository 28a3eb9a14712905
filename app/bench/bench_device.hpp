// What every benchmark needs of the device, whether or not the CUDA backend is built: waiting for
// queued work, and the copy bandwidth the streaming bound is measured against.
#pragma once

namespace physarum::app {

// Waits for the device work queued on the CUDA device when `cuda`; the CPU is synchronous already.
void finish_device(bool cuda);

// Copy bandwidth in GB/s (1e9 bytes/s, read plus write): the CUDA device's device-to-device copy
// when `cuda`, else a host memcpy of 256 MiB (the best of five). Throws Error for a device failure
// (OutOfMemoryError when the device's 2 GiB of buffers do not fit).
double copy_bandwidth_gbs(bool cuda);

}  // namespace physarum::app
