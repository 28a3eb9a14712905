// CUDA-GL interop for the field texture. Compiled only with the CUDA backend. cuda_gl_interop.h
// brings the system GL header; this file includes nothing from glad, so the two do not meet.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <utility>

#include "render/cuda_interop.hpp"
#include "sim/backend.hpp"
#include "sim/cuda_info.hpp"
#include "sim/params.hpp"

namespace physarum::render {
namespace {

// One check that throws (with file, line and the failing call) and one that logs, for destructors.
void throw_on_error(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return;
  throw Error(std::string("CUDA error in ") + call + " (" + file + ":" + std::to_string(line) +
              "): " + cudaGetErrorString(e));
}
void log_on_error(cudaError_t e, const char* call, const char* file, int line) noexcept {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "physarum: CUDA error in %s (%s:%d): %s\n", call, file, line, cudaGetErrorString(e));
}
#define INTEROP_CHECK(call) throw_on_error((call), #call, __FILE__, __LINE__)
#define INTEROP_LOG(call) log_on_error((call), #call, __FILE__, __LINE__)

cudaGraphicsResource_t res(void* p) {
  return static_cast<cudaGraphicsResource_t>(p);
}

}  // namespace

bool cuda_interop_built() {
  return true;
}

namespace {
// Throws Error unless the current GL context runs on the CUDA device that simulates.
void check_gl_on_simulating_device() {
  // On a machine with several GPUs the GL context may live on another one than the CUDA device
  // the backend computes on: registration could then fail obscurely or copy across the bus. Ask
  // which devices the current GL context runs on, and fall back (with the reason) if ours is not one.
  int gl_devices[16] = {};
  unsigned int gl_count = 0;
  const cudaError_t q = cudaGLGetDevices(&gl_count, gl_devices, 16, cudaGLDeviceListAll);
  if (q != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky; the fallback goes on with the same context
    throw Error(std::string("cannot tell which GPU runs OpenGL (cudaGLGetDevices: ") + cudaGetErrorString(q) +
                ")");
  }
  if (!gl_runs_on_cuda_device(gl_devices, gl_count, kCudaDevice)) {
    throw Error(gl_count == 0
                    ? std::string("OpenGL does not run on a CUDA device")
                    : "OpenGL runs on CUDA device " + std::to_string(gl_devices[0]) +
                          ", not on CUDA device " + std::to_string(kCudaDevice) + " that simulates");
  }
}
}  // namespace

CudaGlTexture::CudaGlTexture(unsigned int gl_texture) {
  check_gl_on_simulating_device();
  cudaGraphicsResource_t r = nullptr;
  const cudaError_t e =
      cudaGraphicsGLRegisterImage(&r, gl_texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // registration failure is not sticky; clear it for the fallback
    throw Error(std::string("cudaGraphicsGLRegisterImage failed: ") + cudaGetErrorString(e));
  }
  resource_ = r;
}

CudaGlTexture::~CudaGlTexture() {
  release_retired();
  if (resource_) INTEROP_LOG(cudaGraphicsUnregisterResource(res(resource_)));
}

CudaGlTexture::CudaGlTexture(CudaGlTexture&& o) noexcept
    : resource_(std::exchange(o.resource_, nullptr)),
      retired_surface_(std::exchange(o.retired_surface_, 0)),
      retired_event_(std::exchange(o.retired_event_, nullptr)) {}

CudaGlTexture& CudaGlTexture::operator=(CudaGlTexture&& o) noexcept {
  if (this != &o) {
    release_retired();
    if (resource_) INTEROP_LOG(cudaGraphicsUnregisterResource(res(resource_)));
    resource_ = std::exchange(o.resource_, nullptr);
    retired_surface_ = std::exchange(o.retired_surface_, 0);
    retired_event_ = std::exchange(o.retired_event_, nullptr);
  }
  return *this;
}

// A surface object must outlive the kernel that writes through it (destroying one in use is
// undefined), so the last publish's object waits here for its event, a frame later, when the wait
// costs nothing.
void CudaGlTexture::release_retired() noexcept {
  if (retired_event_ != nullptr) {
    INTEROP_LOG(cudaEventSynchronize(static_cast<cudaEvent_t>(retired_event_)));
    INTEROP_LOG(cudaEventDestroy(static_cast<cudaEvent_t>(retired_event_)));
    retired_event_ = nullptr;
  }
  if (retired_surface_ != 0) {
    INTEROP_LOG(cudaDestroySurfaceObject(static_cast<cudaSurfaceObject_t>(retired_surface_)));
    retired_surface_ = 0;
  }
}

