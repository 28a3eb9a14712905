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

CudaGlTexture::CudaGlTexture(unsigned int gl_texture) {
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
  if (resource_) INTEROP_LOG(cudaGraphicsUnregisterResource(res(resource_)));
}

CudaGlTexture::CudaGlTexture(CudaGlTexture&& o) noexcept : resource_(std::exchange(o.resource_, nullptr)) {}

CudaGlTexture& CudaGlTexture::operator=(CudaGlTexture&& o) noexcept {
  if (this != &o) {
    if (resource_) INTEROP_LOG(cudaGraphicsUnregisterResource(res(resource_)));
    resource_ = std::exchange(o.resource_, nullptr);
  }
  return *this;
}

void CudaGlTexture::publish(Backend& backend) {
  cudaGraphicsResource_t r = res(resource_);
  INTEROP_CHECK(cudaGraphicsMapResources(1, &r, 0));
  cudaSurfaceObject_t surface = 0;
  try {
    // The map orders GL's pending work on the texture only before later work on stream 0, but the
    // backend writes on its own non-blocking stream, which does not wait for stream 0: wait here,
    // so GL has finished with the texture before the publish kernel overwrites it.
    INTEROP_CHECK(cudaStreamSynchronize(0));
    cudaArray_t array = nullptr;
    INTEROP_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, r, 0, 0));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    INTEROP_CHECK(cudaCreateSurfaceObject(&surface, &desc));
    backend.publish(static_cast<uint64_t>(surface));
    // The backend may write on its own stream; wait for it so the unmap below (on the legacy
    // stream) cannot release the texture to GL before the write has finished.
    INTEROP_CHECK(cudaDeviceSynchronize());
  } catch (...) {
    // The publish kernel may have been enqueued before the failure and still be writing the
    // texture: wait for it before the surface goes and the texture returns to GL. (If the wait
    // itself fails the context is lost, and nothing runs any more.)
    INTEROP_LOG(cudaDeviceSynchronize());
    if (surface) INTEROP_LOG(cudaDestroySurfaceObject(surface));
    INTEROP_LOG(cudaGraphicsUnmapResources(1, &r, 0));
    throw;
  }
  INTEROP_LOG(cudaDestroySurfaceObject(surface));
  INTEROP_CHECK(cudaGraphicsUnmapResources(1, &r, 0));
}

}  // namespace physarum::render
