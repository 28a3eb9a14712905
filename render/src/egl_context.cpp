#include "render/egl_context.hpp"

#include <glad/egl.h>
#include <glad/gl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "sim/cuda_info.hpp"
#include "sim/params.hpp"

namespace physarum::render {
namespace {

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + 1, name)) {
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  }
  return false;
}

// The EGL device that is the CUDA device the backend computes on (kCudaDevice), as a display, so
// that CUDA-GL interop works on a machine with several GPUs; failing that, the first CUDA device.
EGLDisplay nvidia_device_display(std::string& why_not, std::string& which) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_extension(client, "EGL_EXT_device_enumeration") ||
      !has_extension(client, "EGL_EXT_platform_device") || !eglQueryDevicesEXT || !eglGetPlatformDisplayEXT) {
    why_not = "EGL_EXT_device_enumeration / EGL_EXT_platform_device not offered";
    return EGL_NO_DISPLAY;
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count <= 0) {
    why_not = "no EGL devices";
    return EGL_NO_DISPLAY;
  }
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  eglQueryDevicesEXT(count, devices.data(), &count);
  devices.resize(static_cast<size_t>(std::max<EGLint>(count, 0)));
  std::vector<long> cuda_ids;  // EGL_CUDA_DEVICE_NV of each device, -1 when it has none
  for (EGLDeviceEXT dev : devices) {
    const char* ext = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(dev, EGL_EXTENSIONS) : nullptr;
    EGLAttrib id = -1;
    if (!has_extension(ext, "EGL_NV_device_cuda") || !eglQueryDeviceAttribEXT ||
        !eglQueryDeviceAttribEXT(dev, EGL_CUDA_DEVICE_NV, &id)) {
      id = -1;
    }
    cuda_ids.push_back(static_cast<long>(id));
  }
  const int pick = choose_egl_device(cuda_ids, kCudaDevice);
  if (pick < 0) {
    why_not = "no EGL device with EGL_NV_device_cuda";
    return EGL_NO_DISPLAY;
  }
  which = cuda_ids[static_cast<size_t>(pick)] == kCudaDevice
              ? "CUDA device " + std::to_string(kCudaDevice)
              : "CUDA device " + std::to_string(cuda_ids[static_cast<size_t>(pick)]) +
                    ", not the simulating device " + std::to_string(kCudaDevice) + ": interop will copy";
  EGLDisplay d =
      eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[static_cast<size_t>(pick)], nullptr);
  if (d == EGL_NO_DISPLAY) why_not = "no display for the EGL device that is " + which;
  return d;
}

}  // namespace

int choose_egl_device(const std::vector<long>& cuda_device_of, int cuda_device) {
  int first_cuda = -1;
  for (size_t i = 0; i < cuda_device_of.size(); ++i) {
    if (cuda_device_of[i] == cuda_device) return static_cast<int>(i);
    if (cuda_device_of[i] >= 0 && first_cuda < 0) first_cuda = static_cast<int>(i);
  }
  return first_cuda;
}

EglContext::EglContext(bool prefer_cuda_device) {
  // Client extensions first (no display yet), then again with the display for its functions.
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) throw Error("cannot load libEGL (install libegl1 and a GL driver)");
  std::string tried;
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string platform;
  if (prefer_cuda_device) {
    std::string why;
    std::string which;
    display = nvidia_device_display(why, which);
    if (display != EGL_NO_DISPLAY) {
      platform = "EGL device platform (NVIDIA, " + which + ")";
    } else {
      tried += "NVIDIA device platform: " + why + "; ";
    }
  }
  if (display == EGL_NO_DISPLAY) {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (has_extension(client, "EGL_MESA_platform_surfaceless") && eglGetPlatformDisplayEXT) {
      display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      platform = "Mesa surfaceless platform";
    } else {
      tried += "Mesa surfaceless: EGL_MESA_platform_surfaceless not offered; ";
    }
  }
  if (display == EGL_NO_DISPLAY) {
    display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    platform = "default EGL display";
  }
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    throw Error("no EGL display for headless rendering (" + tried + "default display failed)");
  }
  display_ = display;
  try {
    if (!gladLoaderLoadEGL(display)) throw Error("cannot load EGL functions for the display");
    if (!eglBindAPI(EGL_OPENGL_API)) throw Error("EGL cannot bind the desktop OpenGL API");
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                     EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    if (!eglChooseConfig(display, config_attribs, &config, 1, &n) || n < 1) {
      const EGLint any_surface[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
      if (!eglChooseConfig(display, any_surface, &config, 1, &n) || n < 1) {
        throw Error("EGL on " + platform + " offers no OpenGL config");
      }
    }
    const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                  4,
                                  EGL_CONTEXT_MINOR_VERSION,
                                  5,
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                  EGL_NONE};
    EGLContext ctx = eglCreateContext(display, config, EGL_NO_CONTEXT, ctx_attribs);
    if (ctx == EGL_NO_CONTEXT)
      throw Error("EGL on " + platform + " cannot create an OpenGL 4.5 core context");
    context_ = ctx;
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
      throw Error("EGL on " + platform + " cannot make a context current without a surface");
    }
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
      throw Error("cannot load OpenGL 4.5 functions through EGL");
    }
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    description_ = platform + ", " + (renderer ? renderer : "unknown renderer");
  } catch (...) {
    if (context_) eglDestroyContext(display, static_cast<EGLContext>(context_));
    eglTerminate(display);
    throw;
  }
}

EglContext::~EglContext() {
  auto display = static_cast<EGLDisplay>(display_);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display, static_cast<EGLContext>(context_));
  eglTerminate(display);
}

}  // namespace physarum::render