// With the backend's stream known, everything is ordered on that stream: the map makes it wait for
// GL's pending work on the texture, the publish kernel follows, and the unmap makes GL's next use
// wait for the kernel. The host never waits, so it builds the next frame while the GPU works.
// Without it (stream 0), the host waits for the device around the write as it must.
void CudaGlTexture::publish(Backend& backend) {
  cudaGraphicsResource_t r = res(resource_);
  const auto stream = reinterpret_cast<cudaStream_t>(backend.publish_stream());
  INTEROP_CHECK(cudaGraphicsMapResources(1, &r, stream));
  cudaSurfaceObject_t surface = 0;
  try {
    // Stream 0: the map orders GL's work only before later work on the legacy stream, and the
    // backend may write on a non-blocking stream of its own, which does not wait for it.
    if (stream == nullptr) INTEROP_CHECK(cudaStreamSynchronize(0));
    cudaArray_t array = nullptr;
    INTEROP_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, r, 0, 0));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    INTEROP_CHECK(cudaCreateSurfaceObject(&surface, &desc));
    backend.publish(static_cast<uint64_t>(surface));
    // Stream 0: the unmap below (on the legacy stream) would not wait for the backend's stream.
    if (stream == nullptr) INTEROP_CHECK(cudaDeviceSynchronize());
  } catch (...) {
    // The publish kernel may have been enqueued before the failure and still be writing the
    // texture: wait for it before the surface goes and the texture returns to GL. (If the wait
    // itself fails the context is lost, and nothing runs any more.)
    INTEROP_LOG(cudaDeviceSynchronize());
    if (surface) INTEROP_LOG(cudaDestroySurfaceObject(surface));
    INTEROP_LOG(cudaGraphicsUnmapResources(1, &r, stream));
    throw;
  }
  if (stream == nullptr) {
    INTEROP_LOG(cudaDestroySurfaceObject(surface));  // the write is done: the device was waited for
  } else {
    // Keep the object until its write has finished (checked at the next publish).
    release_retired();
    cudaEvent_t done = nullptr;
    if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess &&
        cudaEventRecord(done, stream) == cudaSuccess) {
      retired_event_ = done;
      retired_surface_ = surface;
    } else {  // no event: wait for the stream instead, then the object can go now
      if (done != nullptr) INTEROP_LOG(cudaEventDestroy(done));
      INTEROP_LOG(cudaStreamSynchronize(stream));
      INTEROP_LOG(cudaDestroySurfaceObject(surface));
    }
  }
  INTEROP_CHECK(cudaGraphicsUnmapResources(1, &r, stream));
}

CudaGlVolume::CudaGlVolume(unsigned int gl_texture_3d) {
  check_gl_on_simulating_device();
  cudaGraphicsResource_t r = nullptr;
  const cudaError_t e =
      cudaGraphicsGLRegisterImage(&r, gl_texture_3d, GL_TEXTURE_3D, cudaGraphicsRegisterFlagsWriteDiscard);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky; the renderer copies through the host instead
    throw Error(std::string("cudaGraphicsGLRegisterImage (3D) failed: ") + cudaGetErrorString(e));
  }
  resource_ = r;
}

CudaGlVolume::~CudaGlVolume() {
  if (resource_) INTEROP_LOG(cudaGraphicsUnregisterResource(res(resource_)));
}

void CudaGlVolume::copy_from_device(const float* device_field, int width, int height, int depth) {
  cudaGraphicsResource_t r = res(resource_);
  INTEROP_CHECK(cudaGraphicsMapResources(1, &r, 0));
  try {
    cudaArray_t array = nullptr;
    INTEROP_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, r, 0, 0));
    cudaMemcpy3DParms p{};
    p.srcPtr =
        make_cudaPitchedPtr(const_cast<float*>(device_field), sizeof(float) * static_cast<size_t>(width),
                            static_cast<size_t>(width), static_cast<size_t>(height));
    p.dstArray = array;
    p.extent =
        make_cudaExtent(static_cast<size_t>(width), static_cast<size_t>(height), static_cast<size_t>(depth));
    p.kind = cudaMemcpyDeviceToDevice;
    INTEROP_CHECK(cudaMemcpy3DAsync(&p, 0));
  } catch (...) {
    INTEROP_LOG(cudaGraphicsUnmapResources(1, &r, 0));
    throw;
  }
  INTEROP_CHECK(cudaGraphicsUnmapResources(1, &r, 0));
}

}  // namespace physarum::render
