// The CUDA side of the field texture: a registered graphics resource (one RAII owner), mapped
// once per frame to hand the backend a surface object. No CUDA or GL types leak out of here.
#pragma once

#include <string>

namespace physarum {
class Backend;
}

namespace physarum::render {

// True when this build has CUDA-GL interop (it was built with the CUDA backend).
bool cuda_interop_built();

// Whether `cuda_device` is among the `count` CUDA devices that cudaGLGetDevices says run the
// current GL context (CudaGlTexture refuses interop, and the renderer copies, when it is not).
inline bool gl_runs_on_cuda_device(const int* gl_devices, unsigned int count, int cuda_device) {
  for (unsigned int i = 0; i < count; ++i) {
    if (gl_devices[i] == cuda_device) return true;
  }
  return false;
}

class CudaGlTexture {
 public:
  // Registers the GL texture (2D, R32F, or RGBA32F for several species) for surface load/store, after
  // checking that the current GL context runs on the CUDA device the backend uses (kCudaDevice). Throws Error
  // with the reason (no device, GL context on another GPU, remote desktop...); the caller falls back to a
  // copy.
  explicit CudaGlTexture(unsigned int gl_texture);
  ~CudaGlTexture();  // unregisters; failures are logged, never thrown
  CudaGlTexture(const CudaGlTexture&) = delete;
  CudaGlTexture& operator=(const CudaGlTexture&) = delete;
  CudaGlTexture(CudaGlTexture&& o) noexcept;
  CudaGlTexture& operator=(CudaGlTexture&& o) noexcept;

  // Map, create a surface object on the mapped array, backend.publish(surface), unmap, so GL never
  // draws from a mapped texture. On the backend's stream (Backend::publish_stream) all of it is
  // ordered on the GPU and the host does not wait; the surface object is destroyed at the next
  // publish, when the event after its write has long completed. Throws Error.
  void publish(Backend& backend);

 private:
  void release_retired() noexcept;          // waits for the retired surface's write, then destroys it
  void* resource_ = nullptr;                // cudaGraphicsResource_t
  unsigned long long retired_surface_ = 0;  // cudaSurfaceObject_t of the last publish
  void* retired_event_ = nullptr;           // cudaEvent_t recorded after that publish
};

// The CUDA side of a volume's 3D texture (GL_TEXTURE_3D, R32F): registered once (one RAII owner),
// mapped for each frame's copy of the volume's device field into it.
class CudaGlVolume {
 public:
  // Registers the texture after the same device check as CudaGlTexture. Throws Error with the reason.
  explicit CudaGlVolume(unsigned int gl_texture_3d);
  ~CudaGlVolume();  // unregisters; failures are logged, never thrown
  CudaGlVolume(const CudaGlVolume&) = delete;
  CudaGlVolume& operator=(const CudaGlVolume&) = delete;

  // Copies width x height x depth floats (x fastest) at `device_field`, device memory of the CUDA
  // device that simulates, into the texture: map, cudaMemcpy3DAsync into the mapped array, unmap, on
  // the legacy stream, so GL's next use of the texture waits for the copy and the host does not.
  // The field must be complete (Volume::field_storage() waits for the queued steps). Throws Error.
  void copy_from_device(const float* device_field, int width, int height, int depth);

 private:
  void* resource_ = nullptr;  // cudaGraphicsResource_t
};

}  // namespace physarum::render
