// An OpenGL 4.5 core context with no window, through EGL: on the NVIDIA device platform when a
// CUDA-capable EGL device is present and wanted (CUDA-GL interop works there), else Mesa's
// surfaceless platform (llvmpipe on a machine with no GPU). Draw into framebuffer objects.
#pragma once

#include <string>

namespace physarum::render {

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
