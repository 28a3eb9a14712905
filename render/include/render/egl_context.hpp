// An OpenGL 4.5 core context with no window, through EGL: on the NVIDIA device platform when a
// CUDA-capable EGL device is present and wanted (the one that is the simulating CUDA device, so
// CUDA-GL interop works there), else Mesa's surfaceless platform (llvmpipe on a machine with no
// GPU). Draw into framebuffer objects.
#pragma once

#include <string>
#include <vector>

namespace physarum::render {

// Of the EGL devices, each given as the CUDA device it is (EGL_CUDA_DEVICE_NV) or -1, the index
// of the one that is `cuda_device`; else the first CUDA one; else -1. On a machine with several
// GPUs this puts the headless GL context on the GPU that simulates, where interop works.
int choose_egl_device(const std::vector<long>& cuda_device_of, int cuda_device);

class EglContext {
 public:
  // Makes the context current on this thread and loads the GL functions. Throws Error saying
  // which platforms were tried and why each failed.
  explicit EglContext(bool prefer_cuda_device);
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  const std::string& description() const { return description_; }  // platform and GL renderer

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string description_;
};

}  // namespace physarum::render
