// Builds without CUDA: there is no interop; registration fails with a reason the panel shows.
#if !defined(PHYSARUM_HAS_CUDA)
#include <utility>

#include "render/cuda_interop.hpp"
#include "sim/params.hpp"

namespace physarum::render {

bool cuda_interop_built() {
  return false;
}

CudaGlTexture::CudaGlTexture(unsigned int) {
  throw Error("this build has no CUDA (CPU backend only)");
}
CudaGlTexture::~CudaGlTexture() = default;
CudaGlTexture::CudaGlTexture(CudaGlTexture&& o) noexcept : resource_(std::exchange(o.resource_, nullptr)) {}
CudaGlTexture& CudaGlTexture::operator=(CudaGlTexture&& o) noexcept {
  resource_ = std::exchange(o.resource_, nullptr);
  return *this;
}
void CudaGlTexture::publish(Backend&) {
  throw Error("this build has no CUDA (CPU backend only)");
}

CudaGlVolume::CudaGlVolume(unsigned int) {
  throw Error("this build has no CUDA (CPU backend only)");
}
CudaGlVolume::~CudaGlVolume() = default;
void CudaGlVolume::copy_from_device(const float*, int, int, int) {
  throw Error("this build has no CUDA (CPU backend only)");
}

}  // namespace physarum::render
#endif
